import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("JSON reporter")
struct JSONReporterTests {
    static func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("JSONSerialization reads back the report's counts", arguments: Fixture.all)
    func roundTripCounts(_ fixture: Fixture) throws {
        let report = fixture.report
        let document = try Self.parse(JSONReporter().render(report))
        #expect(document["schemaVersion"] as? String == JSONReporter.schemaVersion)
        #expect(document["startedAt"] as? String == "2026-11-20T02:00:00.000Z")
        #expect(document["rulesFile"] as? String == report.rulesFile)

        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["outcome"] as? String == report.outcome.rawValue)
        #expect(summary["failOn"] as? String == report.failOn.rawValue)
        #expect(summary["records"] as? Int == report.totalRecords)
        #expect(summary["rules"] as? Int == report.rules.count)
        #expect(summary["violatedRules"] as? Int == report.violatedRules.count)
        #expect(summary["failingRules"] as? Int == report.failingRules.count)
        #expect(summary["toleratedRules"] as? Int == report.toleratedRules.count)
        #expect(summary["exitStatus"] as? Int == Int(report.exitStatus.rawValue))
        #expect(summary["violations"] as? Int == report.rules.reduce(0) { $0 + $1.violations })
        #expect(summary["complete"] as? Bool == report.complete)
        #expect(summary["maxSamples"] as? Int == report.maxSamples)

        let rules = try #require(document["rules"] as? [[String: Any]])
        try #require(rules.count == report.rules.count)
        for (json, rule) in zip(rules, report.rules) {
            #expect(json["id"] as? String == rule.id)
            #expect(json["entity"] as? String == rule.entity)
            #expect(json["severity"] as? String == rule.severity.rawValue)
            #expect(json["code"] as? Int == rule.code)
            #expect(json["violations"] as? Int == rule.violations)
            #expect(json["evaluated"] as? Int == rule.evaluated)
            #expect(json["sampled"] as? Bool == rule.sampled)
            #expect(json["status"] as? String == rule.status.rawValue)
            #expect(json["skipped"] as? Int == rule.skipped)
            #expect(json["definedAt"] as? String == rule.definedAt)
            let threshold = try #require(json["threshold"] as? [String: Any])
            #expect(threshold["maxFailures"] as? Int == rule.threshold.maxFailures)
            #expect(threshold["maxFailureRate"] as? Double == rule.threshold.maxFailureRate)
            #expect(abs((json["rate"] as? Double ?? -1) - rule.rate) < 1e-6)
            let samples = try #require(json["samples"] as? [[String: Any]])
            #expect(samples.map { $0["message"] as? String } == rule.samples.map(\.message))
            #expect(samples.map { $0["value"] as? String } == rule.samples.map(\.value))
        }

        let entities = try #require(document["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == report.entities.map(\.name))
        #expect(entities.map { $0["violatingRecords"] as? Int } == report.entities.map(\.violatingRecords))
        #expect(entities.map { $0["violations"] as? Int } == report.entities.map(\.violations))
        #expect(entities.map { $0["rules"] as? [String] } == report.entities.map(\.ruleIDs))

        let records = try #require(document["records"] as? [[String: Any]])
        #expect(records.map { ($0["findings"] as? [Any])?.count } == report.records.map(\.findings.count))
        #expect(records.map { $0["key"] as? String } == report.records.map(\.key))
        let inputs = try #require(document["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["complete"] as? Bool } == report.inputs.map(\.complete))
        #expect(inputs.map { $0["error"] as? String } == report.inputs.map(\.error))
        #expect(inputs.map { $0["errorStatus"] as? Int } == report.inputs.map { $0.errorStatus.map { Int($0.rawValue) } })
    }

    @Test("hostile strings survive escaping exactly")
    func hostileRoundTrip() throws {
        for htmlSafe in [false, true] {
            let text = JSONReporter(htmlSafe: htmlSafe).render(Fixture.hostile.report)
            var strings = Set<String>()
            func collect(_ node: Any) {
                if let string = node as? String { strings.insert(string) }
                if let array = node as? [Any] { array.forEach(collect) }
                if let object = node as? [String: Any] { object.values.forEach(collect) }
            }
            collect(try Self.parse(text))
            for hostile in Fixture.Hostile.all {
                #expect(strings.contains { $0.contains(hostile) }, "lost \(String(reflecting: hostile))")
            }
            #expect(strings.contains("Person\u{1B}[8m"))
            #expect(strings.contains("uploads/evil\nname.csv:2"))
        }
    }

    @Test("output has no raw control character, separator or bidi control")
    func noRawControls() {
        for fixture in Fixture.all {
            let text = JSONReporter().render(fixture.report)
            let bad = text.unicodeScalars.filter { $0 != "\n" && TerminalText.needsEscape($0) }
            #expect(bad.isEmpty, "\(fixture.name): \(bad.map { String($0.value, radix: 16) })")
        }
    }

    @Test("htmlSafe escapes < > & and parses to the same document")
    func htmlSafe() throws {
        let plain = JSONReporter().render(Fixture.hostile.report)
        let safe = JSONReporter(htmlSafe: true).render(Fixture.hostile.report)
        #expect(plain.contains("</script>"))
        #expect(!safe.contains("<") && !safe.contains(">") && !safe.contains("&"))
        #expect(safe.contains(#"\u003c/script\u003e"#))
        let a = try Self.parse(plain) as NSDictionary
        let b = try Self.parse(safe) as NSDictionary
        #expect(a.isEqual(b))
    }

    @Test("top-level keys come in schema order, two-space indentation")
    func keyOrder() {
        let text = JSONReporter().render(Fixture.failing.report)
        let keys = text.split(separator: "\n")
            .filter { $0.hasPrefix("  \"") }
            .compactMap { $0.dropFirst(3).split(separator: "\"").first.map(String.init) }
        #expect(keys == ["schemaVersion", "tool", "rulesFile", "startedAt", "durationSeconds", "historyRun", "summary",
                         "baseline", "inputs", "rules", "entities", "records", "fingerprints"])
        #expect(text.hasPrefix("{\n  \"schemaVersion\": \"2.0\",\n"))
        #expect(text.hasSuffix("}\n"))
    }

    @Test("a run against a baseline: fingerprints, new flags, per-rule and total counts, trends")
    func baselineMembers() throws {
        let report = Fixture.baseline.report
        let document = try Self.parse(JSONReporter().render(report))
        #expect(document["historyRun"] as? Int == 12)
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["failOnNew"] as? Bool == true)
        #expect(summary["failingRules"] as? Int == 1)
        let baseline = try #require(document["baseline"] as? [String: Any])
        #expect(baseline["source"] as? String == "out/baseline.json")
        #expect(baseline["new"] as? Int == 5 && baseline["existing"] as? Int == 18 && baseline["resolved"] as? Int == 6)
        #expect(baseline["missingRules"] as? [String] == ["person.nickname.pattern"])

        let rules = try #require(document["rules"] as? [[String: Any]])
        let name = try #require(rules.first { $0["id"] as? String == "person.name.length" })
        #expect(name["baseline"] as? [String: Int] == ["new": 5, "existing": 7, "resolved": 1])
        let trend = try #require(name["trend"] as? [String: Any])
        #expect(trend["counts"] as? [Int] == [5, 4, 5, 5, 6, 5, 4, 12])
        #expect(trend["median"] as? Double == 5 && trend["jumped"] as? Bool == true)
        let samples = try #require(name["samples"] as? [[String: Any]])
        #expect(samples.map { $0["new"] as? Bool } == [false, true, true])
        #expect(samples.map { $0["fingerprint"] as? String } == report.rules[2].samples.map { $0.fingerprint.map(Fingerprint.hex) })

        // Every finding's fingerprint, rules in report order, lists ascending: a complete baseline.
        let text = JSONReporter().render(report)
        let prints = try #require(document["fingerprints"] as? [String: [String]])
        #expect(prints.count == report.rules.count)
        for rule in report.rules {
            let list = try #require(prints[rule.fingerprintKey])
            #expect(list.count == rule.violations, "\(rule.id)")
            #expect(list == list.sorted() && list.allSatisfy { Fingerprint.parse($0) != nil }, "\(rule.id)")
        }
        let order = report.rules.map { "\"\($0.fingerprintKey)\": [" }.compactMap { text.range(of: $0)?.lowerBound }
        #expect(order.count == report.rules.count && order == order.sorted())
    }

    @Test("without fingerprints, baseline or history the new members are null, never missing")
    func baselineMembersNull() throws {
        let document = try Self.parse(JSONReporter().render(Fixture.failing.report))
        for key in ["historyRun", "baseline", "fingerprints"] { #expect(document[key] is NSNull, "\(key)") }
        #expect((document["summary"] as? [String: Any])?["failOnNew"] as? Bool == false)
        let rule = try #require((document["rules"] as? [[String: Any]])?.first)
        #expect(rule["baseline"] is NSNull && rule["trend"] is NSNull)
        let sample = try #require((rule["samples"] as? [[String: Any]])?.first)
        #expect(sample["fingerprint"] is NSNull && sample["new"] is NSNull)
    }

    @Test("string escaping", arguments: [
        ("plain", #""plain""#),
        ("quote \" backslash \\", #""quote \" backslash \\""#),
        ("\u{8}\t\n\u{C}\r", #""\b\t\n\f\r""#),
        ("\u{0}\u{1B}\u{1F}\u{7F}\u{85}\u{9F}", #""\u0000\u001b\u001f\u007f\u0085\u009f""#),
        ("a\u{2028}b\u{2029}c", #""a\u2028b\u2029c""#),
        ("\u{202E}x\u{FEFF}", #""\u202ex\ufeff""#),
        ("🦄 𝄞 é </script>", #""🦄 𝄞 é </script>""#),
    ])
    func quoting(_ input: String, _ expected: String) {
        #expect(JSONWriter.quoted(input) == expected)
    }

    @Test("htmlSafe escapes < > & and nothing else more")
    func htmlSafeQuoting() {
        #expect(JSONWriter.quoted("a<b>&c é", htmlSafe: true) == #""a\u003cb\u003e\u0026c é""#)
        #expect(JSONWriter(htmlSafe: true, compact: true).write(.object(["<k>": .string("&")]))
                == #"{"\u003ck\u003e":"\u0026"}"# + "\n")
    }

    @Test("integers: extremes and signs")
    func integers() {
        for n in [Int64.min, -1_000_000, -1, 0, 7, 10, 999, Int64.max] {
            #expect(JSONWriter(compact: true).write(.integer(n)) == "\(n)\n")
        }
    }

    /// The byte writer against the definition it replaced (scalar by scalar), on texts mixing
    /// ASCII, escapes, C1 controls, bidi marks, BMP and astral scalars.
    @Test("byte-level quoting equals the scalar-level definition on mixed text")
    func quotingCrossCheck() {
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "~", "\"", "\\", "<", ">", "&", "\u{0}", "\u{8}", "\t",
                                      "\n", "\u{B}", "\u{C}", "\r", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}",
                                      "\u{9F}", "\u{A0}", "é", "\u{61C}", "\u{200E}", "\u{2028}", "\u{2029}",
                                      "\u{202A}", "\u{2069}", "€", "\u{FEFF}", "\u{FFFD}", "🦄", "𝄞"]
        // A deterministic walk over the pool: half of all ordered pairs of neighbours, texts of 0 to 23 scalars.
        for i in 0 ..< 2_000 {
            var scalars = String.UnicodeScalarView()
            for k in 0 ..< i % 24 { scalars.append(pool[(i * 31 + k * 17 + k * k) % pool.count]) }
            let text = String(scalars)
            for htmlSafe in [false, true] {
                #expect(JSONWriter.quoted(text, htmlSafe: htmlSafe) == Self.referenceQuoted(text, htmlSafe: htmlSafe))
            }
        }
    }

    private static func referenceQuoted(_ text: String, htmlSafe: Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += #"\""#
            case "\\": out += #"\\"#
            case "\u{08}": out += #"\b"#
            case "\t": out += #"\t"#
            case "\n": out += #"\n"#
            case "\u{0C}": out += #"\f"#
            case "\r": out += #"\r"#
            case "<" where htmlSafe, ">" where htmlSafe, "&" where htmlSafe, _ where TerminalText.needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("decimals are fixed notation", arguments: [
        (0.0, "0.0"), (1.0, "1.0"), (0.5, "0.5"), (0.0005, "0.0005"), (1.0 / 3.0, "0.333333"),
        (1.0 / 3_000_000.0, "0.000000333333"), (1e-7, "0.0000001"), (1.234567891, "1.234568"),
        (12345.5, "12345.5"), (-0.0, "0.0"), (1e-30, "0.0"),
    ])
    func decimals(_ value: Double, _ expected: String) {
        #expect(NumberText.jsonDecimal(value) == expected)
    }

    /// Fingerprints are written straight as bytes: the same text as an array of their
    /// ``Fingerprint/hex(_:)`` strings, pretty or compact, nested or not, empty or not.
    @Test("a fingerprint list is written as the array of its hex strings")
    func fingerprintLists() {
        for size in [0, 1, 2, 17] {
            let values: [UInt64] = (0 ..< size).map { (i: Int) -> UInt64 in
                if i < 2 { return i == 0 ? 0 : .max }
                return UInt64(i) &* 0x9E37_79B9_7F4A_7C15 >> UInt64(i * 7 % 64)
            }
            let strings = JSONValue.array(values.map { JSONValue.string(Fingerprint.hex($0)) })
            for writer in [JSONWriter(), JSONWriter(compact: true)] {
                #expect(writer.write(.fingerprints(values)) == writer.write(strings))
                #expect(writer.write(.object(["a": .object(["r": .fingerprints(values)]), "b": .integer(1)]))
                        == writer.write(.object(["a": .object(["r": strings]), "b": .integer(1)])))
            }
        }
    }

    /// A report too large to hold twice: streamed in pieces of about 64 KiB that join into the
    /// text ``JSONWriter/write(_:)`` returns; a sink that fails stops the writing.
    @Test("a streamed document is the same text, in bounded pieces; a failing sink stops it")
    func streamedDocument() throws {
        let prints = (0 ..< 30_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        let value = JSONValue.object(["rules": .array((0 ..< 3_000).map { .object(["id": .string("r\($0) é\u{1}"), "n": .integer(Int64($0))]) }),
                                      "fingerprints": .object(["a": .fingerprints(prints), "b": .fingerprints([])])])
        for writer in [JSONWriter(), JSONWriter(htmlSafe: true), JSONWriter(compact: true)] {
            var pieces = [[UInt8]]()
            try writer.write(value) { (bytes: UnsafeRawBufferPointer) throws(AuditError) in pieces.append(Array(bytes)) }
            #expect(String(decoding: pieces.joined(), as: UTF8.self) == writer.write(value))
            #expect(pieces.count > 5 && pieces.allSatisfy { $0.count < 1 << 17 }, "\(pieces.map(\.count))")
        }
        var calls = 0
        #expect(throws: AuditError.self) {
            try JSONWriter().write(value) { (_: UnsafeRawBufferPointer) throws(AuditError) in
                calls += 1
                throw AuditError(.io, "full")
            }
        }
        #expect(calls == 1)
    }

    @Test("non-finite decimals become null")
    func nonFinite() {
        #expect(NumberText.jsonDecimal(.nan) == nil)
        #expect(JSONWriter().write(.decimal(.infinity)) == "null\n")
    }

    @Test("empty containers and nesting")
    func writerShape() {
        let value = JSONValue.object(["a": .array([]), "b": .object([]), "c": .array([.integer(1), .null, .bool(true)])])
        #expect(JSONWriter().write(value) == "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    null,\n    true\n  ]\n}\n")
    }
}
