/// An exact value of an ordered attribute, for the comparisons a double cannot decide.
package enum ExactValue: Sendable, Hashable {
    case number(ExactDecimal)
    case instant(ExactInstant)

    /// -1, 0 or 1 as `a` is below, equal to or above `b`; values of different kinds (which the
    /// compiler never pairs) compare equal.
    public static func compare(_ a: ExactValue, _ b: ExactValue) -> Int {
        switch (a, b) {
        case (.number(let x), .number(let y)): return ExactDecimal.compare(x, y)
        case (.instant(let x), .instant(let y)): return x < y ? -1 : y < x ? 1 : 0
        default: return 0
        }
    }
}

/// A bound (`min`, `max`, `exclusiveMin`, `exclusiveMax`) as the engine compares it.
///
/// `fast` orders like the exact value: a number's correctly rounded double, a date's day, a
/// date-time's whole second (floor). When a value's fast form differs from `fast`, that
/// decides (rounding and flooring never reverse an order); when they are equal (or the value
/// has no exact fast form, NaN), the exact forms decide.
package struct OrderedBound: Sendable {
    /// The double the fast comparison uses.
    public var fast: Double
    /// The exact value; nil when `fast` is exact (dates).
    public var exact: ExactValue?

    public init(fast: Double, exact: ExactValue?) {
        self.fast = fast
        self.exact = exact
    }
}

/// The allowed values of a numeric `enum:`, as the engine tests membership.
package struct NumberSet: Sendable {
    /// The doubles of the members with at most 15 significant digits (``ExactDecimal/isShort``).
    public var fast: Set<Double>
    /// Every member, exactly.
    public var exact: Set<ExactDecimal>
    /// Whether a member is not in `fast` (more significant digits than a double holds).
    public var hasLong: Bool

    /// - Parameter members: the allowed values.
    public init(_ members: [ExactDecimal]) {
        exact = Set(members)
        fast = Set(members.compactMap(\.shortDouble).map { $0 == 0 ? 0 : $0 })
        hasLong = members.contains { !$0.isShort }
    }
}
