import Auditor

/// Renders an `auditor profile` result as text, JSON or a self-contained HTML page.
package enum ProfileRenderer {
    /// The JSON document (`schemaVersion` 1): sources with their columns, dependencies,
    /// foreign keys and suggested rules with their flagged outliers.
    public static func json(_ report: ProfileReport) -> String {
        JSONWriter().write(value(report))
    }

    static func value(_ report: ProfileReport) -> JSONValue {
        var sources = [JSONValue]()
        for (i, s) in report.sources.enumerated() {
            let columns: [JSONValue] = s.columns.map { c in
                let f = c.facts
                var types = [JSONValue.Member]()
                for t in ValueType.allCases where t != .string {
                    guard let tf = f.types[t], tf.valid > 0 else { continue }
                    var m: [JSONValue.Member] = [.init(key: "valid", value: .integer(tf.valid))]
                    if t != .boolean {
                        m.append(.init(key: "min", value: .string(tf.minText)))
                        m.append(.init(key: "max", value: .string(tf.maxText)))
                    }
                    types.append(.init(key: t.rawValue, value: .object(m)))
                }
                let classes = f.classes.sorted { $0.key < $1.key }.map { JSONValue.Member(key: $0.key.rawValue, value: .integer($0.value)) }
                return .object([
                    "name": .string(c.name),
                    "inferredType": .string(c.inferredType?.rawValue),
                    "typeValid": .integer(c.typeValid),
                    "records": .integer(f.records),
                    "missing": .integer(f.missing),
                    "present": .integer(f.present),
                    "blank": .integer(f.blank),
                    "types": .object(types),
                    "minLength": .integer(f.minLength),
                    "maxLength": .integer(f.maxLength),
                    "distinct": .integer(c.distinct),
                    "distinctIsEstimate": .bool(c.distinctIsEstimate),
                    "top": .array(c.top.map { .object(["value": .string($0.value), "count": .integer($0.count)]) }),
                    "topIsApproximate": .bool(c.topIsApproximate),
                    "formats": .object(classes),
                    "candidateKey": .bool(c.isKey),
                    "composite": .string(c.composite),
                    "lists": .integer(f.lists),
                    "maps": .integer(f.maps),
                    "minItems": .integer(f.minItems),
                    "maxItems": .integer(f.maxItems),
                    "mapKeys": .object(f.mapKeys.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .integer($0.value)) }),
                    "mapKeysOverflow": .bool(f.mapKeysOverflow),
                ])
            }
            let deps: [JSONValue] = s.dependencies.map {
                .object(["kind": .string($0.kind.rawValue), "first": .string($0.first), "second": .string($0.second),
                         "checked": .integer($0.checked)])
            }
            let rules: [JSONValue] = report.rules[i].map { r in
                .object(["id": .string(r.id), "column": .string(r.column), "rule": .string(r.yaml.isEmpty ? "references" : r.yaml),
                         "evidence": .string(r.evidence), "outliers": .integer(r.outliers),
                         "outlierValues": .array(r.outlierValues.map { .object(["value": .string($0.value), "count": .integer($0.count)]) })])
            }
            sources.append(.object([
                "name": .string(s.name), "path": .string(s.path), "format": .string(s.format),
                "options": options(s),
                "records": .integer(s.records), "malformedRecords": .integer(s.excludedRecords),
                "columns": .array(columns),
                "candidateKeys": .array(s.columns.filter(\.isKey).map { .string($0.name) }),
                "compositeKeys": .array(s.compositeKeys.map { .array($0.map { .string($0) }) }),
                "candidateEnums": .array(report.rules[i].filter { $0.yaml.hasPrefix("enum:") }.compactMap { .string($0.column) }),
                "dependencies": .array(deps),
                "suggestedRules": .array(rules),
            ]))
        }
        let fks: [JSONValue] = report.foreignKeys.map {
            .object(["source": .string($0.source), "column": .string($0.column),
                     "references": .string("\($0.targetSource).\($0.targetColumn)"), "distinct": .integer($0.distinct)])
        }
        return .object(["schemaVersion": .integer(1), "tool": .string("auditor profile"),
                        "sources": .array(sources), "foreignKeys": .array(fks),
                        "outliers": .integer(report.outlierCount)])
    }

    /// The renderer of a `--format`: text, json or html; nil for another name.
    package static func renderer(format: String) -> ((ProfileReport) -> String)? {
        switch format {
        case "text": return text
        case "json": return json
        case "html": return html
        default: return nil
        }
    }

    /// How a source was read: its format, with the delimiter its first records told
    /// (`csv, ';'-delimited`) or the record element (`xml, record '/people/person'`).
    /// A source's reader options: the sniffed ones as text, `decimalComma` and `thousandsComma` as lists, `dateFormat` as an object.
    static func options(_ s: SourceProfile) -> JSONValue {
        var members = s.options.sorted { $0.key < $1.key }.map { JSONValue.Member(key: $0.key, value: .string($0.value)) }
        if !s.readings.decimalComma.isEmpty {
            members.append(.init(key: "decimalComma", value: .array(s.readings.decimalComma.map { .string($0) })))
        }
        if !s.readings.thousandsComma.isEmpty {
            members.append(.init(key: "thousandsComma", value: .array(s.readings.thousandsComma.map { .string($0) })))
        }
        if !s.readings.dateFormats.isEmpty {
            let formats = s.readings.dateFormats.sorted { $0.key < $1.key }.map { JSONValue.Member(key: $0.key, value: .string($0.value)) }
            members.append(.init(key: "dateFormat", value: .object(formats)))
        }
        return .object(members)
    }

    static func read(_ s: SourceProfile) -> String {
        if s.format == "sqlite", let table = s.options["table"] { return "\(s.format), table '\(table)'" }
        var parts = [s.format]
        if let record = s.options["record"] { parts.append("record '\(record)'") }
        if let d = s.options["delimiter"] { parts.append("\(d == "\t" ? "TAB" : "'\(d)'")-delimited") }
        if let e = s.options["encoding"] { parts.append(e) }
        parts += s.readings.described
        return parts.joined(separator: ", ")
    }

    /// A column's type and its share: `integer 99.8 %`, or `list 100 %` for a column of lists.
    static func type(_ c: ColumnProfile) -> String {
        if let kind = c.composite { return "\(kind) 100 %" }
        return "\(c.inferredType?.rawValue ?? "empty") \(Evidence.share(c.typeValid, max(c.facts.present, 1)))"
    }

    /// What a column's lists and maps hold: `items 0–3`, `keys 'city' 100 %, 'zip' 50 %`, or
    /// their share where other values are mixed in (`maps 66.7 %`).
    static func composites(_ c: ColumnProfile) -> [String] {
        let f = c.facts
        guard f.lists + f.maps > 0 else { return [] }
        var parts = [String]()
        if c.composite == nil {
            if f.lists > 0 { parts.append("lists \(Evidence.share(f.lists, f.present))") }
            if f.maps > 0 { parts.append("maps \(Evidence.share(f.maps, f.present))") }
        }
        if let lo = f.minItems, let hi = f.maxItems {
            parts.append("\(f.maps == 0 ? "items" : f.lists == 0 ? "entries" : "items or entries") \(lo)–\(hi)")
        }
        let keys = f.mapKeys.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        if !keys.isEmpty {
            parts.append("keys " + keys.prefix(5).map { "'\($0.key)' \(Evidence.share($0.value, f.maps))" }.joined(separator: ", ")
                         + (keys.count > 5 || f.mapKeysOverflow ? ", …" : ""))
        }
        return parts
    }

    /// A plain-text summary, one block per source and one line per column.
    public static func text(_ report: ProfileReport) -> String {
        var out = ""
        for (i, s) in report.sources.enumerated() {
            out += "\(s.path) (\(TerminalText.escaped(read(s)))): \(Evidence.count(s.records)) record\(s.records == 1 ? "" : "s")"
            out += s.excludedRecords > 0 ? ", \(Evidence.count(s.excludedRecords)) malformed\n" : "\n"
            for c in s.columns {
                let f = c.facts
                var parts = [type(c)]
                if f.missing > 0 { parts.append("missing \(Evidence.share(f.missing, f.records))") }
                if f.blank > 0 { parts.append("blank \(Evidence.share(f.blank, f.records))") }
                parts.append("distinct \(c.distinctIsEstimate ? "~" : "")\(Evidence.count(c.distinct))")
                if let t = c.inferredType, t != .string, t != .boolean, let tf = f.types[t], tf.count > 0 {
                    parts.append("range \(tf.minText) … \(tf.maxText)")
                }
                if let lo = f.minLength, let hi = f.maxLength { parts.append("length \(lo)–\(hi)") }
                parts += composites(c).map(TerminalText.escaped)
                if let (cls, n) = f.classes.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) {
                    parts.append("\(cls.rawValue) \(Evidence.share(n, max(f.present, 1)))")
                }
                if c.isKey { parts.append("candidate key") }
                let top = c.top.prefix(3).map { "'\(TerminalText.escaped($0.value))' ×\(Evidence.count($0.count))" }
                if !top.isEmpty { parts.append("top \(top.joined(separator: ", "))\(c.topIsApproximate ? " (approx.)" : "")") }
                out += "  \(TerminalText.escaped(c.name)): \(parts.joined(separator: "; "))\n"
            }
            for k in s.compositeKeys { out += "  candidate key: (\(k.map(TerminalText.escaped).joined(separator: ", "))) together\n" }
            for d in s.dependencies { out += "  dependency: \(d.first) \(d.kind.rawValue) \(d.second)\n" }
            let flagged = report.rules[i].filter { $0.outliers > 0 }
            for r in flagged { out += "  outliers: \(r.id): \(Evidence.count(r.outliers))\n" }
        }
        for fk in report.foreignKeys {
            out += "candidate foreign key: \(fk.source).\(fk.column) → \(fk.targetSource).\(fk.targetColumn)\n"
        }
        out += "\(Plural.count(report.rules.joined().count, "rule")) suggested; \(Plural.count(report.outlierCount, "flagged outlier finding"))\n"
        return out
    }

    /// A self-contained page: the text summary in a table per source, the JSON embedded.
    public static func html(_ report: ProfileReport) -> String {
        var body = ""
        for (i, s) in report.sources.enumerated() {
            body += "<h2>\(HTMLText.escaped(s.path)) (\(HTMLText.escaped(read(s)))): \(Evidence.count(s.records)) record\(s.records == 1 ? "" : "s")</h2>\n"
            body += "<table><thead><tr><th>column</th><th>type</th><th>missing</th><th>distinct</th><th>range</th><th>length</th><th>top values</th><th>key</th></tr></thead><tbody>\n"
            for c in s.columns {
                let f = c.facts
                var range = ""
                if let t = c.inferredType, t != .string, t != .boolean, let tf = f.types[t], tf.count > 0 { range = "\(tf.minText) … \(tf.maxText)" }
                let length = f.minLength.map { "\($0)–\(f.maxLength ?? $0)" } ?? ""
                let top = c.top.prefix(5).map { "\($0.value) ×\($0.count)" }.joined(separator: ", ")
                body += "<tr><td>\(HTMLText.escaped(c.name))</td><td>\(HTMLText.escaped(([type(c)] + composites(c)).joined(separator: "; ")))</td>"
                body += "<td>\(Evidence.count(f.missing))</td><td>\(c.distinctIsEstimate ? "~" : "")\(Evidence.count(c.distinct))</td>"
                body += "<td>\(HTMLText.escaped(range))</td><td>\(length)</td><td>\(HTMLText.escaped(top))</td><td>\(c.isKey ? "yes" : "")</td></tr>\n"
            }
            body += "</tbody></table>\n"
            for k in s.compositeKeys {
                body += "<p>Candidate key: <code>(\(HTMLText.escaped(k.joined(separator: ", "))))</code> together (no single column is unique)</p>\n"
            }
            body += "<h3>Suggested rules</h3>\n<ul>\n"
            for r in report.rules[i] {
                body += "<li><code>\(HTMLText.escaped(r.id))</code>: <code>\(HTMLText.escaped(r.yaml.isEmpty ? "references" : r.yaml))</code> — \(HTMLText.escaped(r.evidence))</li>\n"
            }
            body += "</ul>\n"
        }
        let style = "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
        let data = JSONWriter(htmlSafe: true).write(value(report))
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-\(Digest.sha256Base64(style))'; base-uri 'none'; form-action 'none'">
            <title>auditor profile</title><style>\(style)</style></head>
            <body><h1>Profile</h1>
            \(body)<script type="application/json" id="profile-data">\(data)</script>
            </body></html>

            """
    }
}
