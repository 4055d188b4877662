extension BoundEntity {
    /// The data error for attributes that the input lacks, or nil when it has them all.
    ///
    /// The input's fields come from the data (a CSV header, a table's columns), so a missing
    /// one is a data problem (exit 65), not a rules-file error: the export may have dropped or
    /// renamed the column. Fields that the rules file itself declares (`csv: { columns: }`) are
    /// checked earlier, against the rules alone, by ``unknownAttributes(_:fields:displayPath:)``.
    /// No error when a `columns:` rule watches the schema (missing attributes are then read as
    /// missing and reported as schema drift).
    /// - Parameters:
    ///   - plan: The entity.
    ///   - fields: The fields the reader provides.
    ///   - available: Every field the input has (shown, and searched for a did-you-mean).
    ///   - displayPath: The input as messages show it.
    ///   - locationStyle: How the input locates records (says whether it is a header or a table).
    /// - Returns: An ``AuditError`` `.malformedInput` located at the input, naming each missing
    ///   attribute and where the rules file declares it, the input's fields with a did-you-mean,
    ///   and what to do.
    public static func missingFieldsError(_ plan: EntityPlan, fields: [String], available: [String]? = nil,
                                          displayPath: String, locationStyle: LocationStyle) -> AuditError? {
        guard !plan.toleratesMissingColumns else { return nil }
        let missing = plan.attributes.filter { !fields.contains($0.name) }
        guard !missing.isEmpty else { return nil }
        let fields = available ?? fields
        let subject: String
        let location: String
        let found: String
        switch locationStyle {
        case .line, .element:
            subject = "the header of \(displayPath)"
            location = "\(displayPath):1:1"
            found = "Its columns"
        case .rowid(let table), .key(let table, _):
            subject = "table '\(table)' of \(displayPath)"
            location = "\(displayPath):\(table)"
            found = "Its columns"
        case .ordinal, .rowGroup:
            subject = displayPath
            location = displayPath
            found = "Its fields"
        }
        var message: String
        if missing.count == 1 {
            let a = missing[0]
            message = "\(subject) lacks the column '\(a.name)' that '\(plan.name)' declares at \(a.mark)"
            if let s = Suggest.closest(to: a.name, in: fields) { message += "; did you mean '\(s)'?" } else { message += "." }
        } else {
            message = "\(subject) lacks the columns " + missing.map { "'\($0.name)' (\($0.mark))" }.joined(separator: ", ")
                + " that '\(plan.name)' declares"
            let suggestions = missing.compactMap { a in Suggest.closest(to: a.name, in: fields).map { (a.name, $0) } }
            message += suggestions.isEmpty ? "."
                : "; did you mean " + suggestions.map { "'\($1)' for '\($0)'" }.joined(separator: ", ") + "?"
        }
        let shown = fields.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
        message += fields.isEmpty ? " It has none." : " \(found): \(shown)\(fields.count > 12 ? ", ..." : "")."
        message += " Export the data with \(missing.count == 1 ? "this column" : "these columns"), "
            + "or correct the attribute \(missing.count == 1 ? "name" : "names") in the rules file"
        return AuditError(.malformedInput, message, location: location)
    }
}
