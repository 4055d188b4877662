extension RuleOutcome {
    /// How many of a rule's most frequent failing values a report keeps.
    public static let frequentValuesShown = 10
}

/// One failing value of a rule and how often it failed.
public struct ValueCount: Sendable, Equatable {
    /// The value as findings show it (masked for a sensitive field); nil: the value was missing.
    public var value: String?
    /// Violations with this value: exact when ``error`` is 0, else at most this many.
    public var count: Int
    /// How much ``count`` may overstate: the true count is between `count - error` and `count`.
    public var error: Int

    /// Creates an entry.
    public init(value: String?, count: Int, error: Int = 0) {
        self.value = value
        self.count = count
        self.error = error
    }

    /// Whether ``count`` is exact.
    public var isExact: Bool { error == 0 }
}

/// The most frequent failing values of one rule, in bounded memory: the Space-Saving summary
/// (Metwally, Agrawal, El Abbadi 2005) of at most ``capacity`` values.
///
/// While a rule has at most `capacity` distinct failing values every count is exact. Past
/// that, a new value replaces the least counted one and inherits its count as its ``ValueCount/error``:
/// a value tracked since its first failure still has error 0 and an exact count; any value
/// that failed more than `violations / capacity` times is guaranteed to be tracked. Fed in
/// input order (the engine merges chunks in order), the result is the same for any thread count.
package struct FrequentValues: Sendable, Equatable {
    /// The most distinct values tracked.
    public let capacity: Int
    private var index: [String?: Int] = [:]
    private var entries: [ValueCount] = []

    /// Creates an empty summary.
    /// - Parameter capacity: The most values tracked (at least 1).
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// Counts one failure with `value` (nil: missing).
    /// - Complexity: O(1) for a tracked value or while there is room; O(capacity) to replace one.
    public mutating func add(_ value: String?, count: Int = 1, error: Int = 0) {
        if let i = index[value] {
            entries[i].count += count
            entries[i].error += error
            return
        }
        if entries.count < capacity {
            index[value] = entries.count
            entries.append(ValueCount(value: value, count: count, error: error))
            return
        }
        // Replace the least counted (the first such, so the result does not depend on hashing).
        var least = 0
        for i in 1 ..< entries.count where entries[i].count < entries[least].count { least = i }
        let floor = entries[least].count
        index[entries[least].value] = nil
        index[value] = least
        entries[least] = ValueCount(value: value, count: floor + count, error: floor + error)
    }

    /// Adds every entry of `other` (a later part of the same input).
    public mutating func merge(_ other: FrequentValues) {
        for e in other.entries { add(e.value, count: e.count, error: e.error) }
    }

    /// The `limit` most frequent values: by the count each is sure to have (`count - error`),
    /// then by count, then by value (missing last).
    public func top(_ limit: Int) -> [ValueCount] {
        entries.sorted { a, b in
            if a.count - a.error != b.count - b.error { return a.count - a.error > b.count - b.error }
            if a.count != b.count { return a.count > b.count }
            switch (a.value, b.value) {
            case let (x?, y?): return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            case (nil, nil): return false
            }
        }.prefix(max(0, limit)).map { $0 }
    }
}
