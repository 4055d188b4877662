import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("Failures file")
struct FailuresFileTests {
    /// Reads RFC 4180 CSV (quoted fields, doubled quotes, CRLF) back into rows.
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.unicodeScalars.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.unicodeScalars.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\r", chars.first == "\n" { chars.removeFirst(); row.append(field); rows.append(row); row = []; field = "" }
            else { field.unicodeScalars.append(c) }
        }
        return rows
    }

    static func write(_ records: [RecordFindings], to name: String, formulaEscape: Bool = true) throws -> (URL, String) {
        let folder = try ExternalTool.temporaryFolder("auditor-failures")
        let url = folder.appendingPathComponent(name)
        let sink = try FailuresFile(path: url.path, formulaEscape: formulaEscape)
        for r in records { try sink.receive(r) }
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing at the target before finish")
        try sink.finish()
        return (folder, String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }

    @Test("JSONL: one parseable object per record, all findings, values exact")
    func jsonl() throws {
        let records = Fixture.xss.report.records + Fixture.failing.report.records
        let (folder, text) = try Self.write(records, to: "f.jsonl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == records.count + 1 && lines.last == "")
        for (line, record) in zip(lines, records) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["entity"] as? String == record.entity)
            #expect(object["key"] as? String == record.key)
            let findings = try #require(object["findings"] as? [[String: Any]])
            #expect(findings.map { $0["value"] as? String } == record.findings.map(\.value))
            #expect(findings.map { $0["message"] as? String } == record.findings.map(\.message))
        }
        #expect(!text.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\r" })
    }

    @Test("CSV: RFC 4180 round trip, one row per finding, formulas neutralised")
    func csv() throws {
        let everyValue = Fixture.xss.report.rules[0].samples.map {
            RecordFindings(entity: $0.entity ?? "", location: $0.location, key: $0.key, findings: [$0])
        }
        let records = everyValue + Fixture.xss.report.records + Fixture.tolerated.report.records
        let (folder, text) = try Self.write(records, to: "f.csv")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = Self.parseCSV(text)
        #expect(rows.first == ["entity", "path", "line", "table", "rowid", "record", "key", "rule", "code", "severity",
                               "attribute", "value", "message"])
        let findings = records.flatMap { r in r.findings.map { (r, $0) } }
        try #require(rows.count == findings.count + 1)
        for (row, (record, f)) in zip(rows.dropFirst(), findings) {
            #expect(row.count == 13)
            #expect(row[0] == FailuresCSV.neutralised(record.entity))
            #expect(row[11] == FailuresCSV.neutralised(f.value ?? ""))
            #expect(row[12] == FailuresCSV.neutralised(f.message))
            for cell in row { #expect(!["=", "+", "-", "@", "\t", "\r", "\n"].contains(cell.first.map(String.init) ?? "")) }
        }
        #expect(text.contains(#""'=cmd|' /C calc'!A0""#))
        #expect(text.contains(#""'+ very long note""#) && text.contains(#""'=HYPERLINK(""http://x"")""#))
    }

    @Test("CSV with --csv-formula-escape=off keeps values as they are")
    func csvRaw() throws {
        let (folder, text) = try Self.write(Fixture.tolerated.report.records, to: "f.csv", formulaEscape: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(text.contains(#","+ very long note","#) && text.contains(#","=HYPERLINK(""http://x"")","#))
        #expect(!text.contains(#""'+"#) && !text.contains(#""'="#))
    }

    @Test("neutralisation", arguments: [
        ("=1+1", "'=1+1"), ("+1", "'+1"), ("-5", "'-5"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
        ("\nx", "'\nx"), ("a=b", "a=b"), ("", ""), ("'quoted", "'quoted"), (" =1", " =1"),
    ])
    func neutralise(_ input: String, _ expected: String) {
        #expect(FailuresCSV.neutralised(input) == expected)
    }

    @Test("streams through the buffer: 50,000 records, every one written, target replaced atomically")
    func streaming() throws {
        let folder = try ExternalTool.temporaryFolder("auditor-failures")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("big.csv")
        try Data("old".utf8).write(to: url)
        let sink = try FailuresFile(path: url.path)
        let template = Fixture.failing.report.records[0]
        for i in 0..<50_000 {
            var r = template
            r.key = "id=\(i)"
            try sink.receive(r)
        }
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == "old", "the old file stays until finish")
        try sink.finish()
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(text.components(separatedBy: "\r\n").count - 2 == 50_000 * template.findings.count)
        #expect(sink.records == 50_000)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("discard leaves no file; a bad folder or extension is refused up front")
    func failures() throws {
        let folder = try ExternalTool.temporaryFolder("auditor-failures")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sink = try FailuresFile(path: folder.appendingPathComponent("x.jsonl").path)
        try sink.receive(Fixture.failing.report.records[0])
        sink.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(throws: AuditError.self) { try FailuresFile(path: folder.appendingPathComponent("no/such/x.csv").path) }
        #expect(throws: AuditError.self) { try FailuresFile(path: folder.appendingPathComponent("x.txt").path) }
    }
}
