import Auditor
import Foundation
import TestSupport
@_spi(Testing) @testable import AuditorReaders
import Testing

/// `decimalComma:`, `thousandsComma:` and `dateFormat:` in an `xml:` block read an element's
/// text as the same options read a CSV column: the cases of ``CSVColumnRewriteTests`` (numbers
/// that Python's `decimal` writes, dates that `strftime` writes, and mutations of both), each
/// the text of one record's element, are read as Python's `re`, `decimal` and `strptime` say.
@Suite struct XMLValueFormatsTests {
    /// Each record's text of `v` (nil when it has none) and the chunks' issues, by record.
    static func read(_ values: [String], _ formats: ValueFormats) throws -> (texts: [String?], issues: [Int: [RecordIssue]]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-xml-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("t.xml").path
        var xml = "<d>\n"
        for (i, v) in values.enumerated() {
            let escaped = v.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            xml += "<r id=\"\(i)\"><v>\(escaped)</v></r>\n"
        }
        try Data((xml + "</d>\n").utf8).write(to: URL(fileURLWithPath: file))
        var options = XMLReaderOptions(record: "/d/r", fields: ["id": "@id"])
        options.formats = formats
        let reader = try XMLReader(path: file, fields: ["id", "v"], options: options)
        var texts = [String?](), issues = [Int: [RecordIssue]]()
        while let chunk = try reader.nextChunk(maxRecords: 700) {
            for r in 0 ..< chunk.count { texts.append(chunk.string(chunk.columns[1][r])) }
            for issue in chunk.issues { issues[chunk.firstRecord + issue.row, default: []].append(issue) }
        }
        try reader.finish()
        return (texts, issues)
    }

    @Test("Python's decimals, written 1.234,5 or 1,234.5, and their mutations: read as Python's re and decimal say",
          arguments: [CSVDecimalComma.Style.decimalComma, .thousandsComma])
    func numbers(style: CSVDecimalComma.Style) throws {
        let (cases, expected) = try CSVColumnRewriteTests.numberCases(style, seed: style == .decimalComma ? 15 : 16)
        var formats = ValueFormats()
        if style == .decimalComma { formats.decimalComma = ["v"] } else { formats.thousandsComma = ["v"] }
        let (texts, issues) = try Self.read(cases.map { $0["text"] ?? "" }, formats)
        #expect(texts.count == cases.count)
        var points = 0
        for (i, (c, want)) in zip(cases, expected).enumerated() where i < texts.count {
            let text = c["text"] ?? ""
            let read = texts[i] ?? ""
            let point = issues[i]?.contains { $0.ruleID == XMLReader.decimalPointRule.id && $0.value == text } ?? false
            switch want["kind"] {
            case "rewritten"?:
                let exact = ExactDecimal(read.hasPrefix("+") ? String(read.dropFirst()) : read)
                #expect(exact != nil && exact == want["value"].flatMap(ExactDecimal.init), "'\(text)' → '\(read)', want \(want)")
            case "point"?:
                points += 1
                #expect(read == text && point, "'\(text)' → '\(read)', issues \(issues[i] ?? [])")
            default:
                #expect(read == text && !point, "'\(text)' → '\(read)'")
            }
        }
        #expect(style == .thousandsComma || points > 100, "\(points) with a point")
        #expect(issues.values.joined().allSatisfy { !$0.excludesRecord && $0.parameters["column"] == "v" })
    }

    @Test("Dates and date-times that Python writes in each format read as its ISO text; what it refuses is left as written",
          arguments: [true, false])
    func dates(withTimes: Bool) throws {
        let python = try #require(CSVGenerated.python, "needs python3")
        let made = try ChildProcess.run([python, "-c", withTimes ? CSVColumnRewriteTests.dateTimes : CSVColumnRewriteTests.dates,
                                         withTimes ? "39" : "19"])
        try #require(made.status == 0, "\(made)")
        let cases = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: Any]])
        var valid = 0
        for (name, group) in Dictionary(grouping: cases, by: { $0["format"] as? String ?? "" }) {
            var formats = ValueFormats()
            formats.dateFormats = ["v": try #require(CSVDateFormat(name))]
            let (texts, _) = try Self.read(group.map { $0["text"] as? String ?? "" }, formats)
            #expect(texts.count == group.count)
            for (c, read) in zip(group, texts) {
                let text = c["text"] as? String ?? ""
                let iso = c["iso"] as? String
                if iso != nil { valid += 1 }
                #expect(read == (iso ?? text), "\(name) '\(text)' → '\(read ?? "nil")', Python: \(iso ?? "refused")")
            }
        }
        #expect(valid > (withTimes ? 1500 : 3000), "\(valid) read")
    }

    @Test("A field read with an option never changes another field that reads the same element")
    func sharedText() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-xml-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("t.xml").path
        try Data("<d><r v=\"2,5\" w=\"1.2.2024\"><a>1.234,50</a><b>31.12.2024</b></r><r v=\"3\" w=\"x\"><a>7,5</a><b>1.2.2024</b></r></d>\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        var options = XMLReaderOptions(record: "/d/r", fields: ["rawA": "a", "rawB": "b", "all": ".", "v": "@v", "rawV": "@v",
                                                                "w": "@w", "rawW": "@w"])
        options.formats.decimalComma = ["a", "v"]
        options.formats.dateFormats = ["b": try #require(CSVDateFormat("D.M.YYYY")), "w": try #require(CSVDateFormat("D.M.YYYY"))]
        let reader = try XMLReader(path: file, fields: ["a", "rawA", "b", "rawB", "all", "v", "rawV", "w", "rawW"], options: options)
        let chunk = try #require(try reader.nextChunk(maxRecords: 10))
        let rows = (0 ..< chunk.count).map { r in chunk.columns.map { chunk.string($0[r]) ?? "nil" } }
        #expect(rows == [["1234.50", "1.234,50", "2024-12-31", "31.12.2024", "1.234,5031.12.2024", "2.5", "2,5", "2024-02-01", "1.2.2024"],
                         ["7.5", "7,5", "2024-02-01", "1.2.2024", "7,51.2.2024", "3", "3", "x", "x"]], "\(rows)")
    }

    @Test("The options are checked as a csv: block's are, and a name that no rule reads is found at its line")
    func options() throws {
        let yaml = """
            record: r
            decimalComma: [price]
            thousandsComma: [price, total]
            dateFormat: { total: DD.MM.YYYY, born: DD.MM.YY }
            """
        let (options, diagnostics) = XMLReaderOptions.decode(try YAMLLoader.load(yaml, file: "x.yml"))
        #expect(options == nil)
        let messages = diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("'price' is in both decimalComma and thousandsComma") }, "\(messages)")
        #expect(messages.contains { $0.contains("'total' is in both thousandsComma and dateFormat") }, "\(messages)")
        #expect(messages.contains { $0.contains("dateFormat of 'born' must be") && $0.contains("got 'DD.MM.YY'") }, "\(messages)")

        let list = try YAMLLoader.load("record: r\nfields: { price: { path: p, as: list } }\ndecimalComma: [price]", file: "l.yml")
        #expect(XMLReaderOptions.decode(list).diagnostics.map(\.description)
            == ["l.yml:3:15: decimalComma names 'price', which is read as a list (as: list); decimalComma reads a single value"])

        // A name that no entity reads is the plan's to refuse (below); a reader skips one that another entity reads.
        let typo = XMLReaderOptions.decode(try YAMLLoader.load("record: r\ndecimalComma: [prize]", file: "t.yml")).options
        #expect(try #require(typo).problems(reading: ["id", "v", "price"], displayPath: "t.xml").map(\.description)
            == ["t.yml:2:15: decimalComma names 'prize', which is no field that the rules read from 't.xml'; did you mean 'price'? "
                + "(the fields read: id, price, v)"])
        #expect(try #require(typo).problems(reading: ["prize"], displayPath: "t.xml").isEmpty)
        var formats = ValueFormats()
        formats.decimalComma = ["prize"]
        #expect(try Self.read(["1,5"], formats).texts == ["1,5"])
    }
}
