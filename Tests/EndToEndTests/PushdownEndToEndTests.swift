import Foundation
import TestSupport
import Testing

/// SQL pushdown into SQLite (issue 16): the streaming engine is the oracle. The same audit
/// with and without `--pushdown` must give the same JSON report, field by field, except the
/// timings and the `ranIn` / `pushdownRefused` notes that say where the rules ran.
@Suite("SQLite pushdown against the streaming engine")
struct PushdownEndToEndTests {
    /// The report without what may differ between two runs of the same audit.
    static func comparable(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var out = [String: Any]()
            // A spilled key set's size depends on the allocator's rounding of array capacities.
            for (k, v) in object where !["durationSeconds", "startedAt", "seconds", "ranIn", "pushdownRefused",
                                         "keysSpilled", "referencedKeysSpilled"].contains(k) {
                out[k] = comparable(v)
            }
            return out
        }
        if let array = value as? [Any] { return array.map(comparable) }
        return value
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Runs `arguments` with and without `--pushdown`; expects equal reports and returns the
    /// pushed-down one.
    @discardableResult
    static func expectSameReport(_ arguments: [String], in directory: URL = Auditor.packageRoot,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let streamed = try Auditor.run(arguments + ["--format", "json"], in: directory, timeout: 300)
        let pushed = try Auditor.run(arguments + ["--format", "json", "--pushdown"], in: directory, timeout: 300)
        #expect(streamed.status == pushed.status, "exit status \(streamed.status) vs \(pushed.status): \(pushed.stderrText)",
                sourceLocation: sourceLocation)
        try #require(!streamed.stdout.isEmpty && !pushed.stdout.isEmpty,
                     "no report: \(streamed.stderrText)\n\(pushed.stderrText)", sourceLocation: sourceLocation)
        let a = try json(String(decoding: streamed.stdout, as: UTF8.self)), b = try json(String(decoding: pushed.stdout, as: UTF8.self))
        let left = try JSONSerialization.data(withJSONObject: comparable(a), options: [.sortedKeys])
        let right = try JSONSerialization.data(withJSONObject: comparable(b), options: [.sortedKeys])
        if left != right {
            // Name the first rule that differs, for the failure message.
            let ra = (a["rules"] as? [[String: Any]]) ?? [], rb = (b["rules"] as? [[String: Any]]) ?? []
            let first = zip(ra, rb).first { x, y in
                (try? JSONSerialization.data(withJSONObject: comparable(x), options: [.sortedKeys]))
                    != (try? JSONSerialization.data(withJSONObject: comparable(y), options: [.sortedKeys]))
            }
            Issue.record("reports differ; first differing rule: \(first.map { "\($0.0)\n---\n\($0.1)" } ?? "none (records or entities)")",
                         sourceLocation: sourceLocation)
        }
        return b
    }

    /// Runs a table builder (a Python script that writes with Python's sqlite3) with `arguments`.
    static func build(_ script: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
        let python = try #require(GeneratedData.python3, "python3 is needed to build the tables", sourceLocation: sourceLocation)
        let run = try ChildProcess.run([python.path, "-c", script] + arguments)
        try #require(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    }

    /// Record rules `n.<attribute>` over number attributes of the table `n` (its `id` the key),
    /// run streaming and pushed down: the same report, run in `engine`, and every rule both
    /// evaluated and skipped records (its input holds numbers a double does not hold).
    static func expectSameSkips(source: String, engine: String, rules: [(attribute: String, type: String, assert: String)],
                                in scratch: Scratch, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try scratch.write("rules.yml", """
            version: 1
            sources:
              n: \(source)
            entities:
              N:
                source: n
                key: [id]
                idPrefix: n
                attributes:
                  id: { type: integer, required: true }
            \(rules.map { "      \($0.attribute): { type: \($0.type) }\n" }.joined())    rules:
            \(rules.map { "      - id: n.\($0.attribute)\n        assert: \($0.assert)\n" }.joined())
            """)
        let report = try expectSameReport(["run", "rules.yml", "--max-samples", "5"], in: scratch.url, sourceLocation: sourceLocation)
        let input = try #require(pushedInput(report, source: "n"), sourceLocation: sourceLocation)
        #expect(input["ranIn"] as? String == engine, "\(input)", sourceLocation: sourceLocation)
        for id in rules.map({ "n.\($0.attribute)" }) {
            let rule = (report["rules"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
            #expect((rule?["skipped"] as? Int ?? 0) > 200 && (rule?["evaluated"] as? Int ?? 0) > 200, "\(id): \(rule ?? [:])",
                    sourceLocation: sourceLocation)
        }
    }

    static func pushedInput(_ report: [String: Any], source: String) -> [String: Any]? {
        (report["inputs"] as? [[String: Any]])?.first { $0["source"] as? String == source }
    }

    /// The referenced parent's rules ran in the database (its keys came first from a pass over
    /// the key column), and found every overlong name of the 150,001 parents.
    static func expectParentPushedDown(_ report: [String: Any], engine: String,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let parent = try #require(pushedInput(report, source: "parent"), sourceLocation: sourceLocation)
        #expect(parent["ranIn"] as? String == engine, "\(parent)", sourceLocation: sourceLocation)
        let name = (report["rules"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "Parent.name.maxLength" }
        #expect(name?["violations"] as? Int == 140_001, "\(String(describing: name))", sourceLocation: sourceLocation)
    }

    @Test("the benchmark rules on gen.py's SQLite data: same report, rules run in sqlite",
          .enabled(if: GeneratedData.available, GeneratedData.skipReason), arguments: [20, 3])
    func generated(maxSamples: Int) throws {
        let data = try GeneratedData.dataset()
        let report = try Self.expectSameReport(
            ["run", "rules/people.yml", "--source", "people=\(data.appendingPathComponent("people.sqlite").path)",
             "--source", "departments=\(data.appendingPathComponent("departments.csv").path)",
             "--max-samples", String(maxSamples)])
        let input = try #require(Self.pushedInput(report, source: "people"))
        #expect(input["ranIn"] as? String == "sqlite", "\(input)")
        let rules = (report["rules"] as? [[String: Any]] ?? []).filter { $0["entity"] as? String == "Person" }
        #expect(!rules.isEmpty && rules.allSatisfy { $0["ranIn"] as? String == "sqlite" })
    }

    /// A table of edge cases, built by Python's sqlite3 (a writer we did not write): every
    /// storage class in typed columns, invalid and leap dates, date-times with offsets and
    /// fractions, NUL bytes, non-ASCII text, duplicate and NULL keys, rowid gaps.
    static let builder = #"""
        import sqlite3, sys, random
        db = sqlite3.connect(sys.argv[1])
        db.execute("CREATE TABLE t (id, name TEXT, code, qty, price, born, seen, flag, country)")
        random.seed(int(sys.argv[2]))
        names = ["Ann", "Bo", "José Müller", "a\x00b", "", "Zoë", "x" * 40, "Li Wei", "O'Neil", "🦄 Uni"]
        codes = ["ABC", "abc", "AB", "ABCD", "A1C", None, 12, "ÀBC"]
        qtys = [0, 5, -1, 100, 101, "7", 7.0, 7.5, None, 2**62, "x"]
        prices = [0, 0.5, -0.01, 99.99, 1e308, "12.5", None, 10, -0.0]
        borns = ["2000-01-31", "2023-02-29", "2024-02-29", "2000-13-01", "1999-12-31", "2010-6-1",
                 "0000-02-29", "2001-04-31", " 2001-04-30", None, 20000101, "2026-11-27"]
        seens = ["2020-01-01T00:00:00Z", "2020-01-01T23:30:00-05:00", "2020-01-01T00:30:00+01:00",
                 "2020-02-29T12:00:00.5Z", "2021-02-29T00:00:00Z", "2020-01-01T24:00:00Z",
                 "2020-01-01 00:00:00Z", None, "1969-12-31T23:59:59Z", "2020-01-01T00:00:60Z"]
        flags = [0, 1, 2, "1", "true", None, 1.0]
        countries = ["US", "GB", "us", "DE ", "FR", None, "ÉS", 1]
        rowid = 0
        for i in range(int(sys.argv[3])):
            rowid += random.choice([1, 1, 1, 2, 7])
            key = random.choice([i, i, i, i % 50, None, str(i), i + 0.0])
            db.execute("INSERT INTO t (rowid, id, name, code, qty, price, born, seen, flag, country) VALUES (?,?,?,?,?,?,?,?,?,?)",
                       (rowid, key, random.choice(names), random.choice(codes), random.choice(qtys), random.choice(prices),
                        random.choice(borns), random.choice(seens), random.choice(flags), random.choice(countries)))
        db.commit()
        """#

    static let edgeRules = """
        version: 1
        sources:
          t:
            path: edge.sqlite
            sqlite: { table: t }
        entities:
          Row:
            source: t
            key: [id]
            idPrefix: row
            attributes:
              id:      { type: integer, required: true, unique: true }
              name:    { type: string, required: true, minLength: 3, maxLength: 12, pattern: "[A-Za-zÀ-ÿ' ]+" }
              code:    { type: string, enum: [ABC, ÀBC, AB] }
              qty:     { type: integer, min: 0, max: 100 }
              price:   { type: decimal, min: 0, exclusiveMax: 100 }
              born:    { type: date, required: true, min: "1990-01-01", max: "2024-12-31" }
              seen:    { type: datetime }
              flag:    { type: boolean }
              country: { type: string, enum: [US, GB, DE, FR] }
            rules:
              - id: row.grown
                when: flag
                assert: yearsBetween(born, date(seen)) >= 18
              - id: row.cheap
                assert: qty <= 50 or country in ["US", "GB"]

        """

    @Test("edge cases of every storage class, date and key: same report", arguments: [1, 2, 3])
    func edgeCases(seed: Int) throws {
        let scratch = try Scratch("pushdown-edge")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Self.edgeRules)
        try Self.build(Self.builder, scratch.path("edge.sqlite"), String(seed), "3000")
        let report = try Self.expectSameReport(["run", "rules.yml", "--max-samples", "50"], in: scratch.url)
        let input = try #require(Self.pushedInput(report, source: "t"))
        #expect(input["ranIn"] as? String == "sqlite", "\(input)")
        let violations = (report["rules"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["violations"] as? Int ?? 0) }
        #expect(violations > 1000, "the table is full of faults")
    }

    /// The rules of the report of `rules` on the edge table of `seed`, which must be the same
    /// streaming and pushed down, with the entity pushed down into SQLite.
    static func pushedInSQLite(_ rules: String, seed: Int, in scratch: Scratch,
                               sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try scratch.write("rules.yml", rules)
        try build(builder, scratch.path("edge.sqlite"), String(seed), "3000", sourceLocation: sourceLocation)
        let report = try expectSameReport(["run", "rules.yml", "--max-samples", "50"], in: scratch.url, sourceLocation: sourceLocation)
        let input = try #require(pushedInput(report, source: "t"), sourceLocation: sourceLocation)
        #expect(input["ranIn"] as? String == "sqlite" && input["pushdownRefused"] == nil, "\(input)", sourceLocation: sourceLocation)
        return report["rules"] as? [[String: Any]] ?? []
    }

    /// A rule SQLite cannot express (arithmetic under a `when:` it can express) runs in the
    /// process, over the records SQLite sends: those where it may fail. The rest stays in
    /// SQLite, and the report is the streaming one. Where nothing surely passes such a rule (no
    /// `when:`), it runs first on a read of its inputs and the key, and SQLite sends the records
    /// it fails by key; where SQLite cannot evaluate its `when:`, the records the `when:`
    /// selects are sent by key.
    @Test("rules SQLite cannot express run in the process, the others in SQLite: same report", arguments: [1, 2])
    func partlyPushedDown(seed: Int) throws {
        let scratch = try Scratch("pushdown-partly")
        defer { scratch.remove() }
        let rules = Self.edgeRules + "      - id: row.small\n        when: flag\n        assert: qty + 1 <= 51\n"
        let all = try Self.pushedInSQLite(rules, seed: seed, in: scratch)
        let inProcess = all.filter { $0["pushdownRefused"] != nil }
        #expect(inProcess.compactMap { $0["id"] as? String } == ["row.small"], "\(inProcess)")
        #expect(inProcess.allSatisfy { $0["ranIn"] == nil && ($0["violations"] as? Int ?? 0) > 0 }, "\(inProcess)")
        #expect(all.filter { $0["pushdownRefused"] == nil }.allSatisfy { $0["ranIn"] as? String == "sqlite" })
        let text = try Auditor.run(["run", "rules.yml", "--pushdown"], in: scratch.url)
        #expect(text.stdoutText.contains("row.small checked in the process, on the records sqlite sent: the expression of rule 'row.small' cannot run in sqlite exactly"),
                "\(text.stdoutText)")

        try scratch.write("rules.yml", rules.replacingOccurrences(of: "        when: flag\n        assert: qty + 1", with: "        assert: qty + 1"))
        let keyed = try Self.expectSameReport(["run", "rules.yml", "--max-samples", "50"], in: scratch.url)
        #expect(Self.pushedInput(keyed, source: "t")?["ranIn"] as? String == "sqlite")
        let byKey = keyed["rules"] as? [[String: Any]] ?? []
        #expect(byKey.allSatisfy { $0["pushdownRefused"] == nil && $0["ranIn"] as? String == "sqlite" }, "\(byKey)")
        let small = byKey.first { $0["id"] as? String == "row.small" }
        #expect((small?["violations"] as? Int ?? 0) > 0 && (small?["skipped"] as? Int ?? 0) > 0, "\(small ?? [:])")

        try scratch.write("rules.yml", rules.replacingOccurrences(of: "        when: flag\n        assert: qty + 1 <= 51",
                                                                  with: "        when: qty + 1 > 40\n        assert: flag"))
        let selected = try Self.expectSameReport(["run", "rules.yml", "--max-samples", "50"], in: scratch.url)
        #expect(Self.pushedInput(selected, source: "t")?["ranIn"] as? String == "sqlite")
    }

    /// A record rule whose `when:` SQLite cannot evaluate (arithmetic), with an `assert:` it
    /// can: SQLite cannot count the records the `when:` selects, so they are found first (a
    /// read of `qty`, `flag` and `id`) and sent by key. (It was once pushed down as if the
    /// `when:` were absent, and its rule said "evaluated 0" where streaming said 600; without
    /// an integer key, the entity streams.)
    @Test("a when: SQLite cannot count: the records it selects are sent by key, the streaming engine's evaluated count")
    func uncountableWhen() throws {
        let scratch = try Scratch("pushdown-when")
        defer { scratch.remove() }
        try Self.build("""
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("CREATE TABLE t (id INTEGER, qty INTEGER, flag INTEGER)")
            c.executemany("INSERT INTO t VALUES (?, ?, 1)", [(i, i % 100) for i in range(1, 1001)])
            c.commit()
            """, scratch.path("t.sqlite"))
        try scratch.write("rules.yml", """
            version: 1
            sources:
              t: { path: t.sqlite, sqlite: { table: t } }
            entities:
              Row:
                source: t
                key: [id]
                attributes:
                  id:   { type: integer, required: true }
                  qty:  { type: integer }
                  flag: { type: boolean }
                rules:
                  - id: row.odd
                    when: qty + 1 > 40
                    assert: flag
            """)
        let report = try Self.expectSameReport(["run", "rules.yml"], in: scratch.url)
        let rule = (report["rules"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "row.odd" }
        #expect(rule?["evaluated"] as? Int == 600 && rule?["ranIn"] as? String == "sqlite", "\(rule ?? [:])")
        #expect(Self.pushedInput(report, source: "t")?["ranIn"] as? String == "sqlite")
        try scratch.write("rules.yml", try String(contentsOf: scratch.url.appendingPathComponent("rules.yml"), encoding: .utf8)
            .replacingOccurrences(of: "key: [id]", with: "key: [id, qty]"))
        let streamed = try Self.expectSameReport(["run", "rules.yml"], in: scratch.url)
        #expect((Self.pushedInput(streamed, source: "t")?["pushdownRefused"] as? String)?.contains("row.odd") == true)
    }

    /// Bounds that SQLite cannot compare exactly, on required and optional attributes: between
    /// two integers (an integer `qty`, a `price` with more digits than a double holds) and on
    /// date-times with fractions. Each is lowered to the next integer or UTC day, which surely
    /// passes; the values between are sent and judged in the process, so nothing is streamed.
    @Test("bounds between integers and on date-times run in SQLite, soundly: same report", arguments: [1, 2, 3])
    func boundsBetweenIntegers(seed: Int) throws {
        let scratch = try Scratch("pushdown-bounds")
        defer { scratch.remove() }
        var rules = Self.edgeRules
        for (old, new) in [("qty:     { type: integer, min: 0, max: 100 }", "qty:     { type: integer, min: 0.5, max: 99.5 }"),
                           ("price:   { type: decimal, min: 0, exclusiveMax: 100 }",
                            "price:   { type: decimal, required: true, min: -0.005, exclusiveMax: 99.990000000000000000001 }"),
                           ("seen:    { type: datetime }",
                            #"seen:    { type: datetime, min: "2020-01-01T00:00:00.5Z", exclusiveMax: "2020-02-29T12:00:00.5Z" }"#)] {
            try #require(rules.contains(old))
            rules = rules.replacingOccurrences(of: old, with: new)
        }
        let all = try Self.pushedInSQLite(rules, seed: seed, in: scratch)
        #expect(all.allSatisfy { $0["ranIn"] as? String == "sqlite" && $0["pushdownRefused"] == nil }, "\(all)")
        for id in ["row.qty.min", "row.qty.max", "row.price.min", "row.price.exclusiveMax", "row.seen.min", "row.seen.exclusiveMax"] {
            let rule = all.first { $0["id"] as? String == id }
            #expect((rule?["violations"] as? Int ?? 0) > 0, "\(id): \(rule ?? [:])")
        }
    }

    /// 70 integer columns, each present or NULL and now and then not an integer: more counted
    /// conditions (one per attribute's presence) than one 64-bit flag column holds.
    static let wideBuilder = """
        import random, sqlite3, sys
        db = sqlite3.connect(sys.argv[1]); rng = random.Random(int(sys.argv[2]))
        names = ["c%d" % i for i in range(70)]
        db.execute("CREATE TABLE w (id INTEGER PRIMARY KEY, %s)" % ", ".join(names))
        def value(i):
            r = rng.random()
            return None if r < 0.2 else ("x%d" % i if r < 0.25 else rng.randrange(-5, 100))
        rows = [[n] + [value(i) for i in range(70)] for n in range(1, 2001)]
        db.executemany("INSERT INTO w VALUES (%s)" % ", ".join("?" * 71), rows)
        db.commit()
        """

    @Test("record rules over integers beyond 2^53: the same evaluated and skipped counts as streaming")
    func inexactIntegers() throws {
        let scratch = try Scratch("sqlite-inexact")
        defer { scratch.remove() }
        try PushdownEndToEndTests.build("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE n (id INTEGER, big, dec)")
            bigs = [2**53, 2**53 + 1, -2**53, -2**53 - 1, 2**63 - 1, -2**63, 7, 0, None, 1.5, 2.0**60]
            decs = [1.5, 2**53 + 1, 2.0**70, 1e-300, 0.1, -3, None, "x"]
            db.executemany("INSERT INTO n VALUES (?, ?, ?)", [(i, bigs[i % 11], decs[i % 8]) for i in range(1, 2001)])
            db.commit()
            """, scratch.path("n.sqlite"))
        try PushdownEndToEndTests.expectSameSkips(source: "{ path: n.sqlite, sqlite: { table: n } }", engine: "sqlite",
                                                  rules: [("big", "integer", "big > -5"), ("dec", "decimal", "dec > 0")], in: scratch)
    }

    @Test("more counted conditions than one flag column holds: same report")
    func wideTable() throws {
        let scratch = try Scratch("pushdown-wide")
        defer { scratch.remove() }
        let attributes = (0 ..< 70).map { "      c\($0): { type: integer, min: 0 }" }.joined(separator: "\n")
        try scratch.write("rules.yml", """
            version: 1
            sources:
              w: { path: wide.sqlite, sqlite: { table: w } }
            entities:
              Row:
                source: w
                key: [id]
                attributes:
                  id: { type: integer, required: true }
            \(attributes)
                rules:
                  - id: row.order
                    when: c0 >= 0
                    assert: c1 <= 100

            """)
        try Self.build(Self.wideBuilder, scratch.path("wide.sqlite"), "5")
        let report = try Self.expectSameReport(["run", "rules.yml", "--max-samples", "20"], in: scratch.url)
        let input = try #require(Self.pushedInput(report, source: "w"))
        #expect(input["ranIn"] as? String == "sqlite", "\(input)")
    }

    /// A parent of 150,000 keys (more than an `IN` list of literals may hold) and a child whose
    /// references hit, miss, are NULL, text, REAL or beyond 2^53, built by Python's sqlite3.
    static let referenceBuilder = #"""
        import sqlite3, sys, random
        db = sqlite3.connect(sys.argv[1])
        random.seed(int(sys.argv[2]))
        db.execute("CREATE TABLE parent (id INTEGER, name TEXT)")
        db.executemany("INSERT INTO parent VALUES (?, ?)", ((i * 3 - 2**40 if i % 1000 == 0 else i * 3, "p%d" % i) for i in range(1, 150001)))
        db.execute("INSERT INTO parent VALUES (?, 'big')", (2**62 + 1,))
        db.execute("CREATE TABLE child (id INTEGER, parent)")
        picks = [lambda: random.randrange(1, 450001), lambda: 3 * random.randrange(1, 150001), lambda: None,
                 lambda: str(3 * random.randrange(1, 150001)), lambda: 3.0 * random.randrange(1, 150001),
                 lambda: 2**62 + 1, lambda: 2**62, lambda: -(2**40) + 3000, lambda: 0]
        db.executemany("INSERT INTO child VALUES (?, ?)", ((i, random.choice(picks)()) for i in range(1, int(sys.argv[3]) + 1)))
        db.commit()
        """#

    @Test("a reference to 150,001 parent keys runs in SQLite (a key set function): same report")
    func largeParentKeySet() throws {
        let scratch = try Scratch("pushdown-reference")
        defer { scratch.remove() }
        try Self.build(Self.referenceBuilder, scratch.path("ref.sqlite"), "5", "20000")
        try scratch.write("rules.yml", """
            version: 1
            sources:
              parent: { path: ref.sqlite, sqlite: { table: parent } }
              child: { path: ref.sqlite, sqlite: { table: child } }
            entities:
              Parent:
                source: parent
                key: [id]
                attributes:
                  id: { type: integer, required: true }
                  name: { type: string, maxLength: 5 }
              Child:
                source: child
                key: [id]
                attributes:
                  id: { type: integer, required: true }
                  parent: integer
                relationships:
                  parent: { attribute: parent, references: Parent.id }

            """)
        let report = try Self.expectSameReport(["run", "rules.yml", "--max-samples", "50"], in: scratch.url)
        let input = try #require(Self.pushedInput(report, source: "child"))
        #expect(input["ranIn"] as? String == "sqlite", "\(input)")
        try Self.expectParentPushedDown(report, engine: "sqlite")
        let reference = try #require((report["rules"] as? [[String: Any]] ?? []).first { ($0["id"] as? String)?.hasSuffix(".fk") == true })
        #expect(reference["ranIn"] as? String == "sqlite", "\(reference)")
        #expect((reference["violations"] as? Int ?? 0) > 4000, "\(reference)")
        // Beyond --memory-limit the parent's keys go to disk, which no query can take: the
        // child is read in full, and its violations are the ones found in the database.
        let spilled = try Self.expectSameReport(["run", "rules.yml", "--max-samples", "50", "--memory-limit", "1M"], in: scratch.url)
        let child = try #require(Self.pushedInput(spilled, source: "child"))
        #expect(child["ranIn"] == nil, "\(child)")
        try Self.expectParentPushedDown(spilled, engine: "sqlite")
        #expect((child["pushdownRefused"] as? String)?.contains("--memory-limit") == true, "\(child)")
        #expect((Self.pushedInput(spilled, source: "parent")?["referencedKeysSpilled"] as? Int ?? 0) > 1 << 20)
        let spilledReference = (spilled["rules"] as? [[String: Any]] ?? []).first { ($0["id"] as? String)?.hasSuffix(".fk") == true }
        #expect(spilledReference?["violations"] as? Int == reference["violations"] as? Int)
    }

    @Test("a query source cannot be pushed down: it says why, and the report is the same")
    func refusedForAQuery() throws {
        let scratch = try Scratch("pushdown-query")
        defer { scratch.remove() }
        try Self.build(Self.builder, scratch.path("edge.sqlite"), "9", "200")
        try scratch.write("rules.yml", Self.edgeRules.replacingOccurrences(of: "sqlite: { table: t }",
                                                                          with: "sqlite: { query: \"SELECT * FROM t\" }\n    pushdown: true"))
        let report = try Self.expectSameReport(["run", "rules.yml"], in: scratch.url)
        let input = try #require(Self.pushedInput(report, source: "t"))
        #expect(input["ranIn"] == nil)
        #expect((input["pushdownRefused"] as? String)?.contains("query") == true, "\(input)")
        let text = try Auditor.run(["run", "rules.yml"], in: scratch.url)
        let out = String(decoding: text.stdout, as: UTF8.self)
        #expect(out.contains("read in full, not pushed down: "), "\(out)")
    }
}

/// PostgreSQL pushdown against the streaming engine, on a throwaway server (``PostgresServer``).
@Suite("PostgreSQL pushdown against the streaming engine", .enabled(if: PostgresServer.available, PostgresServer.skipReason))
struct PostgresPushdownTests {
    @Test("the benchmark rules on gen.py's data in text columns: same report, Person run in postgresql")
    func benchmark() throws {
        guard GeneratedData.available else { return }
        let (server, database, _) = try PostgresEndToEndTests.loaded.get()
        let url = server.url(database: database)
        for samples in ["20", "2"] {
            let report = try PushdownEndToEndTests.expectSameReport(
                ["run", "rules/people.yml", "--source", "people=\(url)", "--source", "departments=\(url)", "--max-samples", samples])
            let people = try #require(PushdownEndToEndTests.pushedInput(report, source: "people"))
            #expect(people["ranIn"] as? String == "postgresql", "\(people)")
            // Department's keys are what Person references: read first from the key column, then its rules run there too.
            let departments = try #require(PushdownEndToEndTests.pushedInput(report, source: "departments"))
            #expect(departments["ranIn"] as? String == "postgresql", "\(departments)")
        }
    }

    /// Typed and text columns with the values where PostgreSQL's and our parsers could part:
    /// leading zeros and signs, exponents, NaN and infinities, year 0 and BC, leap days,
    /// offsets and fractions, case and collation.
    static let setup = """
        CREATE TABLE t (id bigint, n_int integer, n_num numeric, n_real double precision, d date, ts timestamptz,
                        b boolean, t_int text, t_dec text, t_date text, t_ts text, t_bool text, name text, code varchar(10));
        INSERT INTO t
        SELECT CASE WHEN i % 397 = 0 THEN NULL WHEN i % 389 = 0 THEN i - 1 ELSE i END,
               (ARRAY[0, 5, -1, 100, 101, NULL])[CASE WHEN abs(hashtext('c1-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d1-' || i)) % 6 END],
               (ARRAY[0, 0.5, -0.01, 99.99, 100, 'NaN', 'Infinity', NULL, 12.50, 1e20])[CASE WHEN abs(hashtext('c2-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d2-' || i)) % 10 END]::numeric,
               (ARRAY['0', '0.5', '-0.0', 'NaN', 'Infinity', '-Infinity', '99.5', '1e300', NULL])[CASE WHEN abs(hashtext('c3-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d3-' || i)) % 9 END]::float8,
               (ARRAY['2000-01-31', '2024-02-29', 'infinity', '0001-01-01', '9999-12-31', '1990-01-01', NULL])[CASE WHEN abs(hashtext('c4-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d4-' || i)) % 7 END]::date,
               (ARRAY['2020-01-01 00:00:00+00', '2020-01-01 23:30:00-05', '2020-02-29 12:00:00.5+00', 'infinity', NULL,
                      '1969-12-31 23:59:59+00'])[CASE WHEN abs(hashtext('c5-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d5-' || i)) % 6 END]::timestamptz,
               (ARRAY[true, false, NULL])[CASE WHEN abs(hashtext('c6-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d6-' || i)) % 3 END],
               (ARRAY['7', '007', '-0', '+5', ' 5', '1e3', '5.', '99999999999999999', '123456789012345678901', '', NULL, '-12'])[CASE WHEN abs(hashtext('c7-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d7-' || i)) % 12 END],
               (ARRAY['12.50', '.5', '5.', '-0.0', '1e3', '0', '100', 'NaN', '00.10', '', NULL, '99.999'])[CASE WHEN abs(hashtext('c8-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d8-' || i)) % 12 END],
               (ARRAY['1999-12-31', '2024-02-29', '0000-01-01', '2023-02-29', '2000-13-01', '2001-04-31', '2010-6-1',
                      ' 2001-04-30', '2024-12-31', NULL])[CASE WHEN abs(hashtext('c9-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d9-' || i)) % 10 END],
               (ARRAY['2020-01-01T00:00:00Z', '2020-01-01T23:30:00-05:00', '2020-02-29T12:00:00.5Z', '2021-02-29T00:00:00Z',
                      '2020-01-01T24:00:00Z', '2020-01-01 00:00:00Z', '1969-12-31T23:59:59Z', '2020-01-01t00:00:00z', NULL])[CASE WHEN abs(hashtext('c10-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d10-' || i)) % 9 END],
               (ARRAY['true', 'false', 'TRUE', '1', 't', '', NULL])[CASE WHEN abs(hashtext('c11-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d11-' || i)) % 7 END],
               (ARRAY['Ann', 'Bo', 'José Müller', 'Zoë', 'x' || repeat('y', 40), 'Li Wei', 'O''Neil', '🦄 Uni', 'ann', '', NULL])[CASE WHEN abs(hashtext('c12-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d12-' || i)) % 11 END],
               (ARRAY['ABC', 'abc', 'AB', 'ABCD', 'A1C', NULL, 'ÀBC', 'ABC '])[CASE WHEN abs(hashtext('c13-' || i)) % 100 < 85 THEN 1 ELSE 1 + abs(hashtext('d13-' || i)) % 8 END]
        FROM generate_series(1, 8000) AS i;
        """

    static let rules = """
        version: 1
        sources:
          t:
            path: "URL"
            postgres: { table: t }
        entities:
          Row:
            source: t
            key: [id]
            idPrefix: row
            attributes:
              id:     { type: integer, required: true, unique: true }
              n_int:  { type: integer, min: -1, max: 100, enum: [0, 5, 100] }
              n_num:  { type: decimal, min: 0, exclusiveMax: 100 }
              n_real: { type: decimal, min: -0.5, max: 99.5 }
              d:      { type: date, min: "1990-01-01", max: "2024-12-31" }
              ts:     { type: datetime, min: "1969-12-31T23:59:59.5Z", exclusiveMax: "2020-02-29T12:00:00.5Z" }
              b:      { type: boolean, required: true }
              t_int:  { type: integer, min: -5, max: 10 }
              t_dec:  { type: decimal, min: 0.5, max: 99.9990000000000000001 }
              t_date: { type: date, max: "2024-06-30" }
              t_ts:   { type: datetime, min: "1969-12-31T23:59:59.5Z", max: "2020-01-02T00:00:00.25Z" }
              t_bool: { type: boolean }
              name:   { type: string, required: true, minLength: 3, maxLength: 12, pattern: "[A-Za-zÀ-ÿ' ]+" }
              code:   { type: string, pattern: "[A-Z]{2,3}|À[A-Z]+", enum: [ABC, ÀBC, AB] }
            rules:
              - id: row.grown
                when: b
                assert: yearsBetween(d, date(ts)) >= 18
              - id: row.dated
                assert: yearsBetween(date(t_ts), t_date) < 5 or t_int in [7, -12]

        """

    /// A parent of 150,001 keys and children whose references, typed and as text, hit, miss,
    /// are NULL, have leading zeros or signs, or lie beyond 2^53.
    static let referenceSetup = """
        CREATE TABLE parent (id bigint, name text);
        INSERT INTO parent SELECT CASE WHEN i % 1000 = 0 THEN i * 3 - 1099511627776 ELSE i * 3 END, 'p' || i
        FROM generate_series(1, 150000) AS i;
        INSERT INTO parent VALUES (4611686018427387905, 'big');
        CREATE TABLE child (id integer, p_int integer, p_text text);
        INSERT INTO child
        SELECT i, CASE WHEN i % 7 = 0 THEN NULL WHEN i % 2 = 0 THEN 3 * (1 + abs(hashtext('a' || i)) % 150000)
                       ELSE 1 + abs(hashtext('b' || i)) % 450000 END,
               (ARRAY['300', '0300', '+300', '-1099511624776', '4611686018427387905', '4611686018427387904', ' 3', '3.0', '',
                      NULL, '1', '449997'])[1 + abs(hashtext('c' || i)) % 12]
        FROM generate_series(1, 20000) AS i;
        """

    @Test("a reference to 150,001 parent keys runs in postgresql (one array constant): same report")
    func largeParentKeySet() throws {
        let server = try PostgresServer.shared.get()
        let database = try server.makeDatabase("pushdown_ref", setup: Self.referenceSetup)
        let scratch = try Scratch("pg-pushdown-ref")
        defer { scratch.remove() }
        let url = server.url(database: database)
        try scratch.write("rules.yml", """
            version: 1
            sources:
              parent: { path: "\(url)", postgres: { table: parent } }
              child: { path: "\(url)", postgres: { table: child } }
            entities:
              Parent:
                source: parent
                key: [id]
                attributes:
                  id: { type: integer, required: true }
                  name: { type: string, maxLength: 5 }
              Child:
                source: child
                key: [id]
                attributes:
                  id: { type: integer, required: true }
                  p_int: integer
                  p_text: integer
                relationships:
                  typed: { attribute: p_int, references: Parent.id }
                  text: { attribute: p_text, references: Parent.id }

            """)
        let report = try PushdownEndToEndTests.expectSameReport(["run", "rules.yml", "--max-samples", "50"], in: scratch.url)
        let input = try #require(PushdownEndToEndTests.pushedInput(report, source: "child"))
        #expect(input["ranIn"] as? String == "postgresql", "\(input)")
        try PushdownEndToEndTests.expectParentPushedDown(report, engine: "postgresql")
        let references = (report["rules"] as? [[String: Any]] ?? []).filter { ($0["id"] as? String)?.hasSuffix(".fk") == true }
        #expect(references.count == 2 && references.allSatisfy { $0["ranIn"] as? String == "postgresql" && ($0["violations"] as? Int ?? 0) > 1000 },
                "\(references)")
    }

    /// A record rule skips a record whose number input the expression engine does not hold
    /// exactly (beyond 2^53, more than 15 significant digits): PostgreSQL must send such
    /// records rather than count them as evaluated.
    @Test("record rules over numbers beyond what a double holds: the same evaluated and skipped counts")
    func inexactNumbers() throws {
        let server = try PostgresServer.shared.get()
        let database = try server.makeDatabase("inexact", setup: """
            CREATE TABLE n (id integer, big bigint, dec numeric, tint text, tdec text);
            INSERT INTO n SELECT i,
              (ARRAY[9007199254740992, 9007199254740993, -9007199254740992, -9007199254740993, 9223372036854775807,
                     -9223372036854775808, 7, 0, NULL])[1 + i % 9],
              (ARRAY[1.5, 1.12345678901234, 1.123456789012345, 1.1234567890123456, 0.000001, 0.0000001, 999999999999999,
                     1000000000000000, 1.50000000000000000000, 0, -2.5, NULL])[1 + i % 12],
              (ARRAY['9007199254740992', '9007199254740993', '-9007199254740993', '7', '99999999999999999', NULL])[1 + i % 6],
              (ARRAY['1.5', '123456789012345', '1234567890123456', '0.000000000000001', '12.34567890123456', '3'])[1 + i % 7]
            FROM generate_series(1, 2000) AS i;
            """)
        let scratch = try Scratch("pg-inexact")
        defer { scratch.remove() }
        try PushdownEndToEndTests.expectSameSkips(
            source: "{ path: \"\(server.url(database: database))\", postgres: { table: n } }", engine: "postgresql",
            rules: [("big", "integer", "big > -5"), ("dec", "decimal", "dec > 0"), ("tint", "integer", "tint > 5"),
                    ("tdec", "decimal", "tdec < 1000")],
            in: scratch)
    }

    @Test("a pattern PostgreSQL cannot match, failed by more distinct values than a query takes: the entity streams, and says why")
    func tooManyFailingValues() throws {
        let server = try PostgresServer.shared.get()
        let database = try server.makeDatabase("manyvalues", setup: """
            CREATE TABLE m (id integer, code text);
            INSERT INTO m SELECT i, CASE WHEN i % 3 = 0 THEN 'x' || i ELSE lpad(i::text, 7, '0') END FROM generate_series(1, 300010) AS i;
            """)
        let scratch = try Scratch("pg-many")
        defer { scratch.remove() }
        try scratch.write("rules.yml", """
            version: 1
            sources:
              m: { path: "\(server.url(database: database))", postgres: { table: m } }
            entities:
              M:
                source: m
                key: [id]
                idPrefix: m
                attributes:
                  id:   { type: integer, required: true }
                  code: { type: string, required: true, pattern: '\\x30?[0-9]{7}' }
            """)
        let report = try PushdownEndToEndTests.expectSameReport(["run", "rules.yml", "--max-samples", "3"], in: scratch.url)
        let input = try #require(PushdownEndToEndTests.pushedInput(report, source: "m"))
        #expect(input["ranIn"] == nil, "\(input)")
        let refused = input["pushdownRefused"] as? String ?? ""
        #expect(refused.contains("more than 100000 distinct values") && refused.contains("'code'"), "\(input)")
        let rule = (report["rules"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "m.code.pattern" }
        #expect(rule?["violations"] as? Int == 100_003, "\(rule ?? [:])")
    }

    @Test("rows scanned in parallel, with gaps and moved rows, spilled and merged: ordinals by position, same report")
    func parallelScan() throws {
        let server = try PostgresServer.shared.get()
        // Dead tuples and rows that updates moved; costs that make the planner scan in parallel;
        // names too long, so the rows that fail outgrow the 8 MiB kept in memory.
        let database = try server.makeDatabase("parallel", setup: Self.setup + """
            DELETE FROM t WHERE id % 13 = 0;
            UPDATE t SET name = name WHERE id % 17 = 0;
            UPDATE t SET name = repeat('y', 8000 + (id % 7)::integer) WHERE id % 3 = 0;
            """)
        for setting in ["parallel_setup_cost = 0", "parallel_tuple_cost = 0", "min_parallel_table_scan_size = 0"] {
            try server.psql("ALTER DATABASE \(database) SET \(setting)")
        }
        let scratch = try Scratch("pg-parallel")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Self.rules.replacingOccurrences(of: "URL", with: server.url(database: database)))
        let report = try PushdownEndToEndTests.expectSameReport(["run", "rules.yml", "--max-samples", "200"], in: scratch.url)
        #expect(PushdownEndToEndTests.pushedInput(report, source: "t")?["ranIn"] as? String == "postgresql")
        // The pushed-down query does run in parallel there.
        let traced = try Auditor.run(["run", "rules.yml", "--pushdown", "--format", "json"], in: scratch.url,
                                     environment: ["AUDITOR_DEBUG_SQL": "1"]).stderrText
        let start = try #require(traced.range(of: "SELECT auditor_ordinal", options: .backwards))
        let end = try #require(traced.range(of: "AS s", options: .backwards))
        let plan = try server.psql("EXPLAIN (COSTS OFF) " + traced[start.lowerBound ..< end.upperBound], database: database)
        #expect(plan.contains("Parallel Seq Scan on t"), "\(plan)")
        let spilled = traced.firstMatch(of: /spilled in (\d+) runs/).flatMap { Int($0.1) }
        #expect((spilled ?? 0) >= 2, "\(traced.suffix(300))")
    }

    @Test("edge values of typed and text columns: same report, run in postgresql")
    func edgeValues() throws {
        let server = try PostgresServer.shared.get()
        let database = try server.makeDatabase("pushdown", setup: Self.setup)
        let scratch = try Scratch("pg-pushdown")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Self.rules.replacingOccurrences(of: "URL", with: server.url(database: database)))
        for samples in ["100", "3"] {
            let report = try PushdownEndToEndTests.expectSameReport(["run", "rules.yml", "--max-samples", samples], in: scratch.url)
            let input = try #require(PushdownEndToEndTests.pushedInput(report, source: "t"))
            #expect(input["ranIn"] as? String == "postgresql", "\(input)")
            let rules = report["rules"] as? [[String: Any]] ?? []
            // Bounds between integers (`t_dec`'s `min: 0.5`) and on date-times run there too, soundly.
            #expect(rules.allSatisfy { $0["pushdownRefused"] == nil }, "\(rules.filter { $0["pushdownRefused"] != nil })")
            let violations = rules.reduce(0) { $0 + ($1["violations"] as? Int ?? 0) }
            #expect(violations > 3000, "the table is full of faults")
        }
        // Patterns outside the subset: `\d` and `\w` written out as the bracket classes they mean;
        // `\x31` and `\x20` not at all, nor compound constraints, so their columns are read
        // alone first and checked in the process, and PostgreSQL is told which values fail; on
        // the optional `code` and on the required `name` alike.
        let code = #"pattern: "[A-Z]{2,3}|À[A-Z]+""#, name = #"pattern: "[A-Za-zÀ-ÿ' ]+""#
        try #require(Self.rules.contains(code) && Self.rules.contains(name))
        let variants = [
            (#"pattern: '[A-Z]{2,3}\d?|À[A-Z]+'"#, #"pattern: '[\w ]+'"#, ["row.code.pattern", "row.name.pattern"]),
            (#"pattern: '[A-Z]{2,3}\x31?|À[A-Z]+'"#, #"pattern: '[\w\x20]+'"#, ["row.code.pattern", "row.name.pattern"]),
            (#"anyOf: [ { pattern: "[A-Z]{3}" }, { enum: [AB] } ]"#, name + ", not: { enum: [Ann, Zoë] }", ["row.code.anyOf", "row.name.not"]),
        ]
        for (codeRule, nameRule, ids) in variants {
            try scratch.write("rules.yml", Self.rules.replacingOccurrences(of: code, with: codeRule)
                .replacingOccurrences(of: name, with: nameRule)
                .replacingOccurrences(of: "URL", with: server.url(database: database)))
            for samples in ["20", "2"] {
                let report = try PushdownEndToEndTests.expectSameReport(["run", "rules.yml", "--max-samples", samples], in: scratch.url)
                let input = try #require(PushdownEndToEndTests.pushedInput(report, source: "t"))
                #expect(input["ranIn"] as? String == "postgresql", "\(input)")
                let rules = report["rules"] as? [[String: Any]] ?? []
                #expect(rules.allSatisfy { $0["pushdownRefused"] == nil }, "\(rules.filter { $0["pushdownRefused"] != nil })")
                for id in ids {
                    let rule = rules.first { $0["id"] as? String == id }
                    #expect((rule?["violations"] as? Int ?? 0) > 100, "\(nameRule) \(id): \(rule ?? [:])")
                }
            }
        }
        // The lowering tried before the read of `code` and `name` left no second join for `unique`.
        let traced = try Auditor.run(["run", "rules.yml", "--pushdown", "--format", "json"], in: scratch.url,
                                     environment: ["AUDITOR_DEBUG_SQL": "1"])
        #expect(traced.stderrText.components(separatedBy: "HAVING count(*) > 1) AS auditor_d").count == 2, "\(traced.stderrText)")
    }
}
