/// Compilation of rules over whole records (`rules:` with `when:` and `assert:`).
extension RuleCompiler {
    static func compileRecordRules(_ e: EntitySpec, _ plan: inout EntityPlan, catalog: MessageCatalog, now: Int64,
                                   into d: inout [Diagnostic]) {
        // `previous.x` and `changed(x)` compile for every rule; only `on: [update]` may use them.
        let attributes = LifecycleInput.attributes(plan.attributes.map { ExpressionAttribute(name: $0.name, type: $0.type) })
        for (i, rule) in e.recordRules.enumerated() {
            var when: CompiledExpression?
            let assert: CompiledExpression
            do throws(Diagnostic) {
                if let w = rule.when {
                    when = try ExpressionCompiler.compile(w.text, mark: start(w.node), attributes: attributes, now: now)
                }
                assert = try ExpressionCompiler.compile(rule.assert.text, mark: start(rule.assert.node),
                                                        attributes: attributes, now: now)
            } catch {
                d.append(error)
                continue
            }
            let updateOnly = rule.options.on == .updated
            if !updateOnly, let problem = previousReadOutsideUpdate(rule, when: when, assert: assert) {
                d.append(problem)
                continue
            }
            let id = rule.options.id ?? "\(e.idPrefix).rules.\(i + 1)"
            let summary = rule.description ?? (when.map { "when \($0.source): \(assert.source)" } ?? assert.source)
            var params = ["assert": assert.source]
            if let when { params["when"] = when.source }
            // Every attribute may be named in the message: it is replaced by the record's value.
            var known = Set(plan.attributes.map(\.name))
            known.insert("values")
            // An update rule's message may name the previous values: `{previous.salary}`.
            if updateOnly { for a in plan.attributes { known.insert(LifecycleInput.previousName(a.name)) } }
            // The description is the rule's summary already: not repeated as its description.
            var recordOptions = rule.options
            recordOptions.description = nil
            let ci = addCheck(&plan, id: id, kind: "record", attribute: nil, summary: summary, code: .generic,
                              options: recordOptions, entity: e, mark: rule.mark, catalog: catalog,
                              messageKind: "record",
                              parameters: params, extraPlaceholders: known, into: &d)
            plan.checks[ci].test = .record(when: when, assert: assert)
            plan.checks[ci].scope = rule.options.on
        }
    }

    /// The error for a rule that reads `previous.x` or `changed(x)` without being scoped to
    /// updates alone (inserted records have no previous value, deleted ones no current one),
    /// at the expression that reads it.
    private static func previousReadOutsideUpdate(_ rule: RecordRuleSpec, when: CompiledExpression?,
                                                  assert: CompiledExpression) -> Diagnostic? {
        for (expression, node) in [(when, rule.when?.node), (assert, rule.assert.node)] {
            guard let expression, let node,
                  let name = expression.inputs.first(where: { LifecycleInput($0).readsPrevious }) else { continue }
            let scope = rule.options.on.map { "'on: [\($0.description)]'" } ?? "no 'on:'"
            return Diagnostic(mark: start(node),
                              message: "'\(name)' reads the previous snapshot, which only an updated record has; "
                                  + "this rule has \(scope): scope it with 'on: [update]'")
        }
        return nil
    }

    /// Where an expression's text starts (inside the quotes of a quoted scalar).
    private static func start(_ node: ConfigNode) -> ConfigMark {
        var mark = node.mark
        mark.column = node.column(ofOffset: 0)
        return mark
    }
}
