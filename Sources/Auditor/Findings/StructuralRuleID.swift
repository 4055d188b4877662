/// How a report names a reader's structural rule (`csv.row.ragged`, `xml.malformed`, ...).
///
/// Every source of a format has the same structural rules, so the reader's id alone is
/// ambiguous as soon as two sources share a format. A report names them `<id>@<source>`
/// (`csv.row.ragged@people`): the same spelling that baselines have always used as the
/// fingerprint key of a structural rule, so a baseline written before ids were qualified
/// still matches. Readers and message catalogs keep using the bare id.
package enum StructuralRuleID {
    /// The report id of a reader's structural rule `id` on `source`.
    public static func qualified(_ id: String, source: String) -> String { "\(id)@\(source)" }

    /// A rule id as an older auditor may have recorded it (a history written before
    /// structural ids were qualified): a structural rule (no entity) whose id lacks its
    /// `@source` gets it; any other id is returned unchanged.
    /// - Parameters:
    ///   - id: The recorded id.
    ///   - source: The rule's source.
    ///   - entity: The rule's entity; nil for a structural rule.
    /// - Returns: The id as this auditor names the rule.
    public static func migrated(_ id: String, source: String, entity: String?) -> String {
        entity == nil && !isQualified(id, source: source) ? qualified(id, source: source) : id
    }

    /// The reader's own id of a qualified structural rule id (`csv.row.ragged@people` →
    /// `csv.row.ragged`), or `id` unchanged when it is not qualified with `source`.
    public static func readerID(_ id: String, source: String) -> String {
        guard isQualified(id, source: source) else { return id }
        return String(decoding: id.utf8.dropLast(source.utf8.count + 1), as: UTF8.self)
    }

    /// Whether `id` ends with `@source` (compared byte for byte).
    static func isQualified(_ id: String, source: String) -> Bool {
        let suffix = Array(("@" + source).utf8)
        return id.utf8.count > suffix.count && id.utf8.suffix(suffix.count).elementsEqual(suffix)
    }
}
