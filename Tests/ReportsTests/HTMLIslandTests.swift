import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// The HTML page's data island (``HTMLIsland``): the JSON report with every finding written
/// once, column by column. Expanded back (by this independent reading of the shape), it is
/// exactly the JSON report less its `fingerprints` list.
@Suite("HTML report: data island")
struct HTMLIslandTests {
    /// The island of `page`, parsed.
    static func island(_ page: String) throws -> [String: Any] {
        let text = try #require(HTMLReporterTests.between(page, "<script type=\"application/json\" id=\"report-data\">", "</script>"))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The island in the JSON report's shape: `pageFormat` and `findings` dropped, each rule's
    /// `samples` range and each record's finding rows replaced by the findings they name.
    static func expanded(_ island: [String: Any]) throws -> [String: Any] {
        var out = island
        #expect(island["pageFormat"] as? Int == HTMLIsland.version)
        out["pageFormat"] = nil
        out["findings"] = nil
        let findings = try Self.findings(try #require(island["findings"] as? [String: Any]))
        var rules = try #require(island["rules"] as? [[String: Any]])
        for i in rules.indices {
            let range = try #require(rules[i]["samples"] as? [Int])
            try #require(range.count == 2 && range[0] >= 0 && range[0] + range[1] <= findings.count)
            rules[i]["samples"] = Array(findings[range[0]..<(range[0] + range[1])])
        }
        out["rules"] = rules
        let r = try #require(island["records"] as? [String: Any])
        let count = try #require(r["count"] as? Int)
        let entities = try #require(r["entities"] as? [String]), entity = try #require(r["entity"] as? [Int])
        let locations = try Self.locations(try #require(r["location"] as? [String: Any]), count)
        let keys = try #require(r["key"] as? [Any]), codes = try #require(r["code"] as? [Int])
        let rows = try #require(r["findings"] as? [[Int]])
        try #require(entity.count == count && keys.count == count && codes.count == count && rows.count == count)
        out["records"] = (0..<count).map { k -> [String: Any] in
            ["entity": entities[entity[k]], "location": locations[k], "key": keys[k], "code": codes[k],
             "findings": rows[k].map { findings[$0] }]
        }
        return out
    }

    static func findings(_ f: [String: Any]) throws -> [[String: Any]] {
        let count = try #require(f["count"] as? Int)
        let heads = try #require(f["heads"] as? [[Any]]), head = try #require(f["head"] as? [Int])
        let locations = try Self.locations(try #require(f["location"] as? [String: Any]), count)
        let keys = try #require(f["key"] as? [Any]), values = try #require(f["value"] as? [Any])
        let templates = try #require(f["templates"] as? [String]), messages = try #require(f["message"] as? [Any])
        let fingerprints = f["fingerprint"] as? [Any], new = f["new"] as? [Any]
        try #require(head.count == count && keys.count == count && values.count == count && messages.count == count)
        try #require((fingerprints?.count ?? count) == count && (new?.count ?? count) == count)
        return try (0..<count).map { i in
            let h = heads[head[i]]
            let message: String
            if let m = messages[i] as? String {
                message = m
            } else {
                let template = templates[try #require(messages[i] as? Int)]
                let parts = template.components(separatedBy: "\u{1}")
                try #require(parts.count <= 2, "at most one marker in \(template.debugDescription)")
                message = parts.count == 1 ? template : parts[0] + (try #require(values[i] as? String)) + parts[1]
            }
            return ["rule": h[0], "code": h[1], "severity": h[2], "entity": h[3], "attribute": h[4], "location": locations[i],
                    "key": keys[i], "value": values[i], "message": message,
                    "fingerprint": fingerprints?[i] ?? NSNull(), "new": new?[i] ?? NSNull()]
        }
    }

    static func locations(_ l: [String: Any], _ count: Int) throws -> [[String: Any]] {
        let paths = try #require(l["paths"] as? [String]), path = try #require(l["path"] as? [Int])
        let locators = try #require(l["locator"] as? [Any]), records = try #require(l["record"] as? [Int])
        let texts = try #require(l["text"] as? [String: String])
        try #require(path.count == count && locators.count == count && records.count == count)
        return try (0..<count).map { i in
            let p = paths[path[i]]
            let locator: Any, derived: String?
            switch locators[i] {
            case let line as Int:
                locator = ["kind": "line", "line": line] as [String: Any]
                derived = "\(p):\(line)"
            case let parts as [Any] where parts.count == 2:
                locator = ["kind": "element", "element": parts[0], "line": parts[1]] as [String: Any]
                derived = "\(p):\(try #require(parts[1] as? Int))"
            case let parts as [Any] where parts.count == 3:
                locator = ["kind": "key", "container": parts[0], "key": parts[1], "value": parts[2]] as [String: Any]
                derived = nil
            default:
                locator = NSNull()
                derived = records[i] == 0 ? p : "\(p):#\(records[i])"
            }
            let text = try #require(texts[String(i)] ?? derived, "row \(i) has no text")
            return ["path": p, "locator": locator, "record": records[i], "text": text]
        }
    }

    /// The JSON report less its fingerprints list, parsed.
    static func report(_ report: AuditReport) throws -> NSDictionary {
        let json = JSONWriter().write(JSONReporter.document(report, fingerprints: false))
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
    }

    @Test("expanded, the island is the JSON report less its fingerprints list", arguments: Fixture.all)
    func lossless(_ fixture: Fixture) throws {
        let island = try Self.island(HTMLReporter().render(fixture.report))
        let expanded = try Self.expanded(island) as NSDictionary
        #expect(expanded == (try Self.report(fixture.report)))
        #expect(island["fingerprints"] is NSNull)
    }

    @Test("a message that holds U+0001 itself is written as it is")
    func markerInMessage() throws {
        var report = Fixture.failing.report
        let r = try #require(report.rules.firstIndex { $0.samples.contains { $0.value?.isEmpty == false } })
        let j = try #require(report.rules[r].samples.firstIndex { $0.value?.isEmpty == false })
        let value = try #require(report.rules[r].samples[j].value)
        report.rules[r].samples[j].message = "a\u{1}b; got '\(value)'"
        let island = try Self.island(HTMLReporter().render(report))
        let messages = try #require((island["findings"] as? [String: Any])?["message"] as? [Any])
        #expect(messages.contains { $0 as? String == "a\u{1}b; got '\(value)'" })
        #expect(try Self.expanded(island) as NSDictionary == (try Self.report(report)))
    }

    @Test("a record's finding that is one of its rule's samples is not written again", arguments: Fixture.all)
    func onceEach(_ fixture: Fixture) throws {
        let island = try Self.island(HTMLReporter().render(HTMLLazyTests.enlarged(fixture.report, to: 250)))
        let findings = try #require(island["findings"] as? [String: Any])
        let report = fixture.report
        let samples = report.rules.flatMap(\.samples)
        let others = report.records.flatMap(\.findings).filter { f in !samples.contains(f) }
        // Enlarged: 250 copies of every rule's samples, each written; no record adds a row unless
        // its finding is in no sample.
        let rows = HTMLLazyTests.enlarged(report, to: 250).rules.reduce(0) { $0 + $1.samples.count }
        var distinctOthers: [Finding] = []
        for f in others where !distinctOthers.contains(f) { distinctOthers.append(f) }
        #expect(findings["count"] as? Int == rows + distinctOthers.count)
    }

    @Test("templates: the value goes back where it was, byte for byte, or the message is written whole")
    func templates() {
        #expect(HTMLIsland.template("Email must look like name@host; got 'al@'.", value: "al@")
                == "Email must look like name@host; got '\u{1}'.")
        #expect(HTMLIsland.template("Age must be at most 150; got 151.", value: "151") == "Age must be at most 150; got \u{1}.")
        #expect(HTMLIsland.template("Name must be 3 to 32 characters; got 44.", value: "Maximilian") == nil)
        #expect(HTMLIsland.template("Email must look like name@host.", value: nil) == nil)
        #expect(HTMLIsland.template("Name must be 3 to 32 characters; got ''.", value: "") == nil)
        #expect(HTMLIsland.template("a\u{1}b 'x'", value: "x") == nil, "a message with the marker is written whole")
        // A decomposed é is not the precomposed one: bytes, not characters, are compared.
        #expect(HTMLIsland.template("got 'e\u{301}'", value: "\u{E9}") == nil)
        #expect(HTMLIsland.template("got 'e\u{301}'", value: "e") == "got '\u{1}\u{301}'")
    }
}
