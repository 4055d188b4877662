import Testing
@testable import Auditor

/// Issue 13 §6: numbers and date-times are compared exactly, not as binary64 doubles or
/// whole seconds. Each case below gave the wrong answer before.
@Suite("Exact values")
struct ExactValueTests {
    /// Audits one attribute per rule over the given column values; returns the rows (0-based)
    /// that violate each rule id.
    static func violations(_ attributes: String, _ values: [String: [String?]]) throws -> [String: [Int]] {
        let names = values.keys.sorted()
        let count = values.values.first?.count ?? 0
        let rows = (0 ..< count).map { r in [String(r)] + names.map { values[$0]?[r] ?? nil } }
        let yaml = """
            version: 1
            sources:
              t: { path: t.mem }
            entities:
              T:
                source: t
                key: [k]
                idPrefix: t
                attributes:
                  k: string
            \(attributes.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
            """
        let r = try audit(yaml, fields: ["k"] + names, rows: rows, chunkSize: 7, maxSamples: 1_000_000)
        var out = [String: [Int]]()
        for rule in r.report.rules where rule.violations > 0 {
            out[rule.id] = rule.samples.compactMap { $0.key.flatMap { Int($0.dropFirst(2)) } }.sorted()
        }
        return out
    }

    @Test func decimalsBelowABoundByLessThanADoubleCanTell() throws {
        let v = try Self.violations("""
            a: { type: decimal, min: 1 }
            b: { type: decimal, min: 100, max: { value: 100, id: t.b.max100 } }
            c: { type: decimal, max: 100 }
            """, ["a": ["0.9999999999999999", "1", "1.0000000000000000000", "0.99999999999999999999999"],
                  "b": ["99.99999999999999", "100", "100.00", "100.0000000000000001"],
                  "c": ["100.000000000000000001", "100", "99.999999999999999999", "100.0"]])
        #expect(v["t.a.min"] == [0, 3])
        #expect(v["t.b.min"] == [0])             // 99.99999999999999 passes max: 100, fails min: 100
        #expect(v["t.b.max100"] == [3])
        #expect(v["t.c.max"] == [0])
    }

    @Test func decimalUniquenessIsNumericAndExact() throws {
        let v = try Self.violations("u: { type: decimal, unique: true }", [
            "u": ["0.1", "0.10000000000000001", "1.0", "1.00", "1", "-0", "0.000", "0.10000000000000001",
                  "12345678901234567890.5", "12345678901234567890.50", "12345678901234567890.49"],
        ])
        // 0.10000000000000001 is not 0.1 (one binary64 double); 1.0 = 1.00 = 1; -0 = 0.000.
        #expect(v["t.u.unique"] == [3, 4, 6, 7, 9])
    }

    @Test func integersCompareExactlyPast2To53AndPastInt64() throws {
        let v = try Self.violations("""
            i: { type: integer, max: 9007199254740992 }
            j: { type: integer, min: -99999999999999999999999999999999999999999, max: 99999999999999999999999999999999999999999 }
            """, ["i": ["9007199254740993", "9007199254740992", "9223372036854775808", "-9223372036854775809"],
                  "j": ["100000000000000000000000000000000000000000", "99999999999999999999999999999999999999999",
                        "-100000000000000000000000000000000000000000", "9223372036854775807"]])
        #expect(v["t.i.max"] == [0, 2])
        #expect(v["t.j.min"] == [2])
        #expect(v["t.j.max"] == [0])
    }

    @Test func integerUniquenessPastInt64DoesNotSaturate() throws {
        let v = try Self.violations("u: { type: integer, unique: true }", [
            "u": ["9223372036854775808", "9223372036854775809", "-9223372036854775808", "-9223372036854775809",
                  "0009223372036854775809", "9007199254740993", "9007199254740992"],
        ])
        #expect(v["t.u.unique"] == [4])
    }

    @Test func dateTimeFractionsCountForBoundsAndUniqueness() throws {
        let v = try Self.violations("""
            t: { type: datetime, max: "2024-01-01T00:00:00Z", exclusiveMin: "2023-12-31T23:59:59.25Z" }
            u: { type: datetime, unique: true }
            """, ["t": ["2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000Z",
                        "2023-12-31T23:59:59.25Z", "2023-12-31T23:59:59.250000000001Z", "2024-01-01T01:00:00.5+01:00"],
                  "u": ["2024-01-01T00:00:00.100Z", "2024-01-01T00:00:00.500Z", "2024-01-01T00:00:00.900Z",
                        "2024-01-01T00:00:00.1Z", "2024-01-01T01:00:00.9+01:00", "2024-01-01T00:00:00Z"]])
        #expect(v["t.t.max"] == [0, 5])      // 01:00:00.5+01:00 is 00:00:00.5Z
        #expect(v["t.t.exclusiveMin"] == [3])
        #expect(v["t.u.unique"] == [3, 4])
    }

    @Test func enumAndIntegralAreExact() throws {
        let v = try Self.violations("""
            e: { type: decimal, enum: ["0.1", "2.50", "12345678901234567890.1"] }
            w: { type: decimal, integral: true }
            """, ["e": ["0.10000000000000001", "0.1000", "2.5", "12345678901234567890.10", "12345678901234567890.2"],
                  "w": ["1.0000000000000000001", "100000000000000000000000.0", "2.000", "0.5", "9007199254740993.00"]])
        #expect(v["t.e.enum"] == [0, 4])
        #expect(v["t.w.integral"] == [0, 3])
    }

    /// Expressions compute with doubles: a value a double cannot hold is skipped (and
    /// counted), never compared rounded; `number(…)` gives null for it.
    @Test func expressionsSkipNumbersADoubleCannotHold() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              T:
                key: [k]
                attributes: { k: string, i: integer, d: decimal, s: string }
                rules:
                  - id: t.i
                    assert: i <= 9007199254740992
                  - id: t.d
                    assert: d < 0.1
                  - id: t.s
                    assert: isNull(number(s)) or number(s) < 1
            """
        let rows: [[String?]] = [
            ["0", "9007199254740993", "0.10000000000000001", "0.99999999999999999"],   // all skipped / null
            ["1", "9007199254740992", "0.1", "1.000000000000000000"],                   // i, d pass; s = 1 fails
            ["2", "-12", "0.09999999999999", "0.5"],
        ]
        let r = try audit(yaml, fields: ["k", "i", "d", "s"], rows: rows, maxSamples: 100)
        let rules = Dictionary(uniqueKeysWithValues: r.report.rules.map { ($0.id, $0) })
        #expect(rules["t.i"]?.violations == 0 && rules["t.i"]?.skipped == 1 && rules["t.i"]?.evaluated == 2)
        #expect(rules["t.d"]?.violations == 1 && rules["t.d"]?.skipped == 1)
        #expect(rules["t.s"]?.violations == 1 && rules["t.s"]?.samples.first?.key == "k=1")
    }

    @Test func exactDecimalCanonicalForm() throws {
        #expect(ExactDecimal("012.500")?.description == "12.5")
        #expect(ExactDecimal("-0.000")?.description == "0")
        #expect(ExactDecimal("0.00120")?.description == "0.0012")
        #expect(ExactDecimal("1000")?.description == "1000")
        #expect(ExactDecimal("1.") == nil && ExactDecimal(".5") == nil && ExactDecimal("1e5") == nil && ExactDecimal("-") == nil)
        #expect(ExactDecimal(0.1)?.description == "0.1")
        #expect(ExactDecimal(1e-5)?.description == "0.00001")
        #expect(ExactDecimal(1.5e20)?.description == "150000000000000000000")
        #expect(ExactDecimal(Int64.min).description == "-9223372036854775808")
        #expect(ExactDecimal("0.1")?.shortDouble == 0.1)
        #expect(ExactDecimal("0.10000000000000001")?.shortDouble == nil)
    }
}
