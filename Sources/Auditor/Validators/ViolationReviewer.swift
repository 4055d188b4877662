/// A record-level Swift hook that sees the violations the built-in rules (the rules file's
/// constraints and record rules, and the other hooks) found in a record, and makes them
/// consumable: it may rewrite their messages (a domain sentence instead of `salary must be at
/// least 0`), merge several into one, add its own, or suppress one. It cannot drop a violation
/// silently: there is no way to remove one, and every violation it suppresses or merges into
/// another is still counted by its rule (so the run's result does not change) and reported as
/// *suppressed by hook* with the reviewer's id (``RuleOutcome/suppressedByHook``).
///
/// ```swift
/// hooks.add(ViolationReviewer(id: "person.review", attributes: ["name"]) { record, review in
///     let pay = review.violations.indices.filter { review.violations[$0].attribute == "salary" }
///     if pay.count > 1 { review.merge(pay, message: "\(record["name"])'s salary is not a valid amount.") }
/// }, to: "Person")
/// ```
///
/// Runs once per record with violations, on the audit thread, in input order, after every
/// chunk's rules ran; reviewers run in registration order, each seeing the previous one's
/// decisions. The closure must be `@Sendable` and pure, like every hook.
public struct ViolationReviewer: Sendable {
    /// The id the report names (`suppressed by hook <id>`) and the rule id of the violations
    /// the reviewer adds; unique among the entity's rules.
    public var id: String
    /// The attributes the closure reads through its view (checked before the run).
    public var attributes: [String]
    /// The code of added violations in reports.
    public var code: Int
    public var severity: Severity
    /// The records reviewed, as ``RecordValidator/on``; nil: every record of the current snapshot.
    public var on: RecordEvents?
    private let body: @Sendable (RecordView, inout ViolationReview) -> Void

    public init(id: String, attributes: [String] = [], code: Int = ValidationCode.generic, severity: Severity = .error,
                on: RecordEvents? = nil, _ body: @escaping @Sendable (RecordView, inout ViolationReview) -> Void) {
        self.id = id
        self.attributes = attributes
        self.code = code
        self.severity = severity
        self.on = on
        self.body = body
    }

    /// Reviews one record's violations.
    /// - Parameters:
    ///   - record: The record, read as a hook reads it.
    ///   - review: The violations so far; what this reviewer suppresses or merges counts as
    ///     suppressed by its ``id``.
    public func review(_ record: RecordView, _ review: inout ViolationReview) {
        review.reviewer = id
        body(record, &review)
    }
}

/// The violations of one record as a ``ViolationReviewer`` sees them, and its decisions.
public struct ViolationReview: Sendable {
    /// One violation the built-in rules found.
    public struct Found: Sendable, Equatable {
        public var ruleID: String
        public var code: Int
        /// The attribute of an attribute rule; nil for record rules and reader issues.
        public var attribute: String?
        /// The finding's message, as rendered (or as a reviewer rewrote it).
        public var message: String

        public init(ruleID: String, code: Int, attribute: String?, message: String) {
            self.ruleID = ruleID
            self.code = code
            self.attribute = attribute
            self.message = message
        }
    }

    /// The record's violations, in the order of its findings.
    public private(set) var violations: [Found]
    /// Per violation: the reviewer that suppressed it (directly or by a merge), if any.
    public private(set) var suppressedBy: [String?]
    /// Violations the reviewers added, with the adding reviewer's id.
    public private(set) var added: [(reviewer: String, violation: Violation)] = []
    /// The reviewer now running (set by the engine).
    var reviewer = ""

    public init(_ violations: [Found]) {
        self.violations = violations
        suppressedBy = violations.map { _ in nil }
    }

    /// Replaces a violation's message.
    public mutating func rewrite(_ index: Int, message: String) {
        guard violations.indices.contains(index) else { return }
        violations[index].message = message
    }

    /// Merges violations into the first of them, which takes `message`; the others are no
    /// longer listed and count as suppressed by this reviewer.
    public mutating func merge(_ indexes: [Int], message: String) {
        let valid = indexes.filter { violations.indices.contains($0) && suppressedBy[$0] == nil }
        guard let first = valid.first else { return }
        violations[first].message = message
        for i in valid.dropFirst() { suppressedBy[i] = reviewer }
    }

    /// Stops listing a violation; it still counts for its rule, as suppressed by this reviewer.
    public mutating func suppress(_ index: Int) {
        guard violations.indices.contains(index), suppressedBy[index] == nil else { return }
        suppressedBy[index] = reviewer
    }

    /// Adds a violation of the reviewer's own rule.
    public mutating func add(_ violation: Violation) {
        added.append((reviewer, violation))
    }
}
