import Auditor
import Foundation
@_spi(Testing) @testable import AuditorReaders
import Testing

@Suite("JSON Lines reader")
struct JSONLReaderTests {
    @Test("Conformance: values by name and by path, lists, maps, blank lines, CRLF, BOM, no final line feed")
    func conformance() throws {
        let text = "\u{FEFF}{\"id\": \"1\", \"name\": \"Zoë\", \"address\": {\"city\": \"Köln\"}, \"tags\": [\"a\", 2]}\r\n"
            + "\n   \t\r\n"
            + "{\"id\": 2, \"name\": null, \"address\": {\"zip\": \"1\"}, \"tags\": {\"k\": true}}\n"
            + "{\"name\": \"x\\ty\", \"extra\": [1, {\"deep\": [[]]}]}"
        try JSONLTest.check(text, fields: ["id", "name", "city", "tags"],
                            map: ["city": JSONLOptions.Field(path: ["address", "city"])],
                            expected: [rec(1, "1", "Zoë", "Köln", "[a, 2]"),
                                       rec(4, "2", nil, nil, "{k: true}"),
                                       rec(5, nil, "x\ty", nil, nil)])
    }

    @Test("Numbers are judged by value: integral values in Int64 become integers, others exact plain decimals",
          arguments: [("12", "i12"), ("-0", "i0"), ("12.0", "i12"), ("1e3", "i1000"), ("1.5E1", "i15"),
                      ("12.5", "t12.5"), ("0.10", "t0.1"), ("1e-3", "t0.001"), ("-2.50e-1", "t-0.25"),
                      ("9223372036854775807", "i9223372036854775807"),
                      ("-9223372036854775807", "i-9223372036854775807"),
                      ("-9223372036854775808", "t-9223372036854775808"),
                      ("12345678901234567890", "t12345678901234567890"),
                      ("1.2345678901234567890e19", "t12345678901234567890"),
                      ("0.1e1", "i1"), ("100e-2", "i1"), ("1e400", "t1e400"), ("0e99999999999999999999", "i0")])
    func numbers(_ literal: String, _ expected: String) throws {
        let parsed = JSONLTest.parse("{\"a\": \(literal)}")
        let cell = try #require(parsed.cells.first)
        switch cell.tag {
        case .integer: #expect("i\(cell.integerValue)" == expected)
        case .text:
            let text = String(decoding: parsed.bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)], as: UTF8.self)
            #expect("t\(text)" == expected)
        default: Issue.record("unexpected cell \(cell)")
        }
    }

    @Test("Strings are unescaped UTF-8; true and false are text; null and an absent key are missing, told apart")
    func stringsAndLiterals() throws {
        let parsed = JSONLTest.parse(#"{"a": "q\"b\\s\/ \b\f\n\r\t \u00e9 \ud83d\ude00 \u0000", "c": 1, "b": null}"#, fields: [["a"], ["b"], ["c"], ["d"]])
        let a = try #require(parsed.cells.first)
        #expect(String(decoding: parsed.bytes[Int(a.payload) ..< Int(a.payload) + Int(a.length)], as: UTF8.self)
                == "q\"b\\s/ \u{8}\u{c}\n\r\t é 😀 \u{0}")
        #expect(parsed.cells[1] == .null && parsed.cells[3] == .missing)   // issue 22: null is an explicit null
        #expect(parsed.cells[1].isMissing && !parsed.cells[3].isNull)
        #expect(parsed.presence == [.value, .null, .value, .absent])
        let t = JSONLTest.parse(#"{"a": true, "b": false}"#)
        #expect(t.cells.map(\.tag) == [.text, .text])
        #expect(String(decoding: t.bytes, as: UTF8.self) == "truefalse")
    }

    @Test("A line that is not one JSON object is a finding with its line and column; the reading goes on",
          arguments: [
            (#"[1, 2]"#, "jsonl.line.malformed", "1", "a line must hold one JSON object, not an array"),
            (#"{"a": 1"#, "jsonl.line.malformed", "8", "expected ',' or '}', found the end of the line"),
            (#"{"a": "abc"#, "jsonl.line.malformed", "7", "the string that starts here is never closed: the line ends inside it"),
            (#"{"a": 1} x"#, "jsonl.line.malformed", "10", "unexpected 'x' after the object; a line holds exactly one object"),
            (#"{"a": 01}"#, "jsonl.line.malformed", "8", "expected ',' or '}', found '1'"),
            (#"{"a": NaN}"#, "jsonl.line.malformed", "7", "expected a value, found 'N'"),
            (#"{"a": tru}"#, "jsonl.line.malformed", "7", "expected a value, found 't'"),
            (#"{'a': 1}"#, "jsonl.line.malformed", "2", "expected a key in double quotes, found '''"),
            (#"{"a": "\x"}"#, "jsonl.line.malformed", "8", #"a backslash followed by 'x' is not a JSON escape (\" \\ \/ \b \f \n \r \t \uXXXX)"#),
            ("{\"a\": \"x\u{1}\"}", "jsonl.line.malformed", "9", "the byte 0x01 must be escaped inside a string (a control character)"),
            (#"{"a": "\udc00"}"#, "jsonl.encoding", "8", #"the escape \uDC00 is a lone low surrogate, not a character"#),
            (#"{"a": "\ud83d x"}"#, "jsonl.encoding", "8", #"the escape \uD83D is a high surrogate without its low half, not a character"#),
            (#"{"a": 1, "a": 2}"#, "jsonl.key.duplicate", "10", ""),
            (#"{"a": {"k": 1, "k": 2}}"#, "jsonl.key.duplicate", "16", ""),
          ])
    func malformedLine(_ line: String, _ rule: String, _ column: String, _ reason: String) throws {
        let path = try JSONLTest.write("{\"a\": \"first\"}\n\(line)\n{\"a\": \"last\"}\n")
        defer { JSONLTest.remove(path) }
        let reader = try JSONLTest.reader(path, fields: ["a"])
        let chunk = try #require(try reader.nextChunk(maxRecords: 100))
        #expect(chunk.count == 3)
        #expect(chunk.locations == [1, 2, 3])
        #expect(chunk.string(chunk.columns[0][2]) == "last")
        #expect(chunk.columns[0][1] == .missing)
        let issue = try #require(chunk.issues.first)
        #expect(chunk.issues.count == 1)
        #expect(issue.row == 1 && issue.ruleID == rule && issue.excludesRecord)
        #expect(issue.parameters["column"] == column)
        if !reason.isEmpty { #expect(issue.parameters["reason"] == reason) }
        if rule == "jsonl.key.duplicate" { #expect(issue.parameters["key"] == "a" || issue.parameters["key"] == "k") }
        #expect(issue.value == nil, "no value: the line may hold sensitive fields")
    }

    @Test("A duplicate key that no field reads is not a finding")
    func unreadDuplicate() throws {
        #expect(JSONLTest.parse(#"{"a": 1, "z": 1, "z": 2}"#).problem == nil)
    }

    @Test("Registry: format jsonl for .jsonl and .ndjson; options decode fields, paths and shapes")
    func registryAndOptions() throws {
        let registry = StandardReaders.registry
        #expect(registry.factory(forPath: "x/People.JSONL")?.format == "jsonl")
        #expect(registry.factory(forPath: "people.ndjson")?.format == "jsonl")
        let node = Y.m([("fields", .m([("city", "address.city"), ("tags", .m([("path", "tags"), ("as", "list")])),
                                       ("address", .m([("path", "address"), ("as", "map")]))]))]).node()
        let options = try #require(JSONLOptions.decode(node).options)
        #expect(options.fields["city"] == JSONLOptions.Field(path: ["address", "city"]))
        // A path alone declares no shape (each line's value decides); `as: value` a scalar.
        #expect(options.fieldShapes == ["tags": .list, "address": .map])
        let value = try #require(JSONLOptions.decode(Y.m([("fields", .m([("zip", .m([("path", "zip"), ("as", "value")]))]))]).node()).options)
        #expect(value.fieldShapes == ["zip": .scalar])
        let bad = JSONLOptions.decode(Y.m([("fields", .m([("a", "x..y"), ("b", .m([("path", "b"), ("as", "lsit")]))])),
                                           ("feilds", "x")]).node())
        #expect(bad.options == nil)
        #expect(bad.diagnostics.count == 3)
        #expect(bad.diagnostics.contains { $0.message.contains("'as' must be one of value, list, map; got 'lsit'") })
    }
}
