import Auditor
import Foundation
import TestSupport
@_spi(Testing) import AuditorReaders
import Testing

/// The record-path verdict and the records' "columns" against an independent reading of the
/// same documents: Python's `xml.etree.ElementTree`, on generated documents (random nesting of
/// a few element names, random attributes) and random record paths. For each case both must
/// agree on the number of records, on whether zero records is an error (the documented rule:
/// a legitimately empty document has the records' parent, or for a name the root, with no
/// child element), and on the set of child and attribute names of the records.
@Suite struct XMLShapeCrossCheckTests {
    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let oracle = """
        import json, sys
        import xml.etree.ElementTree as ET
        out = []
        for case in json.load(open(sys.argv[1])):
            root = ET.fromstring(case["xml"])
            record = case["record"]
            records = []
            if record.startswith("/"):
                steps = record[1:].split("/")
                levels = [[root] if root.tag == steps[0] else []]
                for step in steps[1:]:
                    levels.append([c for e in levels[-1] for c in e if c.tag == step])
                records = levels[-1]
                parents = levels[-2] if len(steps) >= 2 else []
                empty = len(steps) >= 2 and len(parents) > 0 and all(len(list(p)) == 0 for p in parents)
            else:
                def walk(e):
                    if e.tag == record:
                        records.append(e)
                        return
                    for c in e:
                        walk(c)
                walk(root)
                empty = len(list(root)) == 0
            names = set()
            for r in records:
                names.update(c.tag for c in r)
                names.update(r.attrib.keys())
            out.append({"records": len(records), "error": len(records) == 0 and not empty,
                        "names": sorted(names)})
        json.dump(out, sys.stdout)
        """

    struct Outcome: Equatable, CustomStringConvertible {
        var records: Int
        var error: Bool
        var names: [String]
        var description: String { "\(records) records, error \(error), names \(names)" }
    }

    /// A small deterministic generator (SplitMix64).
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(n))
        }
    }

    static let names = ["a", "b", "c", "item"]

    static func element(_ g: inout Generator, depth: Int) -> String {
        let name = names[g.next(names.count)]
        var attributes = ""
        for k in 0 ..< g.next(3) { attributes += " \(["id", "k", "b"][k])=\"\(g.next(9))\"" }
        let children = depth >= 4 ? 0 : g.next(depth == 0 ? 4 : 3)
        if children == 0 { return g.next(2) == 0 ? "<\(name)\(attributes)/>" : "<\(name)\(attributes)>t</\(name)>" }
        var body = ""
        for _ in 0 ..< children { body += element(&g, depth: depth + 1) }
        return "<\(name)\(attributes)>\(body)</\(name)>"
    }

    static func recordPath(_ g: inout Generator) -> String {
        if g.next(2) == 0 { return names[g.next(names.count)] }
        return "/" + (0 ... g.next(3)).map { _ in names[g.next(names.count)] }.joined(separator: "/")
    }

    @Test(.enabled(if: python != nil, "needs python3"))
    func recordPathVerdictAndNamesMatchPython() throws {
        var g = Generator(state: 13)
        var cases = [(xml: String, record: String)]()
        for _ in 0 ..< 400 { cases.append((Self.element(&g, depth: 0), Self.recordPath(&g))) }
        let dir = try XMLTest.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = try JSONSerialization.data(withJSONObject: cases.map { ["xml": $0.xml, "record": $0.record] })
        let casesPath = dir.appendingPathComponent("cases.json")
        try json.write(to: casesPath)
        let scriptPath = dir.appendingPathComponent("oracle.py")
        try Self.oracle.write(to: scriptPath, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run([Self.python ?? "python3", scriptPath.path, casesPath.path])
        try #require(run.status == 0, "\(run)")
        let expected = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        try #require(expected.count == cases.count)

        var errors = 0, empties = 0, disagreements = 0
        for (i, c) in cases.enumerated() {
            let oracle = Outcome(records: expected[i]["records"] as? Int ?? -1, error: expected[i]["error"] as? Bool ?? false,
                                 names: expected[i]["names"] as? [String] ?? [])
            let path = try XMLTest.write(c.xml, name: "case\(i).xml", in: dir)
            let reader = try XMLReader(path: path, displayPath: "doc.xml", fields: ["a"],
                                       options: XMLReaderOptions(record: c.record), missingFieldsAllowed: true)
            var records = 0
            while let chunk = try reader.nextChunk(maxRecords: 3) { records += chunk.count }
            var failed = false
            do { try reader.finish() } catch { failed = true }
            let ours = Outcome(records: records, error: failed, names: reader.availableFields.sorted())
            if ours.error { errors += 1 } else if ours.records == 0 { empties += 1 }
            if ours != oracle {
                disagreements += 1
                if disagreements <= 5 {
                    Issue.record("case \(i): record '\(c.record)' in \(c.xml): ours \(ours), Python \(oracle)")
                }
            }
        }
        #expect(disagreements == 0)
        // the generated cases cover both verdicts for zero records
        #expect(errors > 20, "errors: \(errors)")
        #expect(empties > 0, "legitimately empty: \(empties)")
    }
}
