import Auditor

/// The HTML page's data island (`script#report-data`): the JSON report (``JSONReporter``,
/// schema ``JSONReporter/schemaVersion``) less its `fingerprints` list, with every finding
/// written once, column by column.
///
/// In the JSON report a finding is an object in its rule's `samples` and again in its record's
/// `findings`, with its location as a nested object; at 100,000 findings that made a 70 MB
/// page whose reading and `JSON.parse` alone took about a second (`Benchmarks/README.md`). The
/// island keeps every member of the JSON report, in its order, and changes only these:
/// - `pageFormat` (after `schemaVersion`): ``version``, the version of this shape.
/// - `findings` (before `records`, new): the findings table, see ``findingColumns(_:)``. Rule
///   `i`'s samples are its rows `[first, first + count)`, in order; a record's finding that is
///   not among its rule's samples (a rule sampled below its records) follows them.
/// - each rule's `samples`: `[first, count]`, a range of the findings table.
/// - `records`: columns, see ``recordColumns(_:_:)``; a record's `findings` are rows of the
///   findings table.
///
/// Nothing is lost: `Tests/ReportsTests/HTMLIslandTests.swift` expands the island back into the
/// JSON report and compares. The page's script (``HTMLAssets/js``) reads these columns
/// directly and builds a finding only for a row it renders or indexes.
enum HTMLIsland {
    /// The version of the island's shape (`pageFormat`).
    static let version = 1

    /// The island's document.
    /// - Complexity: O(findings): each finding is looked up once in a hash table.
    static func document(_ report: AuditReport) -> JSONValue {
        var table = FindingTable()
        var ranges: [JSONValue] = []
        for rule in report.rules {
            let first = table.count
            for finding in rule.samples { table.append(finding) }
            ranges.append(.array([.integer(first), .integer(rule.samples.count)]))
        }
        let records = recordColumns(report.records, &table)
        guard case .object(var members) = JSONReporter.document(report, fingerprints: false, samples: { ranges[$0] },
                                                                records: records) else { return .null }
        members.insert(.init(key: "pageFormat", value: .integer(version)), at: 1)
        let at = members.firstIndex { $0.key == "records" } ?? members.count
        members.insert(.init(key: "findings", value: findingColumns(table.findings)), at: at)
        return .object(members)
    }

    /// `{count, heads, head, location, key, value, templates, message, fingerprint, new}`:
    /// - `heads`: the distinct `[rule, code, severity, entity, attribute]`; `head`: each
    ///   finding's index in it.
    /// - `location`: ``LocationColumns``.
    /// - `key`, `value`: each finding's, or null.
    /// - `message`: the index of each finding's message in `templates`, where a message is
    ///   written once: with the finding's value replaced by U+0001 (the value quoted `'…'` if
    ///   it is, else its last occurrence) where putting the value back gives the message's
    ///   exact bytes, else as it is. A message that holds a U+0001 itself is written in the
    ///   column, as a string.
    /// - `fingerprint`, `new`: each finding's, or null for the whole column when every
    ///   finding's is null.
    static func findingColumns(_ findings: [Finding]) -> JSONValue {
        var heads: [JSONValue] = [], headIndex: [Head: Int] = [:]
        var head: [JSONValue] = [], keys: [JSONValue] = [], values: [JSONValue] = [], messages: [JSONValue] = []
        var templates: [JSONValue] = [], templateIndex: [String: Int] = [:]
        var location = LocationColumns()
        head.reserveCapacity(findings.count)
        for f in findings {
            let h = Head(rule: f.ruleID, code: f.code, severity: f.severity.rawValue, entity: f.entity, attribute: f.attribute)
            let i = headIndex[h] ?? {
                heads.append(.array([.string(h.rule), .integer(h.code), .string(h.severity), .string(h.entity), .string(h.attribute)]))
                headIndex[h] = heads.count - 1
                return heads.count - 1
            }()
            head.append(.integer(i))
            location.append(f.location)
            keys.append(.string(f.key))
            values.append(.string(f.value))
            if let t = template(f.message, value: f.value) ?? (f.message.utf8.contains(1) ? nil : f.message) {
                let k = templateIndex[t] ?? {
                    templates.append(.string(t))
                    templateIndex[t] = templates.count - 1
                    return templates.count - 1
                }()
                messages.append(.integer(k))
            } else {
                messages.append(.string(f.message))
            }
        }
        let fingerprints = findings.contains { $0.fingerprint != nil }
            ? JSONValue.array(findings.map { .string($0.fingerprint.map(Fingerprint.hex)) }) : .null
        let new = findings.contains { $0.isNew != nil } ? JSONValue.array(findings.map { $0.isNew.map(JSONValue.bool) ?? .null }) : .null
        return .object([
            "count": .integer(findings.count), "heads": .array(heads), "head": .array(head), "location": location.value,
            "key": .array(keys), "value": .array(values), "templates": .array(templates), "message": .array(messages),
            "fingerprint": fingerprints, "new": new,
        ])
    }

    /// `{count, entities, entity, location, key, code, findings}`: `entity` indexes
    /// `entities`; `location` is ``LocationColumns``; `findings` lists each record's rows of
    /// the findings table (adding to `table` a finding not already in it).
    static func recordColumns(_ records: [RecordFindings], _ table: inout FindingTable) -> JSONValue {
        var entities: [JSONValue] = [], entityIndex: [String: Int] = [:]
        var entity: [JSONValue] = [], keys: [JSONValue] = [], codes: [JSONValue] = [], findings: [JSONValue] = []
        var location = LocationColumns()
        for record in records {
            let e = entityIndex[record.entity] ?? {
                entities.append(.string(record.entity))
                entityIndex[record.entity] = entities.count - 1
                return entities.count - 1
            }()
            entity.append(.integer(e))
            location.append(record.location)
            keys.append(.string(record.key))
            codes.append(.integer(record.code))
            findings.append(.array(record.findings.map { .integer(table.row(of: $0)) }))
        }
        return .object([
            "count": .integer(records.count), "entities": .array(entities), "entity": .array(entity), "location": location.value,
            "key": .array(keys), "code": .array(codes), "findings": .array(findings),
        ])
    }

    /// The message with its value replaced by U+0001, or nil when that would not give back
    /// exactly `message` (no value, an empty one, a message without it, or one that holds a
    /// U+0001 already).
    /// - Complexity: O(message × value) bytes, both short.
    static func template(_ message: String, value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        let m = Array(message.utf8), v = Array(value.utf8)
        guard !m.contains(1) else { return nil }
        let quote = UInt8(ascii: "'")
        let at = firstIndex(of: [quote] + v + [quote], in: m).map { $0 + 1 } ?? lastIndex(of: v, in: m)
        guard let at else { return nil }
        var t = Array(m[..<at])
        t.append(1)
        t.append(contentsOf: m[(at + v.count)...])
        return String(decoding: t, as: UTF8.self)
    }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).reversed().first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The identity of a finding's rule as the finding states it.
    struct Head: Hashable {
        let rule: String, code: Int, severity: String, entity: String?, attribute: String?
    }

    /// The findings of the island, each once, with the row of each.
    struct FindingTable {
        private(set) var findings: [Finding] = []
        private var rows: [Key: Int] = [:]
        var count: Int { findings.count }

        /// Adds `finding` as a new row (a rule's samples keep every row, repeats included).
        mutating func append(_ finding: Finding) {
            if rows[Key(finding: finding)] == nil { rows[Key(finding: finding)] = findings.count }
            findings.append(finding)
        }

        /// The first row equal to `finding`, added if there is none.
        mutating func row(of finding: Finding) -> Int {
            if let row = rows[Key(finding: finding)] { return row }
            append(finding)
            return findings.count - 1
        }

        /// `Finding` is `Equatable` only; equal findings have equal rule ids, locations and
        /// messages, so hashing those is consistent with `==`.
        struct Key: Hashable {
            let finding: Finding
            static func == (a: Key, b: Key) -> Bool { a.finding == b.finding }
            func hash(into hasher: inout Hasher) {
                hasher.combine(finding.ruleID)
                hasher.combine(finding.location)
                hasher.combine(finding.message)
            }
        }
    }

    /// The locations of findings or records, column by column: `{paths, path, locator, record,
    /// text}`. `path` indexes `paths`; `locator` is a line (`.line`), `[element, line]`,
    /// `[container, key, value]` or null; `text` maps a row (as a string) to its location's
    /// text only where that is not the one the script derives (``derivedText(_:)``).
    struct LocationColumns {
        var paths: [JSONValue] = [], pathIndex: [String: Int] = [:]
        var path: [JSONValue] = [], locator: [JSONValue] = [], record: [JSONValue] = [], text: [JSONValue.Member] = []

        mutating func append(_ location: RecordLocation) {
            let p = pathIndex[location.path] ?? {
                paths.append(.string(location.path))
                pathIndex[location.path] = paths.count - 1
                return paths.count - 1
            }()
            let description = location.description
            if !(Self.derivedText(location)?.utf8.elementsEqual(description.utf8) ?? false) {
                text.append(.init(key: "\(path.count)", value: .string(description)))
            }
            path.append(.integer(p))
            record.append(.integer(location.record))
            switch location.locator {
            case .line(let line): locator.append(.integer(line))
            case .element(let element, let line): locator.append(.array([.string(element), .integer(line)]))
            case .key(let container, let name, let value): locator.append(.array([.string(container), .string(name), .integer(value)]))
            case nil: locator.append(.null)
            }
        }

        var value: JSONValue {
            .object(["paths": .array(paths), "path": .array(path), "locator": .array(locator), "record": .array(record),
                     "text": .object(text)])
        }

        /// The text the page's script gives a location without a `text` entry: `path:line` for
        /// a line or an element, the path for the whole input, `path:#record` for a record
        /// without a locator; nil (always written) for a key.
        static func derivedText(_ location: RecordLocation) -> String? {
            switch location.locator {
            case .line(let line), .element(_, let line): return "\(location.path):\(line)"
            case nil: return location.record == 0 ? location.path : "\(location.path):#\(location.record)"
            case .key: return nil
            }
        }
    }
}
