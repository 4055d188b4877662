import Auditor
import Foundation
@_spi(Testing) @testable import AuditorReaders
import Testing

/// The hostile inputs every reader gets (issue 15 "Bad input"): each ends in a located finding
/// or error, never a crash, a hang or a write.
@Suite("JSON Lines reader: hostile input")
struct JSONLHostileTests {
    static func firstIssue(_ bytes: [UInt8], fields: [String] = ["a"]) throws -> (count: Int, issue: RecordIssue?, chunk: RecordChunk?) {
        let path = try JSONLTest.write(bytes)
        defer { JSONLTest.remove(path) }
        let reader = try JSONLTest.reader(path, fields: fields)
        var chunks = [RecordChunk]()
        while let chunk = try reader.nextChunk(maxRecords: 4096) { chunks.append(chunk) }
        try reader.finish()
        return (chunks.reduce(0) { $0 + $1.count }, chunks.first?.issues.first, chunks.first)
    }

    @Test("100,000 nested brackets: a finding at the depth limit, not a stack overflow",
          arguments: ["", "{\"a\": ", "{\"z\": ", "{\"a\": {\"k\": "])
    func deepNesting(_ prefix: String) throws {
        let bytes = Array(prefix.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
            + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000) + Array("}\n{\"a\": 1}\n".utf8)
        let result = try Self.firstIssue(bytes)
        #expect(result.count == 2)
        let issue = try #require(result.issue)
        #expect(issue.ruleID == "jsonl.line.malformed")
        if !prefix.isEmpty {
            #expect(issue.parameters["reason"] == "arrays and objects nest deeper than 512 levels")
        }
    }

    @Test("Nesting up to the limit is read")
    func nestingAtTheLimit() throws {
        let depth = JSONLLineParser.maxDepth - 1  // the record object is level 1
        let line = "{\"a\": " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(JSONLTest.parse(line).problem == nil)
    }

    @Test("A 50 MB string is read whole, in a field and in a skipped key")
    func hugeString() throws {
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 50 << 20)
        let bytes = Array("{\"z\": \"".utf8) + big + Array("\", \"a\": \"".utf8) + big + Array("\"}\n".utf8)
        let result = try Self.firstIssue(bytes)
        #expect(result.count == 1 && result.issue == nil)
        let cell = try #require(result.chunk?.columns[0][0])
        #expect(cell.tag == .text && Int(cell.length) == 50 << 20)
    }

    @Test("A truncated last line without a line feed is a finding at its line")
    func truncatedLastLine() throws {
        let path = try JSONLTest.write("{\"a\": 1}\n{\"a\": \"tru")
        defer { JSONLTest.remove(path) }
        let outcome = JSONLTest.outcome({ try JSONLTest.reader(path, fields: ["a"]) })
        #expect(outcome == #"""
            #0 @1 ["1"] []
            #1 @2 ["nil"] ["jsonl.line.malformed[\"column=7\", \"reason=the string that starts here is never closed: the line ends inside it\"]"]
            end
            """#)
    }

    @Test("NUL bytes, invalid UTF-8 and a misplaced byte order mark are findings",
          arguments: [
            (Array("{\"a\": 1}".utf8) + [0], "jsonl.line.malformed"),
            (Array("{\"a\": \"x".utf8) + [0] + Array("\"}".utf8), "jsonl.line.malformed"),
            ([0], "jsonl.line.malformed"),
            (Array("{\"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8), "jsonl.encoding"),
            (Array("{\"z\": \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"}".utf8), "jsonl.encoding"),
            (Array("{\"a\": \"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"}".utf8), "jsonl.encoding"),
            (Array("{\"a\": \"".utf8) + [0xE2, 0x82] + Array("\"}".utf8), "jsonl.encoding"),
            (Array("{\"a\": 1, ".utf8) + [0xFF] + Array("}".utf8), "jsonl.line.malformed"),
            ([0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8), "jsonl.line.malformed"),
          ] as [([UInt8], String)])
    func badBytes(_ line: [UInt8], _ rule: String) throws {
        let result = try Self.firstIssue(Array("{\"a\": 0}\n".utf8) + line + Array("\n{\"a\": 2}\n".utf8))
        #expect(result.count == 3)
        #expect(result.issue?.ruleID == rule)
        #expect(result.issue?.row == 1)
        #expect(result.chunk?.issues.count == 1)
    }

    @Test("A line longer than the limit ends the input with a located error after the records before it")
    func lineTooLong() throws {
        let text = "{\"a\": 1}\n{\"a\": 2}\n{\"a\": \"" + String(repeating: "y", count: 300) + "\"}\n{\"a\": 4}\n"
        let path = try JSONLTest.write(text)
        defer { JSONLTest.remove(path) }
        for segment in [16, 64, 4096] {
            let outcome = JSONLTest.outcome({ try JSONLTest.reader(path, fields: ["a"], maxLineBytes: 128, segmentBytes: segment) })
            #expect(outcome.hasPrefix("#0 @1 [\"1\"] []\n#1 @2 [\"2\"] []\nerror malformedInput at data.jsonl:3:1: the line that starts here is longer than 128 bytes"),
                    "segment \(segment): \(outcome)")
        }
    }

    @Test("A field that no record has is an error at the end, unless a columns: rule reports it")
    func fieldNeverSeen() throws {
        let path = try JSONLTest.write("{\"a\": 1}\n{\"a\": null, \"c\": 2}\n")
        defer { JSONLTest.remove(path) }
        let strict = JSONLTest.outcome({ try JSONLTest.reader(path, fields: ["a", "b", "c"], missingFieldsAllowed: false) })
        #expect(strict.hasSuffix("end\nerror malformedInput at data.jsonl: no line of 'data.jsonl' has the key 'b' that field 'b' reads; did you mean 'a'? The first line has the keys: a. "
                                + "Check the attribute's name, or map it with 'jsonl: { fields: { b: path.to.key } }'"))
        let reader = try JSONLTest.reader(path, fields: ["a", "b", "c"], missingFieldsAllowed: true)
        while try reader.nextChunk(maxRecords: 10) != nil {}
        try reader.finish()
        #expect(reader.availableFields == ["a", "c"])
    }

    @Test("An empty file has no records and no error; the input is never written")
    func emptyAndUntouched() throws {
        let empty = try JSONLTest.write("")
        defer { JSONLTest.remove(empty) }
        #expect(JSONLTest.outcome({ try JSONLTest.reader(empty, fields: ["a"], missingFieldsAllowed: false) }) == "end")
        let text = "{\"a\": 1}\n[broken\n"
        let path = try JSONLTest.write(text)
        defer { JSONLTest.remove(path) }
        let before = try FileManager.default.attributesOfItem(atPath: path)
        _ = JSONLTest.outcome({ try JSONLTest.reader(path, fields: ["a"]) })
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) == ["data.jsonl"])
    }

    @Test("Without fields, the reader offers the first line's keys (auditor profile)")
    func firstLineKeys() throws {
        let path = try JSONLTest.write("\u{FEFF}\n  \n{\"id\": 1, \"na\\u006de\": \"x\", \"tags\": [1]}\n{\"other\": 2}\n")
        defer { JSONLTest.remove(path) }
        #expect(try JSONLTest.reader(path, fields: []).availableFields == ["id", "name", "tags"])
        let broken = try JSONLTest.write("[1, 2]\n")
        defer { JSONLTest.remove(broken) }
        #expect(try JSONLTest.reader(broken, fields: []).availableFields == [])
    }

    @Test("Random bytes: no crash, and the same outcome for every morsel size and chunk size")
    func randomBytes() throws {
        let alphabet: [[UInt8]] = ["{", "}", "[", "]", "\"", ":", ",", " ", "\n", "\\", "\\u", "d83d", "a", "1", "-", ".", "e",
                                   "true", "null", "\"a\"", "\"b\"", "é", "\r"].map { Array($0.utf8) } + [[0xFF], [0], [0xC3]]
        var g = SplitMix64(state: 99)
        for _ in 0 ..< 150 {
            var bytes = [UInt8]()
            for _ in 0 ..< Int.random(in: 0 ... 300, using: &g) { bytes += alphabet[Int.random(in: 0 ..< alphabet.count, using: &g)] }
            let path = try JSONLTest.write(bytes)
            defer { JSONLTest.remove(path) }
            let reference = JSONLTest.outcome({ try JSONLTest.reader(path, fields: ["a", "b"]) })
            for (segment, chunk) in [(16, 1), (23, 7), (64, 2)] {
                let other = JSONLTest.outcome({ try JSONLTest.reader(path, fields: ["a", "b"], segmentBytes: segment) }, chunkSize: chunk)
                #expect(other == reference, "segment \(segment), chunk \(chunk) on \(bytes)")
            }
        }
    }
}
