import Auditor
import Foundation

extension CoreDataRulesWriter {
    /// The implied bounds of Core Data's fixed-size integers.
    static let integerRanges: [String: (Int64, Int64)] = [
        "Integer 16": (Int64(Int16.min), Int64(Int16.max)),
        "Integer 32": (Int64(Int32.min), Int64(Int32.max)),
    ]

    /// One attribute's column expression and its rules (nil, with a note, when skipped).
    mutating func attributeRules(_ a: CoreDataModel.Attribute, entity: CoreDataModel.Entity) -> (String, String)? {
        let at = "'\(entity.name).\(a.name)' (line \(a.line))"
        if a.isTransient {
            notes.append("\(at): transient, not stored, so not audited")
            return nil
        }
        if a.isDerived {
            notes.append("\(at): derived (Core Data computes it on save), not audited")
            return nil
        }
        let raw = "\"" + CoreDataStoreLayout.storeName(a.name) + "\""
        var lines = [String]()
        var expression = raw
        func bound(_ key: String, _ value: String, code: Int? = nil) {
            lines.append("        \(key): " + (code.map { "{ value: \(value), code: \($0) }" } ?? value) + "\n")
        }
        var unreadable = [String]()
        /// `text` when `parse` accepts it; else nil, and the bound is listed as not imported.
        func read<T>(_ text: String?, _ what: String, _ parse: (String) -> T?) -> T? {
            guard let text else { return nil }
            if let value = parse(text) { return value }
            unreadable.append("\(what) '\(text)'")
            return nil
        }
        switch a.type {
        case "Integer 16", "Integer 32", "Integer 64":
            lines.append("        type: integer\n")
            let implied = Self.integerRanges[a.type]
            var low = read(a.minValue, "minimum") { Int64($0) }, high = read(a.maxValue, "maximum") { Int64($0) }
            if let (l, h) = implied {
                low = max(low ?? l, l)
                high = min(high ?? h, h)
            }
            if let low { bound("min", String(low)) }
            if let high { bound("max", String(high)) }
        case "Decimal", "Double", "Float":
            lines.append("        type: decimal\n")
            if let v = read(a.minValue, "minimum", { ExactNumber($0) ? $0 : nil }) { bound("min", v) }
            if let v = read(a.maxValue, "maximum", { ExactNumber($0) ? $0 : nil }) { bound("max", v) }
        case "String", "URI":
            lines.append("        type: string\n")
            if let v = read(a.minValue, "minimum length", { Int($0) }) { bound("minLength", String(v)) }
            if let v = read(a.maxValue, "maximum length", { Int($0) }) { bound("maxLength", String(v)) }
            if let p = a.pattern, !p.isEmpty {
                do throws(PatternError) {
                    _ = try Pattern(p)
                    lines.append("        pattern: \(yaml(p))\n")
                } catch {
                    notes.append("\(at): the regular expression '\(p)' is not imported: \(error.description)")
                }
            }
        case "Boolean":
            lines.append("        type: boolean\n")
        case "Date":
            // REAL seconds since 2001-01-01; anything else is kept as it is and fails `type`.
            expression = "CASE WHEN typeof(\(raw)) IN ('integer', 'real') THEN strftime('%Y-%m-%dT%H:%M:%fZ', \(raw) + "
                + "\(Self.referenceDateOffset), 'unixepoch') ELSE \(raw) END"
            lines.append("        type: datetime\n")
            if let v = read(a.minDate, "earliest date", { Double($0) }) { bound("min", yaml(Self.isoDate(v))) }
            if let v = read(a.maxDate, "latest date", { Double($0) }) { bound("max", yaml(Self.isoDate(v))) }
        case "UUID":
            // 16-byte BLOBs read as canonical lower-case UUIDs; any other value as x'HEX' or itself.
            let hex = "hex(\(raw))"
            expression = "CASE WHEN typeof(\(raw)) = 'blob' AND length(\(raw)) = 16 THEN lower(substr(\(hex), 1, 8) || '-' || "
                + "substr(\(hex), 9, 4) || '-' || substr(\(hex), 13, 4) || '-' || substr(\(hex), 17, 4) || '-' || substr(\(hex), 21, 12)) "
                + "WHEN typeof(\(raw)) = 'blob' THEN 'x''' || \(hex) || '''' ELSE \(raw) END"
            lines.append("        type: string\n")
            lines.append("        pattern: { value: \"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\", "
                         + "message: \(yaml("{field} must be a 16-byte UUID; got {value}")) }\n")
        case "Binary":
            // The byte count stands for the value: Core Data's min/max of Binary Data are lengths.
            expression = "CASE WHEN typeof(\(raw)) = 'blob' THEN length(\(raw)) ELSE \(raw) END"
            lines.append("        type: integer   # the length in bytes of the Binary Data\n")
            if let v = read(a.minValue, "minimum length", { Int($0) }) { bound("min", String(v), code: FindingCode.tooShort.rawValue) }
            if let v = read(a.maxValue, "maximum length", { Int($0) }) { bound("max", String(v), code: FindingCode.tooLong.rawValue) }
        case "Transformable":
            notes.append("\(at): Transformable (an archived object that only the app can decode), not audited")
            return nil
        default:
            notes.append("\(at): attribute type '\(a.type)' is not supported, not audited")
            return nil
        }
        if !a.isOptional { lines.insert("        required: true\n", at: 1) }
        for item in unreadable {
            notes.append("\(at): the \(item) is not a value an attribute of type \(a.type) can have, not imported")
        }
        return (column(expression, as: a.name), "      \(yamlKey(a.name)):\n" + lines.joined())
    }

    /// Whether `text` is a plain decimal number the rules file accepts as a bound.
    private func ExactNumber(_ text: String) -> Bool {
        text.range(of: #"^-?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil
    }

    /// Seconds since 2001-01-01 as an ISO 8601 UTC date-time (with the fraction when there is one).
    static func isoDate(_ seconds: Double) -> String {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if seconds.rounded() != seconds {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }

    /// One relationship: a foreign-key attribute and a `references:` rule for a to-one, a `from:`
    /// rule with counts and the deletion rule for a to-many.
    mutating func relationshipRules(_ r: CoreDataModel.Relationship, entity: CoreDataModel.Entity,
                                    columns: inout [String], attributes: inout [String], relationships: inout [String]) {
        let at = "'\(entity.name).\(r.name)' (line \(r.line))"
        if r.isTransient {
            notes.append("\(at): transient relationship, not stored, so not audited")
            return
        }
        guard model.entity(r.destination) != nil else {
            notes.append("\(at): destination entity '\(r.destination)' is not in the model, not audited")
            return
        }
        guard layout.numbers[r.destination] != nil else {
            notes.append("\(at): destination entity '\(r.destination)' is not in the store, not audited")
            return
        }
        if !r.isToMany {
            columns.append(column("\"" + CoreDataStoreLayout.storeName(r.name) + "\"", as: r.name))
            attributes.append("      \(yamlKey(r.name)): { type: integer" + (r.isOptional ? "" : ", required: true") + " }\n")
            relationships.append("      \(yamlKey(r.name)): { attribute: \(yamlKey(r.name)), references: \(r.destination).Z_PK, "
                                 + "code: \(Self.referentialIntegrityCode), message: "
                                 + yaml("{field} points at \(r.destination) Z_PK={value}, which the store does not have") + " }\n")
            if r.deletionRule == "Deny" || r.deletionRule == "Cascade" {
                notes.append("\(at): deletion rule \(r.deletionRule) of a to-one relationship is not checked "
                             + "(it is about deleting '\(entity.name)' objects, which leaves no trace in the store)")
            }
            return
        }
        var counts = [String]()
        if !r.isOptional { counts.append("minCount: \(max(r.minCount ?? 1, 1))") }
        else if let min = r.minCount, min > 0 {
            notes.append("\(at): minCount \(min) of an optional to-many is not checked (an empty relationship is valid "
                         + "in Core Data, which a count rule cannot tell apart)")
        }
        if let max = r.maxCount, max > 0 { counts.append("maxCount: \(max)") }
        switch r.deletionRule {
        case "Deny": counts.append("deleteRule: deny")
        case "Nullify": counts.append("deleteRule: nullify")
        case "Cascade": counts.append("deleteRule: cascade")
        default: break
        }
        if r.isOrdered {
            notes.append("\(at): ordered; its members and counts are audited, not their order")
        }
        let from: String
        if let join = layout.joinTable(r, of: entity) {
            let names = Self.joinAttributeNames(join)
            from = Self.joinEntityName(join) + "." + (join.ownerEntity == entity.name && join.relationship == r.name ? names.owner : names.destination)
        } else if let inverse = r.inverse, let declaring = declaringEntity(of: inverse, from: r.destination) {
            from = "\(declaring).\(inverse)"
        } else {
            notes.append("\(at): a to-many relationship without an inverse is not audited (give it an inverse in the model)")
            return
        }
        relationships.append("      \(yamlKey(r.name)): { from: \(from)" + counts.map { ", \($0)" }.joined() + " }\n")
    }

    /// The entity, `start` or one of its ancestors, that declares the relationship `name`.
    func declaringEntity(of name: String, from start: String) -> String? {
        var current = model.entity(start)
        while let entity = current {
            if entity.relationships.contains(where: { $0.name == name && !$0.isToMany }) { return entity.name }
            current = entity.parent.flatMap { model.entity($0) }
        }
        return nil
    }
}
