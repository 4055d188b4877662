import Auditor
import Foundation
import TestSupport
@_spi(Testing) @testable import AuditorReaders
import Testing

/// Random JSON Lines against Python's `json` module (standard library only): the same lines
/// are objects, the same values (numbers by value), the same problems.
@Suite("JSON Lines reader against Python's json", .enabled(if: JSONLTest.python3 != nil, "skipped, not passed: needs /usr/bin/python3 or /usr/local/bin/python3"))
struct JSONLDifferentialTests {
    /// Reads the file as Python's `json` does and prints `[[line, kind, a, b], ...]` with kind
    /// ok, malformed, encoding or duplicate, and values rendered as the reader's `string(_:)`.
    static let script = #"""
import json, sys, decimal
from decimal import Decimal
decimal.getcontext().prec = 2000   # exact: normalize() rounds to the context's precision
class Dup(Exception): pass
def hook(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)): raise Dup()
    return dict(pairs)
def reject(c): raise ValueError(c)
def surrogates(v):
    if isinstance(v, str): return any(0xD800 <= ord(ch) <= 0xDFFF for ch in v)
    if isinstance(v, list): return any(surrogates(x) for x in v)
    if isinstance(v, dict): return any(surrogates(k) or surrogates(x) for k, x in v.items())
    return False
def number(d):
    if d == d.to_integral_value() and -2**63 <= int(d) < 2**63: return str(int(d))
    return format(d.normalize(), "f")
def render(v, inner=False):
    if v is None: return "null" if inner else None
    if v is True: return "true"
    if v is False: return "false"
    if isinstance(v, Decimal): return number(v)
    if isinstance(v, str): return v
    if isinstance(v, list): return "[" + ", ".join(render(x, True) for x in v) + "]"
    return "{" + ", ".join(k + ": " + render(x, True) for k, x in v.items()) + "}"
lines = open(sys.argv[1], "rb").read().split(b"\n")
if lines and lines[-1] == b"": lines.pop()
out = []
for n, raw in enumerate(lines, 1):
    if not raw.strip(b" \t\r"): continue
    try: text = raw.decode("utf-8")
    except UnicodeDecodeError:
        out.append([n, "encoding", None, None]); continue
    try: obj = json.loads(text, object_pairs_hook=hook, parse_float=Decimal, parse_int=Decimal, parse_constant=reject)
    except Dup:
        out.append([n, "duplicate", None, None]); continue
    except ValueError:
        out.append([n, "malformed", None, None]); continue
    if not isinstance(obj, dict):
        out.append([n, "malformed", None, None]); continue
    if surrogates(obj):
        out.append([n, "encoding", None, None]); continue
    out.append([n, "ok", render(obj.get("a")), render(obj.get("b"))])
print(json.dumps(out, ensure_ascii=True))
"""#

    /// Random lines: objects with keys a, b, c holding values of every shape, one fault in some.
    static func document(seed: UInt64, lines: Int) -> [UInt8] {
        var g = SplitMix64(state: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0 ..< items.count, using: &g)] }
        func chance(_ n: Int) -> Bool { Int.random(in: 0 ..< n, using: &g) == 0 }
        let pieces = ["a", "Zoë", "😀", " ", "x,y", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\b"#, #"\u00e9"#, #"\u0041"#,
                      #"\ud83d\ude00"#, #"\u20AC"#, #"\u0000"#, "{", "]", ":"]
        func string() -> String { "\"" + (0 ..< Int.random(in: 0 ... 4, using: &g)).map { _ in pick(pieces) }.joined() + "\"" }
        func number() -> String {
            let mantissa = pick(["0", "7", "12", "-3", "250", "1000", "9223372036854775807", "-9223372036854775808",
                                 "9223372036854775808", "12345678901234567890123", "-0"])
            let fraction = chance(2) ? "" : "." + pick(["0", "5", "25", "000", "10", "0001", "999999999999999999"])
            let exponent = chance(2) ? "" : pick(["e", "E"]) + pick(["", "+", "-"]) + pick(["0", "1", "2", "3", "17", "30"])
            return mantissa + fraction + exponent
        }
        func value(_ depth: Int, composite: Bool) -> String {
            switch Int.random(in: 0 ..< (composite && depth < 3 ? 8 : 6), using: &g) {
            case 0, 1: return string()
            case 2, 3: return number()
            case 4: return pick(["true", "false"])
            case 5: return "null"
            case 6: return "[" + (0 ..< Int.random(in: 0 ... 3, using: &g)).map { _ in value(depth + 1, composite: true) }.joined(separator: pick([",", ", "])) + "]"
            default:
                let keys = ["k1", "k2", "k3"].shuffled(using: &g).prefix(Int.random(in: 0 ... 3, using: &g))
                return "{" + keys.map { "\"\($0)\": " + value(depth + 1, composite: true) }.joined(separator: ",") + "}"
            }
        }
        var out = [UInt8]()
        for _ in 0 ..< lines {
            let keys = ["a", "b", "c"].shuffled(using: &g).prefix(Int.random(in: 0 ... 3, using: &g))
            var members = keys.map { "\"\($0)\":" + pick(["", " "]) + value(0, composite: $0 != "c" || chance(3)) }
            var line: [UInt8]
            switch Int.random(in: 0 ..< 14, using: &g) {
            case 0: line = Array(("{" + members.joined(separator: ", ")).utf8)                   // truncated
            case 1: line = Array(("[" + members.joined(separator: ", ") + "]").utf8)             // not an object
            case 2:
                members.append("\"a\": 1")                                                       // duplicate a (when present)
                line = Array(("{" + members.joined(separator: ", ") + "}").utf8)
            case 3: line = Array(("{\"a\": \"x" + pick([#"\ud800"#, #"\udfff"#, #"\ud83d\u0041"#]) + "\"}").utf8)
            case 4: line = Array("{\"b\": \"x".utf8) + pick([[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xB0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]]) + Array("\"}".utf8)
            case 5: line = Array(("{" + members.joined(separator: ", ") + pick([",", " x", "}", "]"]) + "}").utf8)
            case 6: line = Array(("{\"a\": " + pick(["01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "tru", "nul", "0x10", "1_000"]) + "}").utf8)
            case 7: line = Array(pick(["", "   ", "\r", "\t \r"]).utf8)
            default: line = Array(("{" + members.joined(separator: pick([",", ", ", " ,\t"])) + "}" + pick(["", " ", "\r"])).utf8)
            }
            out += line + [10]
        }
        if chance(2), out.last == 10 { out.removeLast() }
        return out
    }

    @Test("Objects, values and problems as Python's json reads them", arguments: [1, 2, 3, 4] as [UInt64])
    func matchesPython(seed: UInt64) throws {
        let python3 = try #require(JSONLTest.python3)
        let bytes = Self.document(seed: seed, lines: 400)
        let path = try JSONLTest.write(bytes)
        defer { JSONLTest.remove(path) }
        let scriptURL = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("ref.py")
        try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run([python3.path, scriptURL.path, path])
        #expect(run.status == 0, "\(run)")
        let expected = try #require(JSONSerialization.jsonObject(with: run.stdout) as? [[Any]])

        let reader = try JSONLTest.reader(path, fields: ["a", "b"])
        var actual = [[String]]()
        while let chunk = try reader.nextChunk(maxRecords: 97) {
            for row in 0 ..< chunk.count {
                let kind: String
                switch chunk.issues.first(where: { $0.row == row })?.ruleID {
                case nil: kind = "ok"
                case "jsonl.line.malformed"?: kind = "malformed"
                case "jsonl.encoding"?: kind = "encoding"
                case "jsonl.key.duplicate"?: kind = "duplicate"
                case let other?: kind = other
                }
                actual.append([String(chunk.locations[row]), kind] + chunk.columns.map { chunk.string($0[row]) ?? "<nil>" })
            }
        }
        let reference = expected.map { item in
            [String(describing: item[0]), String(describing: item[1])] + item[2...].map { ($0 as? String) ?? "<nil>" }
        }
        #expect(actual.count == reference.count)
        for (a, r) in zip(actual, reference) where a != r {
            Issue.record("line \(r[0]): reader \(a), Python \(r)")
        }
        #expect(actual.filter { $0[1] == "ok" }.count > 100, "enough valid lines to compare values")
    }
}
