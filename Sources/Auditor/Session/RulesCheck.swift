/// What `auditor check` finds in a rules file: the compiled plan, lint warnings, and with
/// `data` the comparison of each source's real fields with the declared attributes.
package struct RulesCheck {
    package var plan: AuditPlan
    /// Problems that make the check fail (exit 65): a declared attribute a source lacks.
    package var errors: [LintDiagnostic] = []
    /// What is printed and passes (a rule that always holds, an unused source...).
    package var warnings: [LintDiagnostic] = []

    /// Checks a rules file.
    /// - Throws: ``AuditError`` `.invalidRules` (78) with every located mistake; what opening
    ///   a source throws when `data` is set; `.invalidRules` too when
    ///   `hooks` lacks a validator that the rules name (`validators:`).
    package init(_ path: String, registry: ReaderRegistry, structuralRules: [StructuralRule], data: Bool,
                 hooks: ValidationHooks = ValidationHooks()) throws {
        let (spec, plan) = try AuditSession.loadSpecAndPlan(path, registry: registry, structuralRules: structuralRules)
        try hooks.requireNamed(in: plan)
        self.plan = plan
        warnings = RulesLint.warnings(spec).map { LintDiagnostic(.warning, $0) }
        if data {
            let found = try SourceFieldsCheck.run(plan, registry: registry)
            errors = found.filter { $0.level == .error }
            warnings += found.filter { $0.level == .warning }
        }
    }

    /// `ok: 2 sources, 2 entities, 34 rules, 1 warning`.
    package var summary: String {
        let rules = plan.entities.reduce(0) { $0 + $1.rules.count }
        let note = warnings.isEmpty ? "" : ", " + Plural.count(warnings.count, "warning")
        return "ok: \(Plural.count(plan.sources.count, "source")), \(Plural.count(plan.entities.count, "entity", "entities")), "
            + Plural.count(rules, "rule") + note
    }
}
