import Auditor

/// Words for an entity's changes since its previous snapshot, shared by the text and HTML reports.
enum LifecycleText {
    /// `changes since people-prev.csv: 2 inserted, 3 updated (status 3, author 1), 2 deleted, 1 unchanged`
    /// (plain, unescaped: each reporter escapes it for its medium).
    static func summary(_ l: LifecycleSummary, _ w: ReportWording = .english) -> String {
        let n = { (value: Int) in w.number(NumberText.grouped(value)) }
        guard let previous = l.previousPath else {
            return w("lifecycle.noPrevious", ["inserted": n(l.inserted)])
        }
        guard l.complete else {
            return w("lifecycle.unreadable", ["previous": previous])
        }
        let attributes = l.changedAttributes.isEmpty ? ""
            : " (" + l.changedAttributes.map { "\($0.attribute) \(n($0.records))" }.joined(separator: ", ") + ")"
        return w("lifecycle.changes", ["previous": previous, "inserted": n(l.inserted), "updated": n(l.updated),
                                       "attributes": attributes, "deleted": n(l.deleted), "unchanged": n(l.unchanged)])
    }

    /// `updated id=7 (people.csv:9): status, email`.
    static func change(_ c: RecordChange) -> String {
        var s = "\(c.kind.rawValue) \(c.key ?? "record") (\(c.location.description))"
        if !c.attributes.isEmpty { s += ": " + c.attributes.joined(separator: ", ") }
        return s
    }
}
