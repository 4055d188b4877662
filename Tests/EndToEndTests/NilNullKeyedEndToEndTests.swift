import Foundation
import Testing

/// Issue 22 through the binary: nil vs null (`allowsNull`, `allowsMissing`, the CSV
/// `explicitNullValues` option, JSON `null`, `xsi:nil`) and keyed collections (`eachKey`,
/// `eachValue`, `pairs`, counts of a map), with docs/validators.md's example run as written.
@Suite("nil vs null and keyed collections, end to end")
struct NilNullKeyedEndToEndTests {
    /// The first ```yaml block after the "## nil vs null" heading of docs/validators.md.
    static func docsExample() throws -> String {
        let docs = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("docs/validators.md"), encoding: .utf8)
        let section = try #require(docs.range(of: "## nil vs null"))
        let rest = docs[section.upperBound...]
        let start = try #require(rest.range(of: "```yaml\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound ..< end.lowerBound])
    }

    /// The records the docs describe: 3 lacks a middle name, 4 has an email of NULL, 5 an
    /// empty middle name.
    static let csv = "id,middle_name,email\n1,Ann,a@b.c\n2,Lee,\n3,,x@y.z\n4,NULL,NULL\n5,\"\",x@y.z\n"
    static let jsonl = """
        {"id": 1, "middle_name": "Ann", "email": "a@b.c"}
        {"id": 2, "middle_name": "Lee"}
        {"id": 3, "email": "x@y.z"}
        {"id": 4, "middle_name": null, "email": null}
        {"id": 5, "middle_name": "", "email": "x@y.z"}

        """
    static let xml = """
        <?xml version="1.0"?>
        <people xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <person><id>1</id><middle_name>Ann</middle_name><email>a@b.c</email></person>
          <person><id>2</id><middle_name>Lee</middle_name></person>
          <person><id>3</id><email>x@y.z</email></person>
          <person><id>4</id><middle_name xsi:nil="true"/><email xsi:nil="true"/></person>
          <person><id>5</id><middle_name></middle_name><email>x@y.z</email></person>
        </people>

        """

    @Test("docs/validators.md's example: allowsMissing finds the absent middle name (2009), allowsNull the NULL email (2008)",
          arguments: ["csv", "jsonl", "xml"])
    func docsExampleOnEachFormat(format: String) throws {
        let tmp = try Scratch("nil-null-\(format)")
        defer { tmp.remove() }
        var rules = try Self.docsExample()
        switch format {
        case "csv": try tmp.write("people.csv", Self.csv)
        case "jsonl":
            try tmp.write("people.jsonl", Self.jsonl)
            rules = rules.replacingOccurrences(of: "path: people.csv", with: "path: people.jsonl")
        default:
            try tmp.write("people.xml", Self.xml)
            rules = rules.replacingOccurrences(of: "path: people.csv", with: "path: people.xml\n    xml: { record: person }")
        }
        try tmp.write("rules.yml", rules)
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        func keys(_ id: String) -> [String] {
            (report.rules(withID: id).first?["samples"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        }
        func code(_ id: String) -> Int? { integer(report.rules(withID: id).first?["code"]) }
        #expect(keys("Person.middle_name.allowsMissing") == ["id=3"], "\(format)")
        #expect(keys("Person.email.allowsNull") == ["id=4"], "\(format)")
        #expect(code("Person.middle_name.allowsMissing") == 2009 && code("Person.email.allowsNull") == 2008)
        let text = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 1)
        #expect(text.stdoutText.contains("email must not be null."), "\(text)")
        #expect(text.stdoutText.contains("middle_name must be present (it may be null); it is missing."), "\(text)")
    }

    @Test("A CSV text in both nullValues and explicitNullValues is exit 78 at the option, for check")
    func csvConflictIsARulesError() throws {
        let tmp = try Scratch("nil-null-conflict")
        defer { tmp.remove() }
        try tmp.write("people.csv", Self.csv)
        try tmp.write("rules.yml", try Self.docsExample().replacingOccurrences(
            of: "csv: { explicitNullValues", with: "csv: { nullValues: [\"\", NULL], explicitNullValues"))
        try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 78,
                          stderrContains: ["'NULL' is in both nullValues (absent) and explicitNullValues (explicit null)"])
    }

    static let contactsRules = #"""
        version: 1
        sources:
          people:
            path: people.jsonl
            jsonl: { fields: { contacts: { path: contacts, as: map } } }
        entities:
          P:
            key: [id]
            attributes:
              id: integer
              contacts:
                minCount: 1
                eachKey: { pattern: "[a-z_]+" }
                pairs:
                  - { keyPattern: "tel_.*", value: { pattern: "\\+?[0-9 ]+" } }

        """#

    /// The `contacts:` attribute of docs/validators.md's compound-constraints example, as written.
    static func docsContacts() throws -> String {
        let docs = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("docs/validators.md"), encoding: .utf8)
        let section = try #require(docs.range(of: "## Compound and collection constraints in YAML"))
        let rest = docs[section.upperBound...]
        let start = try #require(rest.range(of: "  contacts:"))
        let end = try #require(rest[start.lowerBound...].range(of: "```"))
        return rest[start.lowerBound ..< end.lowerBound].split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
    }

    @Test("docs/validators.md's contacts example on JSON objects and on CSV key=value text: each rule finds its record",
          arguments: ["jsonl", "csv"])
    func docsContactsExample(format: String) throws {
        let tmp = try Scratch("keyed-docs-\(format)")
        defer { tmp.remove() }
        let records: [[(String, String)]] = [
            [("tel_home", "+47 22 00 00 00")], [], [("Tel", "1")], [("tel_work", "call me")], [("mail", "")],
            (0 ..< 11).map { ("key_" + String(UnicodeScalar(UInt8(97 + $0))), "v") },   // 11 entries, one too many
        ]
        var contacts = try Self.docsContacts()
        let source: String
        if format == "jsonl" {
            try tmp.write("people.jsonl", records.enumerated().map { i, entries in
                "{\"id\": \(i + 1), \"contacts\": {" + entries.map { "\"\($0.0)\": \"\($0.1)\"" }.joined(separator: ", ") + "}}\n"
            }.joined())
            source = "path: people.jsonl\n    jsonl: { fields: { contacts: { path: contacts, as: map } } }"
        } else {
            try tmp.write("people.csv", "id,contacts\n" + records.enumerated().map { i, entries in
                "\(i + 1),\"" + entries.map { "\($0.0)=\($0.1)" }.joined(separator: ";") + "\"\n"
            }.joined())
            source = "path: people.csv"
            contacts = contacts.replacingOccurrences(of: "minCount: 1", with: "split: \";\"\n        keySeparator: \"=\"\n        minCount: 1")
        }
        try tmp.write("rules.yml", """
            version: 1
            sources:
              people:
                \(source)
            entities:
              P:
                key: [id]
                attributes:
                  id: integer
            \(contacts)

            """)
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        func keys(_ id: String) -> [String] {
            (report.rules(withID: id).first?["samples"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        }
        #expect(keys("P.contacts.minCount") == ["id=2"], "\(format)")
        #expect(keys("P.contacts.maxCount") == ["id=6"], "\(format)")
        #expect(keys("P.contacts.eachKey") == ["id=3"], "\(format)")
        #expect(keys("P.contacts.eachValue") == ["id=5"], "\(format)")
        #expect(keys("P.contacts.pairs") == ["id=4"], "\(format)")
    }

    @Test("JSON objects read as: map: minCount, eachKey and pairs are findings with their paths; a bad pair is exit 78")
    func keyedCollectionsOnJSONL() throws {
        let tmp = try Scratch("keyed-jsonl")
        defer { tmp.remove() }
        try tmp.write("people.jsonl", """
            {"id": 1, "contacts": {"tel_home": "+47 22 00 00 00", "mail": "a@b.c"}}
            {"id": 2, "contacts": {}}
            {"id": 3, "contacts": {"Tel": "1", "tel_work": "call me"}}

            """)
        try tmp.write("rules.yml", Self.contactsRules)
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        func samples(_ id: String) -> [[String: Any]] { report.rules(withID: id).first?["samples"] as? [[String: Any]] ?? [] }
        #expect(samples("P.contacts.minCount").compactMap { $0["key"] as? String } == ["id=2"])
        #expect(samples("P.contacts.eachKey").compactMap { $0["message"] as? String }
            .contains { $0.contains("contacts[key 'Tel'] must match the pattern [a-z_]+") })
        #expect(samples("P.contacts.pairs").compactMap { $0["message"] as? String }
            .contains { $0.contains("contacts.tel_work must match the pattern") })

        try tmp.write("rules.yml", Self.contactsRules.replacingOccurrences(of: "{ keyPattern: \"tel_.*\", value:", with: "{ value:"))
        try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 78,
                          stderrContains: ["pair 1 of 'pairs' needs 'keyPattern'"])
    }
}
