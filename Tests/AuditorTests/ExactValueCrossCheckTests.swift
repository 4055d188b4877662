import Foundation
import Testing
@testable import Auditor

/// Bounds and uniqueness of decimals, integers and date-times against Python's `decimal` and
/// `datetime` on generated values (seeded): every row the auditor flags, and only those.
@Suite("Exact values cross-check with Python", .enabled(if: PythonOracle.path != nil, "needs python3"))
struct ExactValueCrossCheckTests {
    struct Input: Codable {
        var kind: String             // decimal, integer or datetime
        var values: [String]
        var bounds: [[String]]       // [constraint, text]
    }

    struct Output: Codable {
        var bounds: [[Int]]          // violating rows per bound
        var duplicates: [Int]        // rows whose value appeared before
    }

    static let script = """
        import json, re, sys
        from datetime import datetime, timezone
        from decimal import Decimal, getcontext
        getcontext().prec = 1000
        epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
        def value(kind, text):
            if kind != "datetime":
                return Decimal(text)
            whole, frac, zone = re.fullmatch(r"(.{19})(?:\\.([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2})", text).groups()
            d = datetime.fromisoformat(whole + ("+00:00" if zone == "Z" else zone)) - epoch
            return Decimal(d.days * 86400 + d.seconds) + Decimal("0." + (frac or "0"))
        data = json.load(sys.stdin)
        values = [value(data["kind"], v) for v in data["values"]]
        tests = {"min": lambda v, b: v < b, "max": lambda v, b: v > b,
                 "exclusiveMin": lambda v, b: v <= b, "exclusiveMax": lambda v, b: v >= b}
        bounds = []
        for kind, text in data["bounds"]:
            b = value(data["kind"], text)
            bounds.append([i for i, v in enumerate(values) if tests[kind](v, b)])
        seen, duplicates = set(), []
        for i, v in enumerate(values):
            if v in seen: duplicates.append(i)
            seen.add(v)
        json.dump({"bounds": bounds, "duplicates": duplicates}, sys.stdout)
        """

    /// Audits `values` (one per record) against every bound and `unique`, and compares the
    /// flagged rows with Python's.
    static func check(kind: String, values: [String], bounds: [(String, String)]) throws {
        let expected = try PythonOracle.run(script, input: Input(kind: kind, values: values, bounds: bounds.map { [$0.0, $0.1] }),
                                            as: Output.self)
        var attributes = bounds.enumerated().map { "b\($0.offset): { type: \(kind), \($0.element.0): \"\($0.element.1)\" }" }
        attributes.append("u: { type: \(kind), unique: true }")
        var columns = [String: [String?]]()
        for b in bounds.indices { columns["b\(b)"] = values }
        columns["u"] = values
        let flagged = try ExactValueTests.violations(attributes.joined(separator: "\n"), columns)
        for (b, bound) in bounds.enumerated() {
            let rule = "t.b\(b).\(bound.0)"
            let actual = flagged[rule] ?? []
            #expect(actual == expected.bounds[b], "\(kind) \(bound.0): \(bound.1): auditor \(Set(actual).subtracting(expected.bounds[b]).map { values[$0] }), python \(Set(expected.bounds[b]).subtracting(actual).map { values[$0] })")
        }
        let duplicates = flagged["t.u.unique"] ?? []
        #expect(duplicates == expected.duplicates, "\(kind) unique: auditor \(Set(duplicates).symmetricDifference(expected.duplicates).map { values[$0] })")
        #expect(!expected.duplicates.isEmpty && expected.bounds.allSatisfy { !$0.isEmpty && $0.count < values.count })
    }

    /// Digits `count` long, from a few families that make near-ties likely.
    static func digits(_ count: Int, _ random: inout SplitMix64) -> String {
        switch Int.random(in: 0 ..< 4, using: &random) {
        case 0: return String(repeating: "9", count: count)
        case 1: return count == 0 ? "" : "1" + String(repeating: "0", count: count - 1)
        case 2: return count == 0 ? "" : String(repeating: "0", count: count - 1) + "1"
        default: return String((0 ..< count).map { _ in Character(String(Int.random(in: 0 ... 9, using: &random))) })
        }
    }

    /// A decimal text near one of `anchors`: the anchor, with zeros added, digits appended, or
    /// the last digit moved; or a fresh one of 1 to 30 digits.
    static func decimal(_ anchors: [String], integer: Bool, _ random: inout SplitMix64) -> String {
        var text: String
        if let anchor = anchors.randomElement(using: &random), Int.random(in: 0 ..< 4, using: &random) > 0 {
            text = anchor
            switch Int.random(in: 0 ..< 5, using: &random) {
            case 0: break
            case 1: text = integer ? "00" + text.drop { $0 == "-" } : (text.contains(".") ? text : text + ".") + "000"
            case 2: text += integer ? digits(Int.random(in: 0 ... 3, using: &random), &random)
                : (text.contains(".") ? "" : ".") + digits(Int.random(in: 1 ... 20, using: &random), &random)
            case 3:
                if let last = text.last?.wholeNumberValue {
                    text = String(text.dropLast()) + String((last + Int.random(in: 1 ... 9, using: &random)) % 10)
                }
            default: if !text.hasPrefix("-") { text = "-" + text }
            }
            if text.hasPrefix("-00") { text = "-" + text.dropFirst(3) }
            if text.hasSuffix(".") { text += "0" }
        } else {
            text = String(Int.random(in: 1 ... 9, using: &random)) + digits(Int.random(in: 0 ... 25, using: &random), &random)
            if !integer, Bool.random(using: &random) { text += "." + digits(Int.random(in: 1 ... 20, using: &random), &random) }
            if Bool.random(using: &random) { text = "-" + text }
        }
        return text
    }

    @Test func decimalsAgreeWithPythonDecimal() throws {
        var random = SplitMix64(state: 6_202_611)
        let anchors = ["1", "0.1", "100", "99.99999999999999", "0.9999999999999999", "9007199254740992", "12.5",
                       "123456789012345678901234567890.000000000000000000001", "0.30000000000000004", "-7.25"]
        let values = (0 ..< 1500).map { _ in Self.decimal(anchors, integer: false, &random) }
        let bounds = [("min", "1"), ("max", "100"), ("exclusiveMin", "0.1"), ("exclusiveMax", "99.99999999999999"),
                      ("min", "0.9999999999999999"), ("max", "9007199254740992.5"),
                      ("min", "123456789012345678901234567890"), ("exclusiveMax", "0.30000000000000004")]
        try Self.check(kind: "decimal", values: values, bounds: bounds)
    }

    @Test func integersAgreeWithPythonIntegers() throws {
        var random = SplitMix64(state: 2_053)
        let anchors = ["9007199254740992", "9007199254740993", "9223372036854775807", "9223372036854775808",
                       "-9223372036854775808", "999999999999999", "1000000000000000", "0", "42",
                       "123456789012345678901234567890123456789"]
        let values = (0 ..< 1500).map { _ in Self.decimal(anchors, integer: true, &random) }
        let bounds = [("max", "9007199254740992"), ("min", "-9223372036854775808"), ("exclusiveMax", "9223372036854775807"),
                      ("min", "1000000000000000"), ("max", "123456789012345678901234567890123456789"),
                      ("exclusiveMin", "41.5"), ("max", "999999999999999.0000000001")]
        try Self.check(kind: "integer", values: values, bounds: bounds)
    }

    @Test func dateTimesAgreeWithPythonDatetime() throws {
        var random = SplitMix64(state: 1_970)
        let instants = ["2024-01-01T00:00:00", "2023-12-31T23:59:59", "1969-12-31T23:59:59", "2000-02-29T12:30:00"]
        func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        let values: [String] = (0 ..< 1200).map { _ in
            var text = instants.randomElement(using: &random) ?? instants[0]
            let fraction = Int.random(in: 0 ..< 4, using: &random)
            if fraction > 0 {
                text += "." + ["5", "50", "500000000", "1", "100", "9", "900", "000", "25", "250000000001", "4999999999"][Int.random(in: 0 ..< 11, using: &random)]
                if fraction == 3 { text += String(repeating: "0", count: Int.random(in: 0 ... 4, using: &random)) }
            }
            switch Int.random(in: 0 ..< 3, using: &random) {
            case 0: text += "Z"
            case 1: text += "+00:00"
            default:
                // Shift the wall clock by one hour and say so in the offset: the same instant.
                let hour = Int(text.dropFirst(11).prefix(2)) ?? 0
                if hour < 23 {
                    text = String(text.prefix(11)) + pad(hour + 1) + text.dropFirst(13) + "+01:00"
                } else {
                    text += "Z"
                }
            }
            return text
        }
        let bounds = [("max", "2024-01-01T00:00:00Z"), ("min", "2023-12-31T23:59:59.5Z"),
                      ("exclusiveMax", "2000-02-29T12:30:00.25Z"), ("exclusiveMin", "1969-12-31T23:59:59.9Z"),
                      ("max", "2024-01-01T01:00:00.4999999999+01:00")]
        try Self.check(kind: "datetime", values: values, bounds: bounds)
    }
}
