import Foundation
import TestSupport
import Testing

/// `auditor profile` on JSON Lines arrays and objects: a column of lists or maps is profiled by
/// its items and keys, not by the characters of its text, and the drafted rules declare it
/// (`as: list`, `as: map`) with its counts and keys. JSON numbers 0 and 1 are numbers, not
/// booleans. Checked on files written by Python's json module, whose facts Python counts.
@Suite("Profile: JSON Lines lists and maps")
struct ProfileCompositeTests {
    /// Writes `N.jsonl` files into argv[1] and prints, per file, its rows and per column the
    /// facts the profile must find: present values, lists, maps, the fewest and most items or
    /// entries, and per key the objects that have it.
    static let generator = #"""
        import json, random, sys
        out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        rnd = random.Random(seed)
        words = ['a', 'bb', 'Zoë', '', 'x.y', '1', 'true', 'say "hi"', 'two\nlines']
        def scalar():
            return rnd.choice([rnd.choice(words), rnd.randint(-5, 5), rnd.random() * 100, True, False, None])
        def item(depth):
            r = rnd.random()
            if depth < 2 and r < 0.1: return [item(depth + 1) for _ in range(rnd.randint(0, 3))]
            if depth < 2 and r < 0.2: return {rnd.choice(['p', 'q']): item(depth + 1)}
            return scalar()
        keys = ['city', 'zip', 'street', 'a b', 'Ünï', 'x-y']
        files = []
        for n in range(count):
            rows = rnd.randint(1, 60) if n % 4 else rnd.randint(2000, 3000)
            low = 1 if n % 3 == 0 else 0
            many = n % 2 == 0
            facts = {}
            def note(column, value):
                f = facts.setdefault(column, {'present': 0, 'lists': 0, 'maps': 0, 'minItems': None, 'maxItems': None, 'mapKeys': {}})
                if value is None: return
                f['present'] += 1
                if isinstance(value, (list, dict)):
                    f['lists' if isinstance(value, list) else 'maps'] += 1
                    f['minItems'] = len(value) if f['minItems'] is None else min(f['minItems'], len(value))
                    f['maxItems'] = len(value) if f['maxItems'] is None else max(f['maxItems'], len(value))
                if isinstance(value, dict):
                    for k in value: f['mapKeys'][k] = f['mapKeys'].get(k, 0) + 1
            with open(f'{out}/{n}.jsonl', 'w', encoding='utf-8') as file:
                for r in range(rows):
                    first = r == 0
                    row = {'id': r + 1}
                    row['tags'] = [item(1) for _ in range(rnd.randint(low, 4))] if first or rnd.random() < 0.9 else None
                    address = {'city': rnd.choice(words)}
                    for k in rnd.sample(keys[1:], rnd.randint(0, 3)): address[k] = item(1)
                    row['address'] = address
                    if many: row['bag'] = {f'k{rnd.randint(0, 149)}': 1 for _ in range(rnd.randint(1, 3))}
                    row['mixed'] = rnd.choice([[1, 2], {'p': 1}, 'text', 7])
                    row['none'] = []
                    row['retries'] = rnd.randint(0, 1)
                    row['paid'] = rnd.choice([True, False])
                    if not first and rnd.random() < 0.05: del row['address']
                    for column, value in row.items(): note(column, value)
                    file.write(json.dumps(row, ensure_ascii=rnd.random() < 0.5) + '\n')
            files.append({'file': f'{n}.jsonl', 'rows': rows, 'facts': facts})
        print(json.dumps(files))
        """#

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("Generated files: lists and maps counted as Python counts them; the drafted rules declare them and pass")
    func generatedFiles() throws {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let tmp = try Scratch("profile-composite")
        defer { tmp.remove() }
        let made = try ChildProcess.run([python.path, "-c", Self.generator, tmp.url.path, "12", "29"])
        try #require(made.status == 0, "\(made)")
        let files = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: Any]])
        var overflowed = 0
        for file in files {
            let name = try #require(file["file"] as? String)
            let rows = try #require(file["rows"] as? Int)
            let facts = try #require(file["facts"] as? [String: [String: Any]])
            let rulesName = "\(name).yml"
            let profiled = try assertExecute(["profile", name, "--format", "json", "--rules-out", rulesName], in: tmp.url, exitCode: 0)
            let source = try #require((try Self.object(profiled.stdout)["sources"] as? [[String: Any]])?.first)
            #expect(source["records"] as? Int == rows, "\(name)")
            var columns = [String: [String: Any]]()
            for c in source["columns"] as? [[String: Any]] ?? [] { columns[c["name"] as? String ?? "?"] = c }
            #expect(Set(columns.keys) == Set(facts.keys), "\(name): columns \(columns.keys.sorted())")
            for (column, want) in facts {
                let got = try #require(columns[column], "\(name): no column \(column)")
                let lists = want["lists"] as? Int ?? -1, maps = want["maps"] as? Int ?? -1, present = want["present"] as? Int ?? -1
                #expect(got["present"] as? Int == present, "\(name).\(column): present")
                #expect(got["lists"] as? Int == lists, "\(name).\(column): lists \(got["lists"] ?? "nil") of \(lists)")
                #expect(got["maps"] as? Int == maps, "\(name).\(column): maps")
                #expect(got["minItems"] as? Int == want["minItems"] as? Int, "\(name).\(column): minItems")
                #expect(got["maxItems"] as? Int == want["maxItems"] as? Int, "\(name).\(column): maxItems")
                let keys = want["mapKeys"] as? [String: Int] ?? [:]
                if keys.count > 100 {
                    #expect(got["mapKeysOverflow"] as? Bool == true, "\(name).\(column): \(keys.count) keys")
                    overflowed += 1
                } else {
                    #expect(got["mapKeys"] as? [String: Int] == keys, "\(name).\(column): keys")
                }
                let composite = present > 0 && lists == present ? "list" : present > 0 && maps == present ? "map" : nil
                #expect(got["composite"] as? String == composite, "\(name).\(column): composite")
                if lists + maps > 0 {
                    #expect(got["candidateKey"] as? Bool == false, "\(name).\(column): a list or map is no key")
                    #expect(got["minLength"] is NSNull || column == "mixed", "\(name).\(column): no length of a list's text")
                }
            }
            #expect(columns["retries"]?["inferredType"] as? String == "integer", "\(name): JSON numbers 0 and 1 are integers")
            #expect(columns["paid"]?["inferredType"] as? String == "boolean", "\(name): JSON true and false are booleans")

            let rules = try String(contentsOf: tmp.url.appendingPathComponent(rulesName), encoding: .utf8)
            #expect(rules.contains("        tags: { path: \"tags\", as: list }\n"), "\(name):\n\(rules)")
            #expect(rules.contains("        address: { path: \"address\", as: map }\n"), "\(name):\n\(rules)")
            #expect(rules.contains("        requiredKeys: [\"city\"]\n"), "\(name):\n\(rules)")
            // Declared where every value is a list or a map; the rules of a column with lists or maps are those of lists and maps.
            for (column, c) in columns {
                #expect(rules.contains("        \(column): { path: ") == (c["composite"] is String), "\(name).\(column):\n\(rules)")
            }
            for r in source["suggestedRules"] as? [[String: Any]] ?? [] {
                guard let column = r["column"] as? String, let c = columns[column],
                      (c["lists"] as? Int ?? 0) + (c["maps"] as? Int ?? 0) > 0 else { continue }
                let kind = (r["id"] as? String ?? "").split(separator: ".").last.map(String.init) ?? ""
                #expect(["required", "minCount", "maxCount", "requiredKeys", "allowedKeys"].contains(kind), "\(name): \(r)")
            }
            // Only the flagged outliers fail, rule by rule: here none.
            let audit = try Auditor.run(["run", rulesName, "--format", "json", "-q"], in: tmp.url)
            #expect(audit.status == 0, "\(name): \(audit)\n\(rules)")
            let report = try Self.object(audit.stdout)
            #expect((report["inputs"] as? [[String: Any]])?.first?["records"] as? Int == rows, "\(name)")
            var ran = Set<String>()
            for r in report["rules"] as? [[String: Any]] ?? [] {
                ran.insert(r["id"] as? String ?? "?")
                #expect(r["violations"] as? Int == 0, "\(name): \(r["id"] ?? "?") \(r["violations"] ?? "nil")")
            }
            let low = (facts["tags"]?["minItems"] as? Int ?? 0) >= 1
            #expect(ran.contains("\(name.dropLast(6)).tags.maxCount") && ran.contains("\(name.dropLast(6)).address.allowedKeys"), "\(name): \(ran)")
            #expect(ran.contains("\(name.dropLast(6)).tags.minCount") == low, "\(name): minCount only where every list has an item")
        }
        #expect(overflowed > 0, "a column with more keys than the profile counts was generated")
    }

    @Test("The text report says list, map, items and keys")
    func text() throws {
        let tmp = try Scratch("profile-composite-text")
        defer { tmp.remove() }
        try tmp.write("t.jsonl", """
            {"id": 1, "tags": ["a", "bb"], "addr": {"city": "Oslo", "zip": "0150"}, "n": 0}
            {"id": 2, "tags": [], "addr": {"city": "Bergen"}, "n": 1}
            {"id": 3, "tags": ["x", 1, null], "addr": "none", "n": 1}

            """)
        let out = try assertExecute(["profile", "t.jsonl"], in: tmp.url, exitCode: 0).stdoutText
        #expect(out.contains("  tags: list 100 %; distinct 3; items 0–3; top "), "\(out)")
        #expect(out.contains("  addr: string 100 %; distinct 3; length 4–4; maps 66.7 %; entries 1–2; keys 'city' 100 %, 'zip' 50 %;"), "\(out)")
        #expect(out.contains("  n: integer 100 %;"), "\(out)")
    }

    @Test("A column of lists or maps with no rule to draft still gets a valid attribute; Parquet lists and maps round-trip")
    func noRuleToDraft() throws {
        let tmp = try Scratch("profile-composite-empty")
        defer { tmp.remove() }
        // Lists of 0 to 300 items, one missing: no minCount, no maxCount, no required.
        let lines = (0 ..< 20).map { i in
            i == 3 ? "{\"id\": \(i)}" : "{\"id\": \(i), \"l\": [\((0 ..< i * 15).map(String.init).joined(separator: ","))]}"
        }
        try tmp.write("long.jsonl", lines.joined(separator: "\n") + "\n")
        let fixtures = Auditor.packageRoot.appendingPathComponent("Tests/ReadersTests/Fixtures/parquet")
        for name in ["nested-plain-none-v1.parquet", "nested-dict-snappy-v2.parquet"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: tmp.url.appendingPathComponent(name))
        }
        for file in ["long.jsonl", "nested-plain-none-v1.parquet", "nested-dict-snappy-v2.parquet"] {
            try assertExecute(["profile", file, "--rules-out", "\(file).yml"], in: tmp.url, exitCode: 0)
            try assertExecute(["check", "\(file).yml"], in: tmp.url, exitCode: 0)
            let audit = try Auditor.run(["run", "\(file).yml", "--format", "json", "-q"], in: tmp.url)
            #expect(audit.status == 0, "\(file): \(audit)")
        }
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("long.jsonl.yml"), encoding: .utf8)
        #expect(rules.contains("      l:\n        # 100 % of 19 values are lists (0–285 items)\n        type: string\n"), "\(rules)")
    }
}
