/// An ``EntityPlan`` bound to one reader: attribute names resolved to column indexes, the
/// reader's structural rules added in front of the entity's own rules.
package struct BoundEntity: Sendable {
    public var plan: EntityPlan
    /// Per attribute: its column in the reader's schema, -1 when the input lacks it (only
    /// allowed when a `columns:` rule reports schema drift).
    public var columns: [Int]
    /// Attributes that take part in a key (uniqueness, references, provided key sets).
    public var keyAttributes: Set<Int>
    /// The input's fields (for `columns:` rules).
    public var inputFields: [String]
    /// The key attributes' columns, with their names.
    public var keyColumns: [(name: String, column: Int)]
    /// Whether a key attribute is `sensitive` (findings show its key masked).
    public var hasSensitiveKey: Bool
    /// Slot of each structural rule, by the reader's own id (`csv.row.ragged`, as chunk
    /// issues name it).
    public var structuralSlots: [String: Int]
    /// The reader's own id of the structural rule in each of the first slots (the report's id
    /// is qualified with the source: ``StructuralRuleID``).
    public var structuralIDs: [String]
    /// Message of each structural rule, by the reader's own id.
    public var structuralMessages: [String: MessageTemplate]
    public var locationStyle: LocationStyle
    public var displayPath: String
    /// The files of a multi-file source (nil for one file): findings name the file of their record.
    package var files: SourceFiles?
    /// Swift validators registered on this entity, their first check index, and the layout
    /// they read records through.
    public var hooks: EntityHooks
    public var hookCheckBase: Int
    public var layout: RecordLayout
    /// The catalog's `list.and`, which joins the summaries of constraints sharing one rule id.
    public var listJoin: ReportWording = .english

    /// Binds a plan to a reader's schema.
    /// - Throws: ``AuditError`` `.malformedInput` when an attribute is not a field of the input
    ///   (a data problem, located at the input: see ``missingFieldsError(_:fields:available:displayPath:locationStyle:)``).
    public init(plan: EntityPlan, schema: Schema, structural: [StructuralRule], locationStyle: LocationStyle,
                displayPath: String, catalog: MessageCatalog = .english, inputFields: [String]? = nil,
                hooks: EntityHooks = EntityHooks()) throws {
        if let e = Self.missingFieldsError(plan, fields: schema.fields, available: inputFields, displayPath: displayPath,
                                           locationStyle: locationStyle) { throw e }
        let columns = plan.attributes.map { schema.index(of: $0.name) ?? -1 }
        var bound = plan
        let offset = structural.count
        var slots = [String: Int]()
        var messages = [String: MessageTemplate]()
        var rules = [RuleInfo]()
        for (i, s) in structural.enumerated() {
            // The report's id names the source: two CSV sources both have `csv.row.ragged`.
            let id = StructuralRuleID.qualified(s.id, source: plan.source)
            slots[s.id] = i
            let text = catalog.byRule[id] ?? catalog.byRule[s.id] ?? s.message
            messages[s.id] = (try? MessageTemplate(text, language: catalog.locale)) ?? (try? MessageTemplate(s.summary))
            rules.append(RuleInfo(id: id, entity: nil, source: plan.source, attribute: nil, kinds: ["structure"],
                                  severity: s.severity, code: s.code, summaries: [catalog.summaries[s.id] ?? s.summary]))
        }
        bound.rules = rules + plan.rules
        for i in bound.checks.indices { bound.checks[i].slot += offset }
        hookCheckBase = bound.checks.count
        let validators = hooks.attributeValidators.count + hooks.recordValidators.count
        for (i, id) in hooks.ruleIDs.enumerated() {
            if i >= validators {
                // A reviewer: its rule holds the violations it adds.
                let v = hooks.reviewers[i - validators]
                bound.checks.append(Check(kind: "record", test: .hook(i), slot: bound.rules.count, attribute: nil,
                                          message: MessageTemplate(literal: "{violations}"), parameters: ["rule": id]))
                if let on = v.on { bound.checks[bound.checks.count - 1].scope = LifecycleScope(rawValue: on.rawValue) }
                bound.rules.append(RuleInfo(id: id, entity: plan.name, source: plan.source, attribute: nil, kinds: ["record"],
                                            severity: v.severity, code: v.code, summaries: ["reviews the record's violations"]))
                continue
            }
            let isAttribute = i < hooks.attributeValidators.count
            let a = isAttribute ? hooks.attributeValidators[i] : nil
            let r = isAttribute ? nil : hooks.recordValidators[i - hooks.attributeValidators.count]
            bound.checks.append(Check(kind: isAttribute ? "validator" : "record", test: .hook(i), slot: bound.rules.count,
                                      attribute: a.flatMap { v in plan.attributes.firstIndex { $0.name == v.attribute } },
                                      message: MessageTemplate(literal: "{violations}"),
                                      parameters: ["rule": id]))
            // `on:` scopes a hook as it scopes a rule.
            if let on = a?.on ?? r?.on { bound.checks[bound.checks.count - 1].scope = LifecycleScope(rawValue: on.rawValue) }
            bound.rules.append(RuleInfo(id: id, entity: plan.name, source: plan.source, attribute: a?.attribute,
                                        kinds: [isAttribute ? "validator" : "record"],
                                        severity: a?.severity ?? r?.severity ?? .error,
                                        code: a?.ruleCode ?? r?.code ?? ValidationCode.generic,
                                        summaries: [a.map { "\($0.attribute) must \($0.validator.summary)" } ?? r?.summary ?? id]))
        }
        self.hooks = hooks
        var layoutColumns = [String: Int]()
        var layoutTypes = [String: ValueType]()
        for (i, a) in plan.attributes.enumerated() {
            if let c = schema.index(of: a.name) { layoutColumns[a.name] = c }
            layoutTypes[a.name] = plan.attributes[i].type
        }
        layout = RecordLayout(columns: layoutColumns, types: layoutTypes)
        if !catalog.report.isEmpty { listJoin = ReportWording(catalog) }
        self.plan = bound
        self.columns = columns
        self.keyColumns = plan.key.compactMap { k in
            plan.attributes.firstIndex { $0.name == k }.map { (k, columns[$0]) }
        }.filter { $0.column >= 0 }
        self.hasSensitiveKey = plan.attributes.contains { plan.key.contains($0.name) && $0.sensitive }
        self.keyAttributes = Set(plan.keyRules.flatMap(\.shape.attributes) + plan.providedKeys.flatMap(\.attributes))
        self.inputFields = inputFields ?? schema.fields
        self.structuralSlots = slots
        self.structuralIDs = structural.map(\.id)
        self.structuralMessages = messages
        self.locationStyle = locationStyle
        self.displayPath = displayPath
    }

    /// The cell of attribute `a` in a record (missing when the input lacks the column).
    @inline(__always)
    public func cell(_ chunk: RecordChunk, attribute a: Int, row: Int) -> Cell {
        columns[a] >= 0 ? chunk.columns[columns[a]][row] : .missing
    }

    /// Diagnostics for attributes that are not fields of an input (none when a `columns:`
    /// rule watches the schema: missing attributes are then read as missing).
    public static func unknownAttributes(_ plan: EntityPlan, fields: [String], displayPath: String) -> [Diagnostic] {
        guard !plan.toleratesMissingColumns else { return [] }
        return plan.attributes.filter { !fields.contains($0.name) }.map { a in
            var m = "attribute '\(a.name)' of '\(plan.name)' is not a field of \(displayPath)"
            if let s = Suggest.closest(to: a.name, in: fields) {
                m += "; did you mean '\(s)'?"
            } else {
                m += " (its fields: \(fields.prefix(12).joined(separator: ", "))\(fields.count > 12 ? ", ..." : ""))"
            }
            return Diagnostic(mark: a.mark, message: m)
        }
    }

    /// The chunk columns of an expression's inputs, or nil when the input lacks one.
    public func columns(of expression: CompiledExpression) -> [Int]? {
        var out = [Int]()
        for name in expression.inputs.map({ LifecycleInput($0).attribute }) {
            guard let a = plan.attributes.firstIndex(where: { $0.name == name }), columns[a] >= 0 else { return nil }
            out.append(columns[a])
        }
        return out
    }
}

extension BoundEntity {
    /// What `rule` requires, its constraints' summaries joined with the catalog's `list.and`:
    /// `name has at least 3 characters and name has at most 32 characters` (`… et …` in French).
    /// - Parameter rule: A rule of ``plan``.
    public func summary(of rule: RuleInfo) -> String {
        guard let first = rule.summaries.first else { return "" }
        return rule.summaries.dropFirst().reduce(first) { listJoin("list.and", ["items": $0, "last": $1]) }
    }
}
