/// The Swift validators a library user registers, per entity: attribute hooks
/// (``AttributeValidator``) and record hooks (``RecordValidator``). A value, built once and
/// passed to the engine; there is no global registry.
///
/// Thread safety: the engine evaluates chunks in parallel and calls hooks from several
/// threads at once. Hooks are `Sendable` and must be pure: the same record always gives the
/// same violations, whatever the thread count and chunk size, which is what keeps reports
/// byte-identical across runs.
///
/// ```swift
/// var hooks = ValidationHooks()
/// hooks.add(AttributeValidator(id: "person.phones.format", attribute: "phones",
///                              CollectionValidator(each: StringValidator(pattern: try Pattern("[0-9 +]+")))),
///           to: "Person")
/// hooks.add(RecordValidator(id: "person.licence_age", attributes: ["age", "has_licence"], ...), to: "Person")
/// ```
public struct ValidationHooks: Sendable {
    public private(set) var entities: [String: EntityHooks] = [:]

    public init() {}

    /// Registers an attribute hook on an entity (after the ones already registered).
    public mutating func add(_ validator: AttributeValidator, to entity: String) {
        entities[entity, default: EntityHooks()].attributeValidators.append(validator)
    }

    /// Registers a record hook on an entity (after the ones already registered).
    public mutating func add(_ validator: RecordValidator, to entity: String) {
        entities[entity, default: EntityHooks()].recordValidators.append(validator)
    }

    /// Registers a reviewer of the built-in violations on an entity (after the ones already
    /// registered; reviewers run in this order).
    public mutating func add(_ reviewer: ViolationReviewer, to entity: String) {
        entities[entity, default: EntityHooks()].reviewers.append(reviewer)
    }

    /// The hooks of an entity (empty when it has none).
    public subscript(entity: String) -> EntityHooks {
        entities[entity] ?? EntityHooks()
    }

    public var isEmpty: Bool { entities.values.allSatisfy { $0.isEmpty && $0.reviewers.isEmpty } }

    /// Mistakes in the registration of one entity's hooks, as rules-file-style messages: an
    /// attribute that is not one of `attributes`, an id used twice or by a YAML rule.
    /// - Parameters:
    ///   - entity: The entity name.
    ///   - attributes: The entity's attribute names (or the input's fields).
    ///   - ruleIDs: The ids of the entity's other rules.
    public func problems(entity: String, attributes: [String], ruleIDs: [String] = []) -> [String] {
        let hooks = self[entity]
        var out = [String]()
        var seen = Set(ruleIDs)
        func check(_ id: String, reads names: [String]) {
            if !seen.insert(id).inserted {
                out.append("hook id '\(id)' of '\(entity)' is already used by another rule; ids must be unique")
            }
            for name in names where !attributes.contains(name) {
                var m = "hook '\(id)' reads '\(name)', which is not an attribute of '\(entity)'"
                if let s = Suggest.closest(to: name, in: attributes) { m += "; did you mean '\(s)'?" }
                out.append(m)
            }
        }
        for a in hooks.attributeValidators { check(a.id, reads: [a.attribute]) }
        for r in hooks.recordValidators { check(r.id, reads: r.attributes) }
        for r in hooks.reviewers { check(r.id, reads: r.attributes) }
        return out
    }
}

/// One entity's hooks, and their evaluation over a chunk.
public struct EntityHooks: Sendable {
    public var attributeValidators: [AttributeValidator] = []
    public var recordValidators: [RecordValidator] = []
    /// Reviewers of the violations the other rules found (run when a record has any).
    public var reviewers: [ViolationReviewer] = []

    public init(attributeValidators: [AttributeValidator] = [], recordValidators: [RecordValidator] = [],
                reviewers: [ViolationReviewer] = []) {
        self.attributeValidators = attributeValidators
        self.recordValidators = recordValidators
        self.reviewers = reviewers
    }

    /// True when no hook validates records (reviewers only review: see ``reviewers``).
    public var isEmpty: Bool { attributeValidators.isEmpty && recordValidators.isEmpty }

    /// The rule ids: attribute hooks first, then record hooks, then reviewers, each in
    /// registration order. ``HookViolation/rule`` indexes this list.
    public var ruleIDs: [String] { attributeValidators.map(\.id) + recordValidators.map(\.id) + reviewers.map(\.id) }

    /// Every attribute a hook reads, in first-use order.
    public var attributesRead: [String] {
        var seen = Set<String>()
        return (attributeValidators.map(\.attribute) + recordValidators.flatMap(\.attributes))
            .filter { seen.insert($0).inserted }
    }

    /// Runs every hook on every record of a chunk. Pure; call it from the engine's
    /// per-chunk evaluation (any thread).
    /// - Parameters:
    ///   - chunk: The chunk.
    ///   - layout: Attribute name → column (and declared type) for the chunk's reader.
    ///   - excluded: Rows to skip (records a structural issue excludes), if any.
    /// - Returns: The violations sorted by row, then rule (``ruleIDs`` order), then in the
    ///   order the hook returned them.
    /// - Complexity: O(records × hooks) calls; each builds the ``Value``s it reads.
    /// Without snapshots to compare, every record is an insert: hooks scoped with `on:` run
    /// when their events include ``RecordEvents/insert``.
    public func evaluate(_ chunk: RecordChunk, layout: RecordLayout, excluded: [Bool]? = nil) -> [HookViolation] {
        evaluate(chunk, layout: layout, excluded: excluded, typed: [:])
    }

    /// True when a hook is scoped with `on:`: the engine then classifies the records.
    public var isScoped: Bool {
        attributeValidators.contains { $0.on != nil } || recordValidators.contains { $0.on != nil }
            || reviewers.contains { $0.on != nil }
    }

    /// Whether a hook sees deleted records.
    var seesDeleted: Bool {
        attributeValidators.contains { $0.on?.contains(.delete) == true }
            || recordValidators.contains { $0.on?.contains(.delete) == true }
            || reviewers.contains { $0.on?.contains(.delete) == true }
    }

    /// Whether a validating hook sees updated records (its views then carry their previous copies).
    var seesUpdates: Bool {
        attributeValidators.contains { $0.on?.contains(.update) == true }
            || recordValidators.contains { $0.on?.contains(.update) == true }
    }

    /// The attributes whose previous values update hooks read (``RecordView/previous``).
    var attributesReadOnUpdate: [String] {
        attributeValidators.filter { $0.on?.contains(.update) == true }.map(\.attribute)
            + recordValidators.filter { $0.on?.contains(.update) == true }.flatMap(\.attributes)
    }

    /// ``evaluate(_:layout:excluded:)`` with typed reads served by columns the engine already
    /// classified (by chunk column), so that no hook parses an attribute again.
    /// - Parameters:
    ///   - lifecycle: Per row, its ``LifecycleScope`` class (nil: no snapshots compared, every
    ///     record an insert), and the previous copies of updated rows.
    ///   - deletePass: The rows are the previous snapshot's deleted records: only delete hooks run.
    func evaluate(_ chunk: RecordChunk, layout: RecordLayout, excluded: [Bool]?,
                  typed: [Int: any TypedValues], classes: [UInt8]? = nil,
                  committed: [Int: CommittedRecord] = [:], deletePass: Bool = false) -> [HookViolation] {
        guard !isEmpty else { return [] }
        var out = [HookViolation]()
        let offset = attributeValidators.count
        // A hook without `on:` sees every record of the current snapshot; one with `on:` the
        // records of its events.
        func applies(_ on: RecordEvents?, _ event: RecordEvents?) -> Bool {
            guard let on else { return !deletePass }
            return event.map { on.contains($0) } ?? false
        }
        for row in 0 ..< chunk.count {
            if let excluded, row < excluded.count, excluded[row] { continue }
            let event = classes.map { RecordEvents(class: $0[row]) } ?? .insert
            let view = RecordView(chunk: chunk, row: row, layout: layout, typed: typed, committed: committed[row],
                                  event: event)
            for (i, a) in attributeValidators.enumerated() where applies(a.on, event) {
                for v in a.validate(view) { out.append(HookViolation(row: row, rule: i, violation: v)) }
            }
            for (i, r) in recordValidators.enumerated() where applies(r.on, event) {
                for v in r.validate(view) { out.append(HookViolation(row: row, rule: offset + i, violation: v)) }
            }
        }
        return out
    }
}

/// One violation found by a hook in a chunk.
public struct HookViolation: Sendable, Equatable {
    /// The record's index within the chunk.
    public var row: Int
    /// Index into ``EntityHooks/ruleIDs``.
    public var rule: Int
    public var violation: Violation

    public init(row: Int, rule: Int, violation: Violation) {
        self.row = row
        self.rule = rule
        self.violation = violation
    }
}
