import Foundation
import Testing

/// Issue 13 §1: a list or map constraint on a field that is neither is a rules-file error
/// (exit 78, located at the constraint, saying how to fix it), for `auditor check` and `run`.
@Suite("List and map constraints on single values")
struct CollectionConstraintCheckTests {
    static func csvRules(tags: String) -> String {
        """
        version: 1
        sources:
          people: { path: people.csv }
        entities:
          P:
            key: [id]
            attributes:
              id: integer
              tags: \(tags)

        """
    }

    static func xmlRules(address: String, fields: String) -> String {
        """
        version: 1
        sources:
          people:
            path: people.xml
            xml: { record: person\(fields) }
        entities:
          P:
            key: [id]
            attributes:
              id: integer
              address: \(address)

        """
    }

    static let csv = "id,tags\n1,red;blue\n2,red;red\n"
    static let xml = """
        <people>
          <person><id>1</id><address><city>Oslo</city></address></person>
          <person><id>2</id><address><zip>0150</zip></address></person>
        </people>

        """

    @Test("CSV: minCount without split: is exit 78 at 'minCount' for check and run; with split: it is findings",
          arguments: ["check", "run"])
    func csvListConstraintWithoutSplit(command: String) throws {
        let tmp = try Scratch("list-on-scalar")
        defer { tmp.remove() }
        try tmp.write("people.csv", Self.csv)
        let rules = Self.csvRules(tags: "{ minCount: 1, uniqueItems: true }")
        try tmp.write("rules.yml", rules)
        let minCount = try #require(position(of: "minCount", in: rules))
        let unique = try #require(position(of: "uniqueItems", in: rules))
        let run = try assertExecute([command, "rules.yml"], in: tmp.url, exitCode: 78, stderrContains: [
            "rules.yml:\(minCount.line):\(minCount.column): 'minCount' applies to a list, but 'tags' is a single value",
            "rules.yml:\(unique.line):\(unique.column): 'uniqueItems' applies to a list",
            "add 'split: \";\"'", "in the source's xml or jsonl block read it 'fields: { tags: { path: ..., as: list } }'",
        ])
        #expect(!run.stdoutText.contains("must be a list"), "\(run)")

        try tmp.write("rules.yml", Self.csvRules(tags: "{ split: \";\", minCount: 1, uniqueItems: true }"))
        if command == "check" {
            try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        } else {
            let ok = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
            let report = try ReportJSON(ok.stdout)
            #expect(integer(report.rules(withID: "P.tags.uniqueItems").first?["violations"]) == 1)
            #expect(integer(report.rules(withID: "P.tags.minCount").first?["violations"]) == 0)
        }
    }

    @Test("XML: requiredKeys on a field not read 'as: map' is exit 78 at 'requiredKeys' for check and run",
          arguments: ["check", "run"])
    func xmlMapConstraintWithoutAsMap(command: String) throws {
        let tmp = try Scratch("map-on-scalar")
        defer { tmp.remove() }
        try tmp.write("people.xml", Self.xml)
        let rules = Self.xmlRules(address: "{ requiredKeys: [city] }", fields: "")
        try tmp.write("rules.yml", rules)
        let at = try #require(position(of: "requiredKeys", in: rules))
        try assertExecute([command, "rules.yml"], in: tmp.url, exitCode: 78, stderrContains: [
            "rules.yml:\(at.line):\(at.column): 'requiredKeys' applies to a map, but 'address' is a single value",
            "as: map",
        ])
        // Read as a list, it is still not a map.
        let asList = Self.xmlRules(address: "{ requiredKeys: [city] }",
                                   fields: ", fields: { address: { path: address, as: list } }")
        try tmp.write("rules.yml", asList)
        try assertExecute([command, "rules.yml"], in: tmp.url, exitCode: 78,
                          stderrContains: ["'requiredKeys' applies to a map, but 'address' is a list"])
        // And a list constraint on a map (issue 22: maxCount counts a map's entries, each does not apply).
        try tmp.write("rules.yml", Self.xmlRules(address: "{ each: { minLength: 1 } }",
                                                 fields: ", fields: { address: { path: address, as: map } }"))
        try assertExecute([command, "rules.yml"], in: tmp.url, exitCode: 78,
                          stderrContains: ["'each' applies to a list, but 'address' is a map (as: map)"])

        let asMap = Self.xmlRules(address: "{ requiredKeys: [city] }",
                                  fields: ", fields: { address: { path: address, as: map } }")
        try tmp.write("rules.yml", asMap)
        if command == "check" {
            try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        } else {
            let ok = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
            let report = try ReportJSON(ok.stdout)
            let rule = try #require(report.rules(withID: "P.address.requiredKeys").first)
            #expect(integer(rule["violations"]) == 1)
            #expect(integer(rule["code"]) == 1570)
        }
    }

    @Test("A source with csv and xml blocks: 'as: list' in its xml block makes the field a list for check")
    func multiFormatSourceCountsEveryBlock() throws {
        let tmp = try Scratch("list-multiformat")
        defer { tmp.remove() }
        try tmp.write("rules.yml", """
            version: 1
            sources:
              people:
                path: people.csv
                csv: { delimiter: "," }
                xml: { record: person, fields: { tags: { path: tags/tag, as: list } } }
            entities:
              P:
                attributes:
                  tags: { minCount: 1 }

            """)
        try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
    }

    static let jsonl = """
        {"id": 1, "tags": ["red", "blue"], "address": {"city": "Oslo"}, "name": "Ada"}
        {"id": 2, "tags": [], "address": {"zip": "0150"}, "name": "Bo"}
        {"id": 3, "tags": "red", "address": "Oslo", "name": "Cy"}
        {"id": 4, "tags": ["red", "red", "blue"], "name": "Di"}

        """

    static func jsonlRules(_ attributes: String, fields: String = "") -> String {
        """
        version: 1
        sources:
          people: { path: people.jsonl\(fields.isEmpty ? "" : ", jsonl: { fields: { \(fields) } }") }
        entities:
          P:
            key: [id]
            attributes:
              id: integer
        \(attributes.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))

        """
    }

    @Test("JSON Lines: list and map constraints apply to any field not declared otherwise; each value says what it is",
          arguments: ["check", "run"])
    func jsonlFieldsCarryTheirShape(command: String) throws {
        let tmp = try Scratch("jsonl-shapes")
        defer { tmp.remove() }
        try tmp.write("people.jsonl", Self.jsonl)
        // No `as:` anywhere, and a field mapped by a path alone: the run judges each value.
        try tmp.write("rules.yml", Self.jsonlRules("""
            tags: { minCount: 1, maxCount: 2, uniqueItems: true }
            address: { requiredKeys: [city] }
            name: { minCount: 1 }
            labels: { maxCount: 2 }
            """, fields: "labels: tags"))
        if command == "check" {
            try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        } else {
            let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
            let report = try ReportJSON(run.stdout)
            func count(_ id: String) -> Int? { integer(report.rules(withID: id).first?["violations"]) }
            // [] and "red" have no item; "red" and the 3-item list fail maxCount; ["red", "red", "blue"] repeats.
            #expect(count("P.tags.minCount") == 2)
            #expect(count("P.tags.maxCount") == 2)
            #expect(count("P.tags.uniqueItems") == 2)
            #expect(count("P.labels.maxCount") == 2)
            // {"zip"} and "Oslo" fail; the missing address is not evaluated.
            #expect(count("P.address.requiredKeys") == 2)
            // A name is never a list: every record says so, loudly.
            #expect(count("P.name.minCount") == 4)
            #expect(run.stdoutText.contains("must be a list"), "\(run)")
        }
        // What `as:` declares is still checked before the run.
        for (attributes, fields, message) in [
            ("tags: { minCount: 1 }", "tags: { path: tags, as: value }", "'minCount' applies to a list, but 'tags' is a single value"),
            ("tags: { requiredKeys: [a] }", "tags: { path: tags, as: list }", "'requiredKeys' applies to a map, but 'tags' is a list"),
            ("address: { each: { minLength: 1 } }", "address: { path: address, as: map }", "'each' applies to a list, but 'address' is a map"),
        ] {
            let rules = Self.jsonlRules(attributes, fields: fields)
            try tmp.write("rules.yml", rules)
            let kind = String(attributes.split(separator: "{")[1].split(separator: ":")[0]).trimmingCharacters(in: .whitespaces)
            let at = try #require(position(of: kind, in: rules))
            try assertExecute([command, "rules.yml"], in: tmp.url, exitCode: 78,
                              stderrContains: ["rules.yml:\(at.line):\(at.column): \(message)"])
        }
    }
}
