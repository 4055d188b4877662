import Auditor
import Foundation
import TestSupport
@_spi(Testing) import AuditorReaders
import Testing

/// The benchmark generator's `people.xml` read fully: 3000 records whose values equal the
/// CSV form of the same data, each at the line of its `<person` start tag.
@Suite struct XMLGeneratedDataTests {
    static let columns = ["id", "name", "email", "birthday", "has_licence", "age", "salary",
                          "country", "dept_id", "created_at", "notes"]

    /// `shared/bench/gen.py`, next to the repository (as CI lays it out), or `$AUDITOR_SHARED`.
    static func generator() -> String? {
        var candidates = [String]()
        if let shared = ProcessInfo.processInfo.environment["AUDITOR_SHARED"] {
            candidates.append(shared + "/bench/gen.py")
        }
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 4 {
            dir.deleteLastPathComponent()
            candidates.append(dir.appendingPathComponent("shared/bench/gen.py").path)
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    @Test(.enabled(if: generator() != nil, "needs shared/bench/gen.py next to the repository, or $AUDITOR_SHARED"))
    func peopleXMLEqualsPeopleCSV() throws {
        let gen = try #require(Self.generator(), "shared/bench/gen.py not found next to the repository; set AUDITOR_SHARED")
        let out = try XMLTest.directory()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try ChildProcess.run(["python3", gen, "--rows", "3000", "--seed", "11", "--out", out.path, "--formats", "csv,xml"])
        try #require(run.status == 0, "gen.py failed: \(run)")

        let xmlPath = out.appendingPathComponent("people.xml").path
        let records = try ReaderConformance.check {
            try XMLReader(path: xmlPath, displayPath: "people.xml", fields: Self.columns,
                          options: XMLReaderOptions(record: "person"))
        }
        #expect(records.count == 3000)

        // every record at the line of its start tag (notes with newlines shift the lines)
        let xmlText = try String(contentsOfFile: xmlPath, encoding: .utf8)
        var startLines = [Int64]()
        var line: Int64 = 1
        var utf8 = xmlText.utf8[...]
        while let i = utf8.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "<") }) {
            if utf8[i] == UInt8(ascii: "\n") {
                line += 1
            } else if utf8[i...].starts(with: "<person ".utf8) {
                startLines.append(line)
            }
            utf8 = utf8[utf8.index(after: i)...]
        }
        #expect(records.map(\.location) == startLines)

        // the same values as the CSV (a missing XML element is an empty CSV field)
        let csv = Self.parseCSV(try Data(contentsOf: out.appendingPathComponent("people.csv")))
        #expect(csv.first == Self.columns)
        let rows = Array(csv.dropFirst())
        try #require(rows.count == records.count)
        var mismatches = [String]()
        for (i, (row, record)) in zip(rows, records).enumerated() {
            // ragged CSV rows (a fault only CSV has) carry an extra field or lack `notes`
            let compared = row.count == Self.columns.count ? Self.columns.count : Self.columns.count - 1
            for c in 0 ..< compared {
                let expected = row[c].isEmpty ? nil : row[c]
                if record.values[c] != expected {
                    mismatches.append("record \(i + 1) \(Self.columns[c]): xml \(String(describing: record.values[c])) csv \(String(describing: expected))")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        // spot checks that do not depend on the CSV parser above
        #expect(records[0].values[0] == "1")
        #expect(records[2999].values[0] != nil)
        #expect(records.contains { $0.values[10]?.contains("\n") == true }, "notes with newlines")
        #expect(records.contains { $0.values.contains(nil) }, "missing elements")
        #expect(records.contains { $0.values[1]?.unicodeScalars.contains { $0.value > 0x7F } == true }, "non-ASCII names")
    }

    /// RFC 4180 (quotes, doubled quotes, CR LF, line breaks inside quotes).
    static func parseCSV(_ data: Data) -> [[String]] {
        var rows = [[String]]()
        var row = [String]()
        var field = [UInt8]()
        var quoted = false
        var i = data.startIndex
        while i < data.endIndex {
            let b = data[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if data.index(after: i) < data.endIndex, data[data.index(after: i)] == UInt8(ascii: "\"") {
                        field.append(b)
                        i = data.index(after: i)
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(b)
                }
            } else if b == UInt8(ascii: "\"") {
                quoted = true
            } else if b == UInt8(ascii: ",") {
                row.append(String(decoding: field, as: UTF8.self))
                field = []
            } else if b == UInt8(ascii: "\n") {
                row.append(String(decoding: field, as: UTF8.self))
                rows.append(row)
                row = []
                field = []
            } else if b != UInt8(ascii: "\r") {
                field.append(b)
            }
            i = data.index(after: i)
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(String(decoding: field, as: UTF8.self))
            rows.append(row)
        }
        return rows
    }
}
