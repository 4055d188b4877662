import Auditor

/// Words for an entity's changes since its previous snapshot, shared by the text and HTML reports.
enum LifecycleText {
    /// `changes since people-prev.csv: 2 inserted, 3 updated (status 3, author 1), 2 deleted, 1 unchanged`
    /// (plain, unescaped: each reporter escapes it for its medium).
    static func summary(_ l: LifecycleSummary) -> String {
        guard let previous = l.previousPath else {
            return "no previous snapshot: every record counts as inserted (\(NumberText.grouped(l.inserted)))"
        }
        guard l.complete else {
            return "changes since \(previous): unknown, the previous snapshot could not be read to its end; lifecycle rules were not evaluated"
        }
        var updated = "\(NumberText.grouped(l.updated)) updated"
        if !l.changedAttributes.isEmpty {
            updated += " (" + l.changedAttributes.map { "\($0.attribute) \(NumberText.grouped($0.records))" }
                .joined(separator: ", ") + ")"
        }
        return "changes since \(previous): \(NumberText.grouped(l.inserted)) inserted, \(updated), "
            + "\(NumberText.grouped(l.deleted)) deleted, \(NumberText.grouped(l.unchanged)) unchanged"
    }

    /// `updated id=7 (people.csv:9): status, email`.
    static func change(_ c: RecordChange) -> String {
        var s = "\(c.kind.rawValue) \(c.key ?? "record") (\(c.location.description))"
        if !c.attributes.isEmpty { s += ": " + c.attributes.joined(separator: ", ") }
        return s
    }
}
