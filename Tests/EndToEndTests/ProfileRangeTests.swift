import Foundation
import TestSupport
import Testing

/// `auditor profile`'s ranges are exact: integers past 2^53, decimals of 16–30 significant
/// digits and date-times that differ only in their fraction get the smallest and largest value
/// that Python's `int`, `decimal` and a nanosecond clock give, in CSV text and in Parquet typed
/// columns (pyarrow). A column whose only negative value is huge gets no `min: 0`, and the
/// drafted rules fail exactly the flagged outliers. In Parquet, NaN and infinities are text
/// (as Spark and PostgreSQL read them): flagged by `type: decimal`, never in a range.
@Suite("Profile ranges")
struct ProfileRangeTests {
    /// Writes `data.csv` (and `data.parquet` when `parquet`) and `expected.json`: per column,
    /// its type's exact smallest and largest values, as text that Python's `Decimal` reads.
    static let generator = #"""
        import csv, json, random, sys
        from decimal import Decimal, getcontext
        getcontext().prec = 60
        seed, n, parquet, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
        rnd = random.Random(seed)
        E53 = 2 ** 53
        def big():
            k = rnd.randrange(4)
            if k == 0: return rnd.randint(-2**63, 2**63 - 1)
            if k == 1: return rnd.choice([-1, 1]) * (E53 + rnd.randint(-3, 3))
            if k == 2: return rnd.choice([-1, 1]) * (2**62 + rnd.randint(-3, 3))
            return rnd.randint(-1000, 1000)
        def huge_negative_once(i):
            return -(2**60) - rnd.randint(0, 9) if i == n // 2 else rnd.randint(0, 10**6)
        base = Decimal("123456789012345678")
        def dec():      # 16-30 significant digits, many sharing a double
            d = base + Decimal(rnd.randint(-50, 50)) / Decimal(10 ** 12)
            if rnd.random() < 0.1: d = -d
            return d.quantize(Decimal(1) / Decimal(10 ** 12))
        def stamp():    # one second, nanoseconds apart
            return 1_700_000_000 * 10**9 + rnd.choice([0, 1, 2, 999_999_998, 999_999_999, 500_000_000 + rnd.randint(-5, 5)])
        def stamp_text(ns):
            import datetime
            s, f = divmod(ns, 10**9)
            t = datetime.datetime.fromtimestamp(s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
            return t + ("." + f"{f:09d}".rstrip("0") if f else "") + "Z"
        rows = [dict(id=i, big=big(), neg=huge_negative_once(i), dec=dec(), ts=stamp()) for i in range(n)]
        with open(out + "/data.csv", "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "big", "neg", "dec", "ts"])
            for r in rows: w.writerow([r["id"], r["big"], r["neg"], r["dec"], stamp_text(r["ts"])])
        def span(values): return [str(min(values)), str(max(values))]
        expected = {"big": {"integer": span([r["big"] for r in rows])},
                    "neg": {"integer": span([r["neg"] for r in rows])},
                    "dec": {"decimal": span([r["dec"] for r in rows])},
                    "ts": {"datetime": span([Decimal(r["ts"]) / Decimal(10**9) for r in rows])}}
        if parquet:
            import pyarrow as pa, pyarrow.parquet as pq
            bad = {n // 3: float("nan"), n // 3 + 1: float("inf"), n // 3 + 2: float("-inf")}
            flt = [bad.get(i, (i % 97) / 8.0 - 2.0) for i in range(n)]
            table = pa.table({
                "id": pa.array([r["id"] for r in rows], pa.int64()),
                "big": pa.array([r["big"] for r in rows], pa.int64()),
                "neg": pa.array([r["neg"] for r in rows], pa.int64()),
                "dec": pa.array([r["dec"] for r in rows], pa.decimal128(38, 12)),
                "ts": pa.array([r["ts"] for r in rows], pa.timestamp("ns", tz="UTC")),
                "flt": pa.array(flt, pa.float64())})
            pq.write_table(table, out + "/data.parquet", row_group_size=max(1, n // 5))
            finite = [x for x in flt if x == x and abs(x) != float("inf")]
            expected["flt"] = {"decimal": span([Decimal(x) for x in finite]), "nonFinite": len(flt) - len(finite)}
        json.dump(expected, open(out + "/expected.json", "w"))
        """#

    /// Seconds since 1970 of a `YYYY-MM-DDTHH:MM:SS[.f]Z` text, exactly, as `Decimal` text.
    static let instantToDecimal = #"""
        import calendar, json, sys
        from decimal import Decimal
        def exact(t):
            whole, _, frac = t.rstrip("Z").partition(".")
            s = calendar.timegm(__import__("time").strptime(whole, "%Y-%m-%dT%H:%M:%S"))
            return str(Decimal(s) + (Decimal("0." + frac) if frac else 0))
        print(json.dumps([exact(t) for t in json.load(sys.stdin)]))
        """#

    @Test("Ranges equal Python's on CSV text and Parquet columns; the drafted rules fail only the flagged outliers",
          arguments: ["csv", "parquet"])
    func exactRanges(_ format: String) throws {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH").path
        if format == "parquet", PyarrowPython.path == nil { return }     // needs pyarrow (.ci/run's .venv)
        let tmp = try Scratch("profile-range-\(format)")
        defer { tmp.remove() }
        let generator = format == "parquet" ? PyarrowPython.path ?? python : python
        for seed in 1 ... 3 {
            let made = try ChildProcess.run([generator, "-c", Self.generator, String(seed), "3000",
                                             format == "parquet" ? "1" : "0", tmp.url.path])
            try #require(made.status == 0, "\(made)")
            let expected = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: tmp.url.appendingPathComponent("expected.json"))) as? [String: [String: Any]])
            try assertExecute(["profile", "data.\(format)", "--rules-out", "rules.yml", "--format", "json", "--output", "profile.json"],
                              in: tmp.url, exitCode: 0)
            let profile = try ProfileRoundTripTests.object(Data(contentsOf: tmp.url.appendingPathComponent("profile.json")))
            let source = try #require((profile["sources"] as? [[String: Any]])?.first)
            let columns = source["columns"] as? [[String: Any]] ?? []
            for (name, types) in expected {
                let column = try #require(columns.first { $0["name"] as? String == name }, "\(name)")
                for (type, span) in types {
                    guard let span = span as? [String] else { continue }
                    let facts = try #require((column["types"] as? [String: [String: Any]])?[type], "\(name) \(type)")
                    var got = [facts["min"] as? String ?? "", facts["max"] as? String ?? ""]
                    if type == "datetime" {
                        let r = try ChildProcess.run([python, "-c", Self.instantToDecimal], input: Data(try JSONSerialization.data(withJSONObject: got)))
                        got = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String], "\(r)")
                    }
                    #expect(try Self.sameNumbers(got, span, python), "seed \(seed) \(format) \(name) \(type): got \(got), Python \(span)")
                }
            }
            let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
            // `neg` has one negative value, past 2^53: no `min: 0` for it.
            let neg = try #require(rules.range(of: "      neg:\n"))
            let block = rules[neg.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { $0.hasPrefix("        ") }.joined(separator: "\n")
            #expect(block.contains("type: integer") && !block.contains("min: 0"), "\(block)")
            if let nonFinite = expected["flt"]?["nonFinite"] as? Int {
                let flt = try #require(columns.first { $0["name"] as? String == "flt" })
                #expect(flt["typeValid"] as? Int == 3000 - nonFinite, "\(flt)")
            }
            try ProfileRoundTripTests.outliersMatch(in: tmp.url)
        }
    }

    /// Whether two lists of decimal texts are equal as numbers, by Python's `Decimal`.
    static func sameNumbers(_ a: [String], _ b: [String], _ python: String) throws -> Bool {
        let r = try ChildProcess.run([python, "-c", "import sys, json; from decimal import Decimal as D; a, b = json.load(sys.stdin); "
                                      + "print(all(D(x) == D(y) for x, y in zip(a, b)) and len(a) == len(b))"],
                                     input: Data(try JSONSerialization.data(withJSONObject: [a, b])))
        return r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "True"
    }
}
