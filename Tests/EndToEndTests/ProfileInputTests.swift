import Foundation
import TestSupport
import Testing

/// How `auditor profile` reads a file. A CSV file in another dialect (`;`, TAB, `|`) is read
/// with the delimiter its first records tell; the profile says so and drafts `csv: { delimiter: … }`
/// so that the audit reads the file as the profile did (checked on tables written by Python's
/// csv module, a writer this code did not write). A file whose extension tells no format is
/// read as `--source-format NAME=FORMAT` says. A record element given with a namespace prefix,
/// which only a rules file can declare, is a usage error that names the unprefixed element.
@Suite("Profile: how an input is read (its format, CSV dialect, XML record element)")
struct ProfileInputTests {
    /// Writes `count` tables as `N.csv` (or `N.tsv`) into argv[1] and prints, per table, its
    /// file, delimiter, header and row count as JSON. Header names hold no candidate delimiter;
    /// values hold every one of them, quotes and line breaks, and decimal commas.
    static let generator = #"""
        import csv, json, random, sys
        out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        rnd = random.Random(seed)
        names = ['id', 'name', 'city', 'amount', 'when', 'note', 'code', 'qty', 'unit price', 'Straße', 'zoë']
        values = ['1', '42', '-7', '3,50', '0,99', '1e3', 'Ann', 'Bob, Jr.', 'x;y', 'p|q', 'tab\there', 'say "hi"',
                  'two\nlines', '', ' spaced ', 'Zoë', '2026-12-07', 'a;b,c|d']
        tables = []
        for n in range(count):
            delimiter = rnd.choice([',', ';', '\t', '|'])
            ext = 'tsv' if delimiter == '\t' and rnd.random() < 0.5 else 'csv'
            header = rnd.sample(names, rnd.randint(2, 6))
            rows = rnd.randint(0, 40) if n % 8 else rnd.randint(1500, 3000)
            name = f'{n}.{ext}'
            with open(f'{out}/{name}', 'w', newline='', encoding='utf-8') as f:
                w = csv.writer(f, delimiter=delimiter, lineterminator=rnd.choice(['\n', '\r\n']))
                w.writerow(header)
                for _ in range(rows):
                    w.writerow([rnd.choice(values) for _ in header])
            tables.append({'file': name, 'delimiter': delimiter, 'header': header, 'rows': rows})
        print(json.dumps(tables))
        """#

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("Generated tables in each dialect: the profile reads the header's columns and every record; the drafted rules read them too")
    func generatedTables() throws {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let tmp = try Scratch("profile-delimiter")
        defer { tmp.remove() }
        let made = try ChildProcess.run([python.path, "-c", Self.generator, tmp.url.path, "40", "17"])
        try #require(made.status == 0, "\(made)")
        let tables = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: Any]])
        #expect(tables.count == 40)
        var dialects = Set<String>()
        for table in tables {
            let file = try #require(table["file"] as? String)
            let delimiter = try #require(table["delimiter"] as? String)
            let header = try #require(table["header"] as? [String])
            let rows = try #require(table["rows"] as? Int)
            let standard = file.hasSuffix(".tsv") ? "\t" : ","
            dialects.insert(delimiter)

            let rulesName = "\(file).yml"
            let profiled = try assertExecute(["profile", file, "--format", "json", "--rules-out", rulesName], in: tmp.url, exitCode: 0)
            let source = try #require((try Self.object(profiled.stdout)["sources"] as? [[String: Any]])?.first)
            let columns = (source["columns"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(columns == header, "\(file) (\(delimiter.debugDescription)-delimited): columns \(columns)")
            #expect(source["records"] as? Int == rows, "\(file): \(source["records"] ?? "nil") records of \(rows)")
            #expect(source["malformedRecords"] as? Int == 0, "\(file)")
            let options = source["options"] as? [String: String] ?? [:]
            #expect(options == (delimiter == standard ? [:] : ["delimiter": delimiter]), "\(file): options \(options)")

            // The drafted rules say the delimiter: the audit reads every record with the header's columns.
            let rules = try String(contentsOf: tmp.url.appendingPathComponent(rulesName), encoding: .utf8)
            if delimiter != standard {
                let shown = delimiter == "\t" ? "\\t" : delimiter
                #expect(rules.contains("csv: { delimiter: \"\(shown)\" }"), "\(file):\n\(rules)")
            }
            let audit = try Auditor.run(["run", rulesName, "--format", "json", "-q"], in: tmp.url)
            #expect(audit.status == 0 || audit.status == 1, "\(file): \(audit)")
            let inputs = try Self.object(audit.stdout)["inputs"] as? [[String: Any]] ?? []
            #expect(inputs.first?["records"] as? Int == rows, "\(file): the audit read \(inputs.first?["records"] ?? "nil") of \(rows)")
        }
        #expect(dialects.count == 4, "every delimiter was generated: \(dialects)")
    }

    @Test("The text report names the delimiter it found")
    func textSaysSo() throws {
        let tmp = try Scratch("profile-delimiter-text")
        defer { tmp.remove() }
        try tmp.write("prices.csv", "id;name;price\r\n1;Ann;3,50\r\n2;Bob;4,75\r\n")
        let text = try assertExecute(["profile", "prices.csv"], in: tmp.url, exitCode: 0)
        #expect(text.stdoutText.hasPrefix("prices.csv (csv, ';'-delimited, decimal comma in 'price'): 2 records\n"), "\(text)")
        #expect(text.stdoutText.contains("  price: "), "\(text)")
        // -o and -j, as `auditor run` takes them.
        try assertExecute(["profile", "prices.csv", "-o", "profile.txt", "-j", "1"], in: tmp.url, exitCode: 0)
        #expect(try String(contentsOf: tmp.url.appendingPathComponent("profile.txt"), encoding: .utf8) == text.stdoutText)
        try assertExecute(["profile", "prices.csv", "-j", "0"], in: tmp.url, exitCode: 64, stderrContains: ["--jobs must be at least 1"])
    }

    @Test("--source-format reads a file whose extension tells no format, and the drafted rules say the format")
    func sourceFormat() throws {
        let tmp = try Scratch("profile-source-format")
        defer { tmp.remove() }
        try tmp.write("export.txt", "id|name\n1|Ann\n2|Bob\n")
        try assertExecute(["profile", "export.txt"], in: tmp.url, exitCode: 64,
                          stderrContains: ["cannot tell the format of 'export.txt' from its extension; name it with --source-format export=FORMAT"])
        let text = try assertExecute(["profile", "export.txt", "--source-format", "export=csv", "--rules-out", "rules.yml"], in: tmp.url, exitCode: 0)
        #expect(text.stdoutText.hasPrefix("export.txt (csv, '|'-delimited): 2 records\n"), "\(text)")
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        #expect(rules.contains("format: csv\n    csv: { delimiter: \"|\" }\n"), "\(rules)")
        let audit = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 0)
        #expect(audit.stdoutText.contains("2 records"), "\(audit)")
        // NAME=PATH names the source the format is for.
        try assertExecute(["profile", "people=export.txt", "--source-format", "people=csv"], in: tmp.url, exitCode: 0)
    }

    @Test("--source-format: a pair that is not NAME=FORMAT, a name of no source, or an unknown format is a usage error")
    func sourceFormatMistakes() throws {
        let tmp = try Scratch("profile-source-format-errors")
        defer { tmp.remove() }
        try tmp.write("export.txt", "id\n1\n")
        for (arguments, message) in [
            (["export="], "--source-format takes NAME=FORMAT, e.g. --source-format export=csv; got 'export='"),
            (["csv"], "--source-format takes NAME=FORMAT"),
            (["exprot=csv"], "--source-format names 'exprot', which is no source of this profile; its sources are 'export'"),
            (["export=cvs"], "--source-format: unknown format 'cvs' (known formats: csv, "),
        ] {
            try assertExecute(["profile", "export.txt"] + arguments.flatMap { ["--source-format", $0] }, in: tmp.url, exitCode: 64,
                              stderrContains: [message])
        }
    }

    @Test("An XML record element with a prefix: 64, naming the element without it, which then profiles")
    func prefixedRecordElement() throws {
        let tmp = try Scratch("profile-xml-prefix")
        defer { tmp.remove() }
        try tmp.write("ns.xml", "<p:people xmlns:p=\"urn:x\"><p:person id=\"1\"><p:name>Ann</p:name></p:person></p:people>\n")
        try assertExecute(["profile", "ns.xml#/p:people/p:person"], in: tmp.url, exitCode: 64,
                          stderrContains: ["the namespace prefix 'p' in '/p:people/p:person' is not declared",
                                           "name the element without its prefix, '/people/person', which matches it in any namespace"])
        try assertExecute(["profile", "ns.xml", "--record", "p:person"], in: tmp.url, exitCode: 64, stderrContains: ["prefix, 'person',"])
        let text = try assertExecute(["profile", "ns.xml#/people/person"], in: tmp.url, exitCode: 0)
        #expect(text.stdoutText.hasPrefix("ns.xml (xml, record '/people/person'): 1 record\n"), "\(text)")
        // Not named at all: the root's only child, read without its prefix.
        let sniffed = try assertExecute(["profile", "ns.xml"], in: tmp.url, exitCode: 0)
        #expect(sniffed.stdoutText.hasPrefix("ns.xml (xml, record '/people/person'): 1 record\n"), "\(sniffed)")
        // Not a namespace problem: no such advice.
        let bad = try assertExecute(["profile", "ns.xml#a b"], in: tmp.url, exitCode: 64, stderrContains: ["is not a valid XML name"])
        #expect(!bad.stderrText.contains("namespace"), "\(bad)")
    }

    /// Writes `count` XML documents as `N.xml` into argv[1], with records at various depths,
    /// repeated children inside them, comments, processing instructions, CDATA, a document type
    /// and namespace prefixes, and prints per document the record path that ElementTree's tree
    /// gives (the shallowest element path that repeats, the earliest in document order on a
    /// tie, else the root's first child) and how many elements have it.
    static let xmlGenerator = #"""
        import json, random, sys
        import xml.etree.ElementTree as ET
        out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        rnd = random.Random(seed)
        docs = []
        for n in range(count):
            prefix = 'p:' if n % 3 == 0 else ''
            wrappers = ['export', 'data', 'batch'][:rnd.randint(0, 2)]
            record = rnd.choice(['person', 'row', 'item', 'élève'])
            rows = rnd.randint(1, 40)
            tagged = rnd.choice([0, 1, 4])        # at most one tag per record: a text, not a list
            parts = ['<?xml version="1.0" encoding="UTF-8"?>\n']
            if rnd.random() < 0.5: parts.append('<!DOCTYPE root [ <!ENTITY co "x"> <!ELEMENT root ANY> ]>\n')
            parts.append('<!-- <fake/><fake/> -->\n')
            ns = ' xmlns:p="urn:test"' if prefix else ''
            root = rnd.choice(['root', 'people', 'table'])
            parts.append(f'<{prefix}{root}{ns}>')
            if rnd.random() < 0.5: parts.append(f'<{prefix}header version="1 > 0"/>')
            for w in wrappers: parts.append(f'<{prefix}{w}>')
            for r in range(rows):
                tags = ''.join(f'<{prefix}tag>t{t}</{prefix}tag>' for t in range(rnd.randint(0, tagged)))
                cdata = '<![CDATA[<fake/><fake/>]]>' if rnd.random() < 0.3 else ''
                name = f'<{prefix}name>n{r}{cdata}</{prefix}name>'
                parts.append(f'<{prefix}{record} id="{r}" note=\'a/b > c\'>{name}{tags}<?pi <fake/>?></{prefix}{record}>')
            for w in reversed(wrappers): parts.append(f'</{prefix}{w}>')
            parts.append(f'</{prefix}{root}>\n')
            text = ''.join(parts)
            with open(f'{out}/{n}.xml', 'w', encoding='utf-8') as f: f.write(text)
            tree = ET.fromstring(text.encode('utf-8'))
            counts, order = {}, []
            def walk(e, path):
                for c in e:
                    p = path + '/' + c.tag.split('}')[-1]
                    if p not in counts: order.append(p)
                    counts[p] = counts.get(p, 0) + 1
                    walk(c, p)
            top = '/' + tree.tag.split('}')[-1]
            walk(tree, top)
            repeated = [p for p in order if counts[p] >= 2]
            found = min(repeated, key=lambda p: p.count('/')) if repeated else next(p for p in order if p.count('/') == 2)
            records = [e for e in tree.iter() if e.tag.split('}')[-1] == found.split('/')[-1]]
            tags = [sum(1 for c in e if c.tag.split('}')[-1] == 'tag') for e in records]
            docs.append({'file': f'{n}.xml', 'record': found, 'records': counts[found],
                         'tagged': sum(1 for t in tags if t > 0), 'fewest': min([t for t in tags if t > 0], default=0), 'most': max(tags)})
        print(json.dumps(docs))
        """#

    @Test("Generated XML documents: the record element is the one ElementTree's tree repeats first, every one is read, its repeated child a list")
    func generatedDocuments() throws {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let tmp = try Scratch("profile-xml-record")
        defer { tmp.remove() }
        let made = try ChildProcess.run([python.path, "-c", Self.xmlGenerator, tmp.url.path, "30", "11"])
        try #require(made.status == 0, "\(made)")
        let docs = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: Any]])
        #expect(docs.count == 30)
        for doc in docs {
            let file = try #require(doc["file"] as? String)
            let record = try #require(doc["record"] as? String)
            let profiled = try assertExecute(["profile", file, "--format", "json", "--rules-out", "\(file).yml"], in: tmp.url, exitCode: 0)
            let source = try #require((try Self.object(profiled.stdout)["sources"] as? [[String: Any]])?.first)
            #expect(source["options"] as? [String: String] == ["record": record], "\(file)")
            #expect(source["records"] as? Int == doc["records"] as? Int,
                    "\(file): \(source["records"] ?? "nil") records of \(doc["records"] ?? "nil")")
            let rules = try String(contentsOf: tmp.url.appendingPathComponent("\(file).yml"), encoding: .utf8)
            // A child element that repeats in some record is read as a list, and declared one.
            let tag = (source["columns"] as? [[String: Any]])?.first { $0["name"] as? String == "tag" }
            if let most = doc["most"] as? Int, most >= 2 {
                #expect(tag?["composite"] as? String == "list", "\(file): \(tag ?? [:])")
                #expect(tag?["lists"] as? Int == doc["tagged"] as? Int, "\(file): \(tag ?? [:])")
                #expect(tag?["minItems"] as? Int == doc["fewest"] as? Int && tag?["maxItems"] as? Int == most, "\(file): \(tag ?? [:])")
                #expect(rules.contains("    xml:\n      record: \"\(record)\"\n      fields:\n        tag: { path: \"tag\", as: list }\n"),
                        "\(file):\n\(rules)")
                #expect(rules.contains("maxCount: \(most)\n"), "\(file):\n\(rules)")
            } else {
                #expect(tag?["composite"] as? String == nil, "\(file): \(tag ?? [:])")
                #expect(rules.contains("    xml: { record: \"\(record)\" }\n"), "\(file):\n\(rules)")
            }
            let audit = try Auditor.run(["run", "\(file).yml", "--format", "json", "-q"], in: tmp.url)
            #expect(audit.status == 0, "\(file): \(audit)")
        }
        // Nothing to tell it by: a usage error that asks for it.
        try tmp.write("empty.xml", "<people/>\n")
        try assertExecute(["profile", "empty.xml"], in: tmp.url, exitCode: 64,
                          stderrContains: ["no element repeats in the XML file 'empty.xml', so name its record element: "
                                           + "'empty.xml#ELEMENT' or --record ELEMENT"])
    }

    @Test("An SQLite database named without its table: the one named like the file, else its only table, else every table")
    func sqliteTable() throws {
        let tmp = try Scratch("profile-sqlite-table")
        defer { tmp.remove() }
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        // Python's sqlite3 makes the databases and says what each table and view of shop.sqlite holds.
        let made = try ChildProcess.run([python.path, "-c", """
            import json, random, sqlite3, sys
            one = sqlite3.connect(sys.argv[1] + '/export.sqlite')
            one.execute('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)')
            one.executemany('INSERT INTO items VALUES (?, ?)', [(1, 'Ann'), (2, 'Bob')]); one.commit()
            shop = sqlite3.connect(sys.argv[1] + '/shop.sqlite')
            rng = random.Random(7)
            shop.execute('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)')
            shop.execute('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, total REAL NOT NULL)')
            shop.executemany('INSERT INTO customers VALUES (?, ?)', [(i, rng.choice(['Ann', 'Bob', 'Cy']) + str(i)) for i in range(1, 41)])
            shop.executemany('INSERT INTO orders VALUES (?, ?, ?)', [(i, rng.randint(1, 40), rng.randint(1, 999) / 4) for i in range(1, 301)])
            shop.execute('CREATE VIEW big_orders AS SELECT id, total FROM orders WHERE total > 200')
            shop.commit()
            tables = [r[0] for r in shop.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")]
            print(json.dumps({t: [shop.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0],
                                  [c[1] for c in shop.execute(f'PRAGMA table_info("{t}")')]] for t in tables}))
            """, tmp.url.path])
        try #require(made.status == 0, "\(made)")
        let want = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: [Any]])
        let text = try assertExecute(["profile", "export.sqlite", "--rules-out", "rules.yml"], in: tmp.url, exitCode: 0)
        #expect(text.stdoutText.hasPrefix("export.sqlite (sqlite, table 'items'): 2 records\n"), "\(text)")
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        #expect(rules.contains("    format: sqlite\n    sqlite: { table: \"items\" }\n"), "\(rules)")
        try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 0)

        // Several tables, none named like the file: each is a source named after it, and the
        // references between them are suggested.
        let shop = try assertExecute(["profile", "shop.sqlite", "--format", "json", "--rules-out", "shop.yml"], in: tmp.url, exitCode: 0)
        let report = try #require(try JSONSerialization.jsonObject(with: shop.stdout) as? [String: Any])
        let sources = try #require(report["sources"] as? [[String: Any]])
        #expect(sources.map { $0["name"] as? String } == want.keys.sorted())
        for source in sources {
            let name = try #require(source["name"] as? String)
            #expect((source["options"] as? [String: String]) == ["table": name])
            #expect(source["records"] as? Int == want[name]?[0] as? Int, "\(name)")
            #expect((source["columns"] as? [[String: Any]])?.map { $0["name"] as? String } == (want[name]?[1] as? [String]), "\(name)")
        }
        let drafted = try String(contentsOf: tmp.url.appendingPathComponent("shop.yml"), encoding: .utf8)
        #expect(drafted.hasPrefix("# Rules suggested by `auditor profile` from shop.sqlite.\n"), "\(drafted)")
        #expect(drafted.contains("customer_id_ref: { attribute: customer_id, references: Customers.id }"), "\(drafted)")
        try assertExecute(["run", "shop.yml"], in: tmp.url, exitCode: 0)

        // Tables named after one file: each source is named after its table; named otherwise, two names that clash are refused.
        let named = try assertExecute(["profile", "shop.sqlite#orders", "shop.sqlite#customers"], in: tmp.url, exitCode: 0)
        #expect(named.stdoutText.hasPrefix("shop.sqlite (sqlite, table 'orders'): 300 records\n"), "\(named)")
        try assertExecute(["profile", "--format", "json", "x=shop.sqlite#orders", "x=shop.sqlite#customers"], in: tmp.url, exitCode: 64,
                          stderrContains: ["two sources are named 'x'; name them: NAME=PATH"])
        // --table names the table of every database.
        let table = try assertExecute(["profile", "shop.sqlite", "--table", "customers"], in: tmp.url, exitCode: 0)
        #expect(table.stdoutText.hasPrefix("shop.sqlite (sqlite, table 'customers'): 40 records\n"), "\(table)")
    }

    @Test("The drafted key is the candidate named id, else one ending in id, else the first; an integer before text")
    func draftedKey() throws {
        let tmp = try Scratch("profile-key")
        defer { tmp.remove() }
        // Every column is distinct: each is a candidate key. In XML, attributes come after child elements.
        try tmp.write("o.xml", """
            <orders xmlns="urn:shop">
              <order id="1"><total>12.50</total><ref>A</ref></order>
              <order id="2"><total>7</total><ref>B</ref></order>
            </orders>

            """)
        try tmp.write("a.csv", "total,code,order_id,label_id\n1.5,x,1,a\n2.5,y,2,b\n")
        try tmp.write("b.csv", "total,code\n1.5,x\n2.5,y\n")
        for (file, key) in [("o.xml", "id"), ("a.csv", "order_id"), ("b.csv", "code")] {
            try assertExecute(["profile", file, "--rules-out", "\(file).yml"], in: tmp.url, exitCode: 0)
            let rules = try String(contentsOf: tmp.url.appendingPathComponent("\(file).yml"), encoding: .utf8)
            #expect(rules.contains("    key: [\(key)]\n"), "\(file): \(rules)")
            try assertExecute(["run", "\(file).yml"], in: tmp.url, exitCode: 0)
        }
    }
}
