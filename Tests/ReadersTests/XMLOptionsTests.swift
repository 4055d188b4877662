import Auditor
@_spi(Testing) import AuditorReaders
import Testing

/// The `xml:` block: decoding, and every mistake as a diagnostic at its place in the rules file.
@Suite struct XMLOptionsTests {
    @Test func decodesAFullBlock() throws {
        let node = Y.m([
            ("record", "/p:people/p:person"),
            ("namespaces", .m([("p", .q("urn:people"))])),
            ("fields", .m([
                ("id", .q("@id")),
                ("city", "address/city"),
                ("phones", .m([("path", "phones/phone"), ("as", "list")])),
                ("address", .m([("path", "address"), ("as", "map")])),
                ("title", .m([("path", "p:title")])),
            ])),
        ]).node()
        let (options, diagnostics) = XMLReaderOptions.decode(node)
        #expect(diagnostics == [])
        #expect(options == XMLReaderOptions(
            record: "/p:people/p:person",
            fields: ["id": "@id", "city": "address/city", "phones": .list("phones/phone"),
                     "address": .map("address"), "title": "p:title"],
            namespaces: ["p": "urn:people"]))
        #expect(try XMLReader.factory.decodeOptions(node) as? XMLReaderOptions == options)
    }

    @Test func unknownKeysGetADidYouMean() {
        let node = Y.m([("recrod", "person"), ("feilds", .m([]))]).node()
        let messages = XMLReaderOptions.decode(node).diagnostics.map(\.message)
        #expect(messages.contains("unknown key 'recrod' in the xml block; did you mean 'record'?"))
        #expect(messages.contains("unknown key 'feilds' in the xml block; did you mean 'fields'?"))
        #expect(messages.contains { $0.hasPrefix("the xml block needs 'record:'") })
    }

    @Test func diagnosticsPointAtTheNode() throws {
        // line numbers: 1 block, 2 record, 3 fields, 4 phones, 5 path, 6 as
        let node = Y.m([
            ("record", "person"),
            ("fields", .m([("phones", .m([("path", "phones/phone"), ("as", "lists")]))])),
        ]).node()
        let diagnostics = XMLReaderOptions.decode(node).diagnostics
        #expect(diagnostics.count == 1)
        let d = try #require(diagnostics.first)
        #expect(d.mark == ConfigMark(file: "rules.yml", line: 6, column: 1))
        #expect(d.message == "'as' must be one of text, list, map; got 'lists'; did you mean 'list'?")
        #expect(d.description.hasPrefix("rules.yml:6:1: "))
    }

    @Test func undeclaredPrefixes() throws {
        let node = Y.m([
            ("record", "a:entry"),
            ("namespaces", .m([("atom", "http://www.w3.org/2005/Atom")])),
            ("fields", .m([("title", "atm:title")])),
        ]).node()
        let diagnostics = XMLReaderOptions.decode(node).diagnostics
        #expect(diagnostics.count == 2)
        #expect(diagnostics[0].mark.line == 2)
        #expect(diagnostics[0].message.contains("the namespace prefix 'a' in 'a:entry' is not declared"))
        #expect(diagnostics[1].message.contains("or did you mean 'atom'?"))
    }

    @Test(arguments: [
        ("people/person", "not supported for 'record:'"),
        ("@id", "not an element name"),
        ("/people/@id", "not the attribute"),
        ("", "the record path is empty"),
        ("per son", "not a valid XML name"),
        ("/people//person", "empty step"),
        ("/people/*", "not supported"),
        ("//a/b", "is not supported"),
    ])
    func invalidRecordPaths(_ path: String, _ message: String) {
        let diagnostics = XMLReaderOptions.decode(Y.m([("record", .q(path))]).node()).diagnostics
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains(message) == true, "\(diagnostics)")
    }

    @Test(arguments: [
        ("/name", "relative to the record element"),
        ("a/@b/c", "must be the last step"),
        ("a[1]", "not supported"),
        ("1abc", "not a valid XML name"),
        ("a/../b", "not supported"),
        ("x:y:z", "not a valid XML name"),
    ])
    func invalidFieldPaths(_ path: String, _ message: String) {
        let node = Y.m([("record", "person"), ("fields", .m([("f", .q(path))]))]).node()
        let diagnostics = XMLReaderOptions.decode(node).diagnostics
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains(message) == true, "\(diagnostics)")
    }

    @Test func fieldShapesAndTypes() {
        let node = Y.m([("record", "person"), ("fields", .m([
            ("a", .m([("path", "@kind"), ("as", "map")])),
            ("b", .m([("as", "list")])),
            ("c", .l(["x"])),
            ("d", .m([("path", "x"), ("list", "true")])),
        ]))]).node()
        let messages = XMLReaderOptions.decode(node).diagnostics.map(\.message)
        #expect(messages.count == 4, "\(messages)")
        #expect(messages.contains { $0.contains("a map is read from an element's children") })
        #expect(messages.contains { $0.contains("xml.fields.b needs 'path:'") })
        #expect(messages.contains { $0.contains("the path of field 'c' must be a string") })
        #expect(messages.contains { $0.contains("unknown key 'list' in xml.fields.d") })
    }

    @Test func namespaceBlockProblems() {
        let node = Y.m([("record", "person"), ("namespaces", .m([
            ("xml", "urn:x"), ("1p", "urn:y"), ("ok", .q("")), ("p", "urn:p"), ("p", "urn:q"),
        ]))]).node()
        let messages = XMLReaderOptions.decode(node).diagnostics.map(\.message)
        #expect(messages.contains("the prefix 'xml' is reserved by XML and cannot be redeclared"))
        #expect(messages.contains("'1p' is not a valid namespace prefix"))
        #expect(messages.contains("the namespace URI of 'ok' is empty"))
        #expect(messages.contains("duplicate key 'p' in xml.namespaces"))
    }

    @Test func notAMapping() {
        let diagnostics = XMLReaderOptions.decode(Y.s("person").node()).diagnostics
        #expect(diagnostics.map(\.message) == ["the xml block must be a mapping, not a scalar"])
    }

    @Test func programmaticOptionsAreCheckedOnOpen() throws {
        let path = try XMLTest.write("<r/>")
        let error = #expect(throws: AuditError.self) {
            try XMLReader(path: path, fields: ["a"], options: XMLReaderOptions(record: "r", fields: ["a": "q:a"]))
        }
        #expect(error?.code == .invalidRules)
        #expect(error?.message.contains("the namespace prefix 'q'") == true)
    }
}
