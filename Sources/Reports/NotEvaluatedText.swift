import Auditor

/// The words every report uses for rules that evaluated no record (``RuleStatus/notEvaluated``)
/// and for entities whose input has no records: such a rule did not pass, it was not checked.
enum NotEvaluatedText {
    /// An entity whose input was read to its end and has no records.
    struct EmptyEntity {
        var entity: EntityOutcome
        var path: String
        /// The entity's rules, all of them not evaluated.
        var rules: Int
    }

    /// The report's rules that evaluated no record, in report order.
    static func rules(_ report: AuditReport) -> [RuleOutcome] {
        report.rules.filter { $0.status == .notEvaluated }
    }

    /// Entities with no records whose input was read completely (an incomplete input is
    /// reported as such already).
    static func emptyEntities(_ report: AuditReport) -> [EmptyEntity] {
        report.entities.compactMap { entity in
            guard entity.records == 0,
                  let input = report.inputs.first(where: { $0.source == entity.source && !$0.isPrevious }),
                  input.complete else { return nil }
            return EmptyEntity(entity: entity, path: input.path, rules: Set(entity.ruleIDs).count)
        }
    }

    /// `people.csv has no records, so the 6 rules of Person were not evaluated; to make an
    /// empty input fail, give Person a rowCount: { min: 1 } rule`.
    /// - Parameter w: The words (the text and Markdown reports pass their catalog's).
    static func warning(_ empty: EmptyEntity, _ w: ReportWording = .english) -> String {
        w("unevaluated.emptyInput", ["path": empty.path, "count": w.number(NumberText.grouped(empty.rules)),
                                     "entity": empty.entity.name])
    }

    /// Why `rule` evaluated no record, in words: `no record of people.csv could be read
    /// (exit 65)`, `people.csv has no records`, or the other causes.
    /// - Parameter w: The words (the text and Markdown reports pass their catalog's).
    static func reason(_ rule: RuleOutcome, _ report: AuditReport, _ w: ReportWording = .english) -> String {
        guard let input = report.inputs.first(where: { $0.source == rule.source && !$0.isPrevious }) else {
            return w("unevaluated.sourceNotRead", ["source": rule.source])
        }
        if input.records == 0 {
            if !input.complete {
                let exit = input.errorStatus.map { w("result.exit", ["status": String($0.rawValue)]) } ?? ""
                return w("unevaluated.unreadable", ["path": input.path, "exit": exit])
            }
            return w("result.noRecords", ["path": input.path])
        }
        if rule.skipped > 0 {
            return w("unevaluated.noInputs", ["path": input.path])
        }
        return w("unevaluated.noneChecked", ["path": input.path])
    }

    /// `2 rules not evaluated` / `none of the 6 rules was evaluated`, for verdict lines; nil when every
    /// rule evaluated a record.
    static func summary(_ report: AuditReport) -> String? {
        let n = rules(report).count
        guard n > 0 else { return nil }
        if n == report.rules.count { return n == 1 ? "its one rule was not evaluated" : "none of the \(NumberText.grouped(n)) rules was evaluated" }
        return "\(Plural.count(n, "rule")) not evaluated"
    }
}
