#if Spark
import Foundation
import TestSupport
import Testing

/// JSON Lines read by Spark (`files:`, `format: json`): every value keeps the text the file
/// wrote (Spark's `primitivesAsString`, which the reader sets unless `options:` say how to
/// type the values), so decimals and integers past 2^53 are compared exactly, as the JSON Lines
/// reader compares them. Left to Spark's inference, `9007199254740993` was a DOUBLE
/// `9007199254740992.0` and `0.1` a double above `max: 0.1`.
@Suite("JSON files through Spark: the JSON Lines reader's report", .enabled(if: SparkTestServer.available, SparkTestServer.skipReason))
struct SparkJSONFilesTests {
    /// `make.py OUT SEED`: 3,000 lines in `id` order; numbers in plain notation (an exponent
    /// is a number to the JSON Lines reader and text to Spark's `primitivesAsString`). `x` has
    /// only numbers, which Spark's inference would make a DOUBLE; `n` mixes in text.
    static let generator = #"""
        import json, random, sys
        rng = random.Random(int(sys.argv[2]))
        def number():
            return rng.choice(["0.1", "0.10", "99.995", "99.994999999999999999", "-0", "12.50", "100", "-12.000",
                               "9007199254740993", "-9007199254740993", "123456789012345678901234567890",
                               "0.30000000000000004", str(rng.randint(-10**6, 10**6)) + "." + str(rng.randint(0, 999)),
                               '"12"', '"1e3"', "null", "true", '""'])
        with open(sys.argv[1], "w") as f:
            for i in range(1, 3001):
                key = i if rng.random() > 0.01 else i - 1
                fields = ['"id": %d' % key, '"n": %s' % number(), '"big": %s' % rng.choice(["9007199254740993", "9007199254740992", "-1", str(rng.randint(0, 2**63 - 1)), "18446744073709551615"]),
                          '"x": %s' % rng.choice(["0.1", "0.10", "0.09999999999999999", "0.1000000000000000000001", "9007199254740993", "-0", "0.30000000000000004", str(rng.randint(-10**6, 10**6)) + "." + str(rng.randint(0, 999))]),
                          '"b": %s' % rng.choice(["true", "false", "1", "0", '"true"', "null"]),
                          '"s": %s' % rng.choice([json.dumps(t) for t in ["", "a", "Zoë", "日本語", "x" * 40, "tab\there", "ab c"]] + ["null", "42"]),
                          '"d": "%s"' % rng.choice(["2024-02-29", "2023-02-29", "2024-13-01", "1999-12-31", "2024-1-01"])]
                if rng.random() < 0.05:
                    fields.pop(rng.randrange(1, len(fields)))
                f.write("{" + ", ".join(fields) + "}\n")
        """#

    static let rules = SameFileThroughSpark.rules("""
            attributes:
              id:  { type: integer, required: true, unique: true }
              n:   { type: decimal, required: true, min: -12, max: 99.995, exclusiveMax: 0.1 }
              big: { type: integer, min: 0, max: 9007199254740992 }
              x:   { type: decimal, max: 0.1 }
              b:   { type: boolean, required: true }
              s:   { type: string, minLength: 1, maxLength: 8 }
              d:   { type: date, min: "2000-01-01" }
            rules:
              - id: row.flagged
                when: b
                assert: n > 0 or big > 9007199254740992

        """)

    @Test("the same counts and samples from the JSON Lines reader and from Spark's json files, streamed and pushed down", arguments: [1, 2])
    func sameReport(seed: Int) async throws {
        // That reader's own structural rules (jsonl.line.malformed…) have no Spark counterpart.
        // Samples are compared by record: it shows a number in its plain form (`12.5`), Spark's
        // text is as written (`12.50`).
        let violations = try await SameFileThroughSpark.compare(file: "t.jsonl", format: "json", python: "python3", generator: Self.generator,
                                                                rules: Self.rules, seed: seed, reader: "JSON Lines", keysOnly: true,
                                                                readerRules: "jsonl.")
        for id in ["Row.n.max", "Row.n.exclusiveMax", "Row.x.max", "Row.big.max", "Row.b.type", "row.flagged", "Row.id.unique"] {
            #expect((violations[id] ?? 0) > 0, "\(id): \(violations)")
        }
    }
}
#endif
