/// The Swift validators a rules file names (`validators:` on an entity) against the ones the
/// running auditor carries (``AuditRequest/hooks``).
extension ValidationHooks {
    /// One located error per validator that a rules file names and these hooks lack.
    /// - Parameter plan: The compiled rules.
    /// - Returns: Diagnostics at the names in the rules file, empty when every one is here.
    package func missing(in plan: AuditPlan) -> [Diagnostic] {
        var out = [Diagnostic]()
        for entity in plan.entities {
            let here = Set(self[entity.name].ruleIDs)
            for named in entity.validators where !here.contains(named.id) {
                var m = "entity '\(entity.name)' names the Swift validator '\(named.id)', which this auditor does not carry"
                if let other = entities.keys.sorted().first(where: { self[$0].ruleIDs.contains(named.id) }) {
                    m += "; it is registered on entity '\(other)'"
                } else if here.isEmpty {
                    m += " (it carries none for '\(entity.name)'). Run the auditor built with your team's validators "
                        + "(docs/validators.md, A team's auditor), not the stock one"
                } else {
                    m += " (it carries \(here.sorted().map { "'\($0)'" }.joined(separator: ", ")))"
                    if let s = Suggest.closest(to: named.id, in: Array(here)) { m += "; did you mean '\(s)'?" }
                }
                out.append(Diagnostic(mark: named.mark, message: m))
            }
        }
        return out
    }

    /// - Throws: ``AuditError`` `.invalidRules` (78) with ``missing(in:)``'s diagnostics, if any.
    package func requireNamed(in plan: AuditPlan) throws {
        let missing = missing(in: plan)
        if !missing.isEmpty { throw AuditError.invalidRules(missing) }
    }

    /// The hooks a run uses: every one (a library user's registration), or with `onlyNamed`
    /// only those each entity names in `validators:` (an auditor binary that carries a team's
    /// validators for many rules files runs, for each file, what that file asks for).
    /// - Throws: ``AuditError`` `.invalidRules` (78) when the rules name a validator these
    ///   hooks lack: a declared check must never be skipped in silence.
    func selected(for plan: AuditPlan, onlyNamed: Bool) throws -> ValidationHooks {
        try requireNamed(in: plan)
        guard onlyNamed else { return self }
        var out = ValidationHooks()
        for entity in plan.entities where !entity.validators.isEmpty {
            let named = Set(entity.validators.map(\.id))
            let hooks = self[entity.name]
            for v in hooks.attributeValidators where named.contains(v.id) { out.add(v, to: entity.name) }
            for v in hooks.recordValidators where named.contains(v.id) { out.add(v, to: entity.name) }
            for v in hooks.reviewers where named.contains(v.id) { out.add(v, to: entity.name) }
        }
        return out
    }
}
