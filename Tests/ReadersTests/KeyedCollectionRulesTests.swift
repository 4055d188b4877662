import Auditor
import Foundation
import AuditorReaders
import Testing

/// Issue 22, keyed collections through the real readers and engine: an XML element read
/// `as: map` and a JSON object read `as: map` get `minCount`/`maxCount` on their entries,
/// `eachKey`, `eachValue` and `pairs`; the same rules find the same records in both formats.
/// CSV has no maps: there the constraints are a located rules-file error.
@Suite struct KeyedCollectionRulesTests {
    enum Format: String, CaseIterable { case xml, jsonl }

    /// Records 1...5: contacts as a map. 1 is fine; 2 has no entry; 3 has a bad key name and a
    /// bad phone; 4 has four entries; 5 has an empty value.
    static let contacts: [[(String, String)]] = [
        [("tel_home", "+47 22 00 00 00"), ("mail", "a@b.c")],
        [],
        [("Tel", "1"), ("tel_work", "call me")],
        [("tel_a", "1"), ("tel_b", "2"), ("tel_c", "3"), ("tel_d", "4")],
        [("mail", "")],
    ]

    static func data(_ format: Format) -> String {
        switch format {
        case .xml:
            var text = "<?xml version=\"1.0\"?>\n<people>\n"
            for (i, entries) in contacts.enumerated() {
                let inner = entries.map { "<\($0.0)>\($0.1)</\($0.0)>" }.joined()
                text += "  <person><id>\(i + 1)</id><contacts>\(inner)</contacts></person>\n"
            }
            return text + "</people>\n"
        case .jsonl:
            return contacts.enumerated().map { i, entries in
                "{\"id\": \(i + 1), \"contacts\": {" + entries.map { "\"\($0.0)\": \"\($0.1)\"" }.joined(separator: ", ") + "}}"
            }.joined(separator: "\n") + "\n"
        }
    }

    static let attribute = #"""
        contacts:
                    minCount: 1
                    maxCount: 3
                    eachKey: { pattern: "[a-z_]+" }
                    eachValue: { minLength: 1 }
                    pairs:
                      - { keyPattern: "tel_.*", value: { pattern: "\\+?[0-9 ]+" } }
        """#

    static func rules(_ format: Format) -> String {
        let block = format == .xml
            ? "xml: { record: person, fields: { contacts: { path: contacts, as: map } } }"
            : "jsonl: { fields: { contacts: { path: contacts, as: map } } }"
        return """
            version: 1
            sources:
              people:
                path: people.\(format.rawValue)
                \(block)
            entities:
              P:
                key: [id]
                attributes:
                  id: integer
                  \(attribute)

            """
    }

    static func plan(_ yaml: String, path: String) throws -> (AuditPlan?, [Diagnostic]) {
        let registry = StandardReaders.registry
        let spec = try RulesFileParser(formats: registry.formats).parse(yaml, path: path)
        let decoded = registry.decodeOptions(spec.sources)
        let d = decoded.diagnostics
            + RuleCompiler.collectionDiagnostics(spec) { source in decoded.options.fieldShapes(source: source.name) }
        guard d.isEmpty else { return (nil, d) }
        var plan = try RuleCompiler.compile(spec)
        plan.adopt(decoded.options)
        return (plan, [])
    }

    @Test("minCount, maxCount, eachKey, eachValue and pairs on an XML map and a JSON object find the same records",
          arguments: Format.allCases, [1, 2])
    func mapRules(format: Format, jobs: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-keyed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.data(format).write(to: dir.appendingPathComponent("people.\(format.rawValue)"), atomically: true, encoding: .utf8)
        let (plan, d) = try Self.plan(Self.rules(format), path: dir.appendingPathComponent("rules.yml").path)
        #expect(d.isEmpty, "\(d)")
        let report = try AuditEngine(registry: StandardReaders.registry, options: AuditOptions(jobs: jobs, chunkSize: 2))
            .run(try #require(plan)).report
        func keys(_ id: String) -> [String] { report.rules.first { $0.id == id }?.samples.compactMap(\.key) ?? ["no rule \(id)"] }
        // An XML element without children and an empty JSON object are both an empty map.
        #expect(keys("P.contacts.minCount") == ["id=2"])
        #expect(keys("P.contacts.maxCount") == ["id=4"])
        #expect(keys("P.contacts.eachKey") == ["id=3"])
        #expect(keys("P.contacts.eachValue") == ["id=5"])
        #expect(keys("P.contacts.pairs") == ["id=3"])
        let codes = Dictionary(report.rules.map { ($0.id, $0.codes) }, uniquingKeysWith: +)
        #expect(codes["P.contacts.minCount"] == [1580] && codes["P.contacts.maxCount"] == [1590])
        #expect(codes["P.contacts.eachKey"] == [2007] && codes["P.contacts.pairs"] == [2007])
        let eachKey = try #require(report.rules.first { $0.id == "P.contacts.eachKey" }?.samples.first)
        #expect(eachKey.message.contains("contacts[key 'Tel'] must match the pattern [a-z_]+"), "\(eachKey.message)")
        let pairs = try #require(report.rules.first { $0.id == "P.contacts.pairs" }?.samples.first)
        #expect(pairs.message.contains("contacts.tel_work must match the pattern"), "\(pairs.message)")
        let maxCount = try #require(report.rules.first { $0.id == "P.contacts.maxCount" }?.samples.first)
        #expect(maxCount.message.contains("contacts must have 3 or fewer entries; got 4."), "\(maxCount.message)")
    }

    @Test("CSV: split: \";\" with keySeparator: \"=\" makes key=value text a map for the same rules", arguments: [1, 2])
    func keyValueTextOnCSV(jobs: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-keyed-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var csv = "id,contacts\n"
        for (i, entries) in Self.contacts.enumerated() {
            // Record 2 has no entry: an empty quoted field is an empty map (unquoted it would be missing).
            let text = entries.map { "\($0.0)=\($0.1)" }.joined(separator: ";")
            csv += "\(i + 1),\"\(text)\"\n"
        }
        try csv.write(to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let yaml = Self.rules(.xml)
            .replacingOccurrences(of: "path: people.xml", with: "path: people.csv")
            .replacingOccurrences(of: "xml: { record: person, fields: { contacts: { path: contacts, as: map } } }", with: "csv: {}")
            .replacingOccurrences(of: "contacts:\n", with: "contacts:\n            split: \";\"\n            keySeparator: \"=\"\n")
        let (plan, d) = try Self.plan(yaml, path: dir.appendingPathComponent("rules.yml").path)
        #expect(d.isEmpty, "\(d)\n\(yaml)")
        let report = try AuditEngine(registry: StandardReaders.registry, options: AuditOptions(jobs: jobs, chunkSize: 2))
            .run(try #require(plan)).report
        func keys(_ id: String) -> [String] { report.rules.first { $0.id == id }?.samples.compactMap(\.key) ?? ["no rule \(id)"] }
        #expect(keys("P.contacts.minCount") == ["id=2"])
        #expect(keys("P.contacts.maxCount") == ["id=4"])
        #expect(keys("P.contacts.eachKey") == ["id=3"])
        #expect(keys("P.contacts.eachValue") == ["id=5"])
        #expect(keys("P.contacts.pairs") == ["id=3"])
    }

    @Test("keySeparator needs split:, a separator, and one that differs from split's", arguments: [
        ("{ keySeparator: \"=\", eachKey: string }", "add split:"),
        ("{ split: \";\", keySeparator: \"\" }", "keySeparator needs a separator"),
        ("{ split: \";\", keySeparator: \";\" }", "keySeparator and split must differ"),
    ])
    func keySeparatorMistakes(attribute: String, expected: String) throws {
        let yaml = "version: 1\nsources: { s: { path: d.csv } }\nentities:\n  E:\n    source: s\n    attributes:\n      v: \(attribute)\n"
        let error = #expect(throws: AuditError.self) {
            _ = try RulesFileParser(formats: StandardReaders.registry.formats).parse(yaml, path: "rules.yml")
        }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("Without 'as: map' (XML, JSON Lines) or on CSV, each map key is one located rules error, never a finding per record",
          arguments: ["xml: { record: person }", "jsonl: {}", "csv: {}"])
    func mapKeysNeedAMap(block: String) throws {
        let yaml = Self.rules(.xml).replacingOccurrences(
            of: "xml: { record: person, fields: { contacts: { path: contacts, as: map } } }", with: block)
        let (plan, d) = try Self.plan(yaml, path: "rules.yml")
        #expect(plan == nil)
        let messages = d.map(\.message)
        for key in ["eachKey", "eachValue", "pairs"] {
            #expect(messages.contains { $0.hasPrefix("'\(key)' applies to a map, but 'contacts' is a single value") }, "\(messages)")
        }
        #expect(messages.contains { $0.hasPrefix("'minCount' applies to a list") && $0.contains("or a map") }, "\(messages)")
    }
}
