import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// The XML reader through the conformance suite: every test reads with chunk sizes 1, 2, 7
/// and 4096 and checks the exact records (values and start-tag lines).
@Suite struct XMLReaderTests {
    @Test func peopleShapeWithDefaultMappingMissingAndEmpty() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <people>
          <person id="1"><name>Ann Lee</name><email>ann@example.com</email><notes>ok</notes></person>
          <person id="2"><name>Bo</name><notes></notes></person>
          <person id="3"><email/><notes/></person>
          <person><name>No Id</name></person>
        </people>

        """
        try XMLTest.check(xml, record: "person", fields: ["id", "name", "email", "notes"], expected: [
            rec(3, "1", "Ann Lee", "ann@example.com", "ok"),
            rec(4, "2", "Bo", nil, ""),
            rec(5, "3", nil, "", ""),
            rec(6, nil, "No Id", nil, nil),
        ])
    }

    @Test func childElementWinsOverAttributeOfTheSameName() throws {
        let xml = #"<r><p id="attr"><id>child</id></p><p id="only-attr"/><p><id>only-child</id></p></r>"#
        try XMLTest.check(xml, record: "p", fields: ["id"], expected: [
            rec(1, "child"), rec(1, "only-attr"), rec(1, "only-child"),
        ])
    }

    @Test func attributesAndNestedPaths() throws {
        let xml = """
        <people>
          <person id="7" kind="staff">
            <address type="home"><city>Paris</city><zip>75001</zip></address>
            <address type="work"><city>Lyon</city></address>
          </person>
          <person id="8"><address><zip>1000</zip></address></person>
        </people>
        """
        try XMLTest.check(
            xml, record: "/people/person", fields: ["key", "kind", "city", "zip", "addressType"],
            map: ["key": "@id", "city": "address/city", "zip": "./address/zip", "addressType": "address/@type"],
            expected: [
                rec(2, "7", "staff", "Paris", "75001", "home", issues: ["xml.field.repeated", "xml.field.repeated"]),
                rec(6, "8", nil, nil, "1000", nil),
            ])
    }

    @Test func repeatedSingleValuedFieldKeepsTheFirstAndIsFlagged() throws {
        let path = try XMLTest.write("<r><p><n>a</n><n>b</n><n>c</n></p><p><n>d</n></p></r>")
        let reader = try XMLTest.reader(path, record: "p", fields: ["n"])
        let chunk = try #require(try reader.nextChunk(maxRecords: 10))
        #expect(chunk.string(chunk.columns[0][0]) == "a")
        #expect(chunk.issues == [RecordIssue(row: 0, ruleID: "xml.field.repeated",
                                             parameters: ["field": "n", "count": "3"], excludesRecord: false)])
        #expect(reader.structuralRules.map(\.id) == ["xml.field.repeated"])
    }

    @Test func listsOfRepeatedChildren() throws {
        let xml = """
        <people>
        <person><phones><phone type="m">+1 555</phone><phone>+44 20</phone></phones><tag>a</tag><tag/><tag>c</tag></person>
        <person><phones/></person>
        <person><phones><phone type="x"></phone></phones></person>
        </people>
        """
        try XMLTest.check(
            xml, record: "person", fields: ["phones", "tags", "types"],
            map: ["phones": .list("phones/phone"), "tags": .list("tag"), "types": .list("phones/phone/@type")],
            expected: [
                rec(2, "[+1 555, +44 20]", "[a, , c]", "[m]"),
                rec(3, nil, nil, nil),
                rec(4, "[]", nil, "[x]"),
            ])
    }

    @Test func listItemsAreTextCellsInTheChunk() throws {
        let path = try XMLTest.write("<r><p><t>x</t><t>yy</t></p></r>")
        let reader = try XMLTest.reader(path, record: "p", fields: ["t"], map: ["t": .list("t")])
        let chunk = try #require(try reader.nextChunk(maxRecords: 1))
        let cell = chunk.columns[0][0]
        #expect(cell.tag == .list)
        guard case .list(let items) = chunk.composites[Int(cell.payload)] else {
            Issue.record("not a list")
            return
        }
        #expect(items.map(\.tag) == [.text, .text])
        #expect(items.map { chunk.string($0) } == ["x", "yy"])
    }

    @Test func mapsOfChildElements() throws {
        let xml = """
        <people>
        <person><address><street>1 Main St</street><city>Springfield</city><geo><lat>1</lat><lon>2</lon></geo></address></person>
        <person><address/></person>
        <person/>
        </people>
        """
        let records = try XMLTest.check(
            xml, record: "person", fields: ["address", "whole"],
            map: ["address": .map("address"), "whole": .map(".")],
            expected: [
                rec(2, "{street: 1 Main St, city: Springfield, geo: 12}",
                    "{address: 1 Main StSpringfield12}"),
                rec(3, "{}", "{address: }"),
                rec(4, nil, "{}"),
            ])
        #expect(records.count == 3)
    }

    @Test func mapKeysAndValuesAreStructured() throws {
        let path = try XMLTest.write("<r><p><a><k1>v1</k1><k2/></a></p></r>")
        let reader = try XMLTest.reader(path, record: "p", fields: ["a"], map: ["a": .map("a")])
        let chunk = try #require(try reader.nextChunk(maxRecords: 1))
        guard case .map(let entries) = chunk.composites[Int(chunk.columns[0][0].payload)] else {
            Issue.record("not a map")
            return
        }
        #expect(entries.map(\.key) == ["k1", "k2"])
        #expect(entries.map { chunk.string($0.value) } == ["v1", ""])
    }

    @Test func textIsTheStringValueOfTheElement() throws {
        let xml = "<r><p><name>A <b>bold</b> <!-- no -->move<?pi no?></name><root>x</root></p></r>"
        try XMLTest.check(xml, record: "p", fields: ["name", "self"], map: ["self": "."], expected: [
            rec(1, "A bold move", "A bold movex"),
        ])
    }

    @Test func namespacesMatchByURINotByPrefix() throws {
        let xml = """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
          <entry><title>One</title><dc:creator>Ann</dc:creator></entry>
          <atom:entry xmlns:atom="http://www.w3.org/2005/Atom"><atom:title>Two</atom:title></atom:entry>
          <other:entry xmlns:other="urn:other"><other:title>Not atom</other:title></other:entry>
        </feed>
        """
        let ns = ["a": "http://www.w3.org/2005/Atom", "d": "http://purl.org/dc/elements/1.1/"]
        // prefixed paths: only the Atom namespace, whatever prefix the document uses
        try XMLTest.check(xml, record: "a:entry", fields: ["title", "creator"],
                          map: ["title": "a:title", "creator": "d:creator"], namespaces: ns, expected: [
                              rec(2, "One", "Ann"),
                              rec(3, "Two", nil),
                          ])
        try XMLTest.check(xml, record: "/a:feed/a:entry", fields: ["title"], map: ["title": "a:title"],
                          namespaces: ns, expected: [rec(2, "One"), rec(3, "Two")])
        // unprefixed names match the local name in any namespace (default namespace included)
        try XMLTest.check(xml, record: "entry", fields: ["title"], expected: [
            rec(2, "One"), rec(3, "Two"), rec(4, "Not atom"),
        ])
        // a prefix declared for another URI matches nothing: a data error at the end (issue 13 §1)
        let other = try XMLTest.reader(try XMLTest.write(xml), record: "a:entry", fields: ["title"],
                                       namespaces: ["a": "urn:nope"])
        #expect(try other.nextChunk(maxRecords: 10) == nil)
        #expect(throws: AuditError.self) { try other.finish() }
    }

    @Test func namespacedAttributes() throws {
        let xml = """
        <r xmlns:xl="http://www.w3.org/1999/xlink" xmlns:y="urn:y">
        <link xl:href="a.html" href="plain" xml:lang="fr"/>
        <link y:href="other"/>
        </r>
        """
        try XMLTest.check(xml, record: "link", fields: ["target", "any", "lang"],
                          map: ["target": "@x:href", "any": "@href", "lang": "@xml:lang"],
                          namespaces: ["x": "http://www.w3.org/1999/xlink"], expected: [
                              rec(2, "a.html", "a.html", "fr"),
                              rec(3, nil, "other", nil),
                          ])
    }

    @Test func cdataCharacterReferencesAndPredefinedEntities() throws {
        let xml = """
        <r>
        <p><v><![CDATA[a < b & "c" ]]]></v><w>x<![CDATA[<y>]]>z</w></p>
        <p><v>caf&#233; &#x1F600; &#xE9;</v><w a="&amp;&lt;&gt;&quot;&apos;&#233;">&amp;&lt;&gt;&quot;&apos;</w></p>
        </r>
        """
        try XMLTest.check(xml, record: "p", fields: ["v", "w", "a"], map: ["a": "w/@a"], expected: [
            rec(2, #"a < b & "c" ]"#, "x<y>z", nil),
            rec(3, "café 😀 é", #"&<>"'"#, #"&<>"'é"#),
        ])
    }

    @Test func whitespaceAndNewlinesArePreserved() throws {
        let xml = "<r>\n<p><v>  two\r\nlines  </v><w>\n</w></p>\n</r>"
        try XMLTest.check(xml, record: "p", fields: ["v", "w"], expected: [rec(2, "  two\nlines  ", "\n")])
    }

    @Test(arguments: [Encoding.utf8BOM, .utf16LE, .utf16BE, .latin1])
    func encodings(_ encoding: Encoding) throws {
        let text = """
        <?xml version="1.0" encoding="\(encoding.declared)"?>
        <people>
          <person id="1"><name>Jürgen Müller</name></person>
          <person id="2"><name>Zoë Brontë</name></person>
        </people>

        """
        let path = try XMLTest.write(encoding.encode(text))
        try ReaderConformance.check(expected: [rec(3, "1", "Jürgen Müller"), rec(4, "2", "Zoë Brontë")]) {
            try XMLTest.reader(path, record: "person", fields: ["id", "name"])
        }
    }

    enum Encoding: CustomStringConvertible, Sendable {
        case utf8BOM, utf16LE, utf16BE, latin1

        var description: String { declared + (self == .utf8BOM ? " with BOM" : "") }

        var declared: String {
            switch self {
            case .utf8BOM: return "UTF-8"
            case .utf16LE, .utf16BE: return "UTF-16"
            case .latin1: return "ISO-8859-1"
            }
        }

        func encode(_ s: String) -> [UInt8] {
            switch self {
            case .utf8BOM: return [0xEF, 0xBB, 0xBF] + Array(s.utf8)
            case .utf16LE: return [0xFF, 0xFE] + s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            case .utf16BE: return [0xFE, 0xFF] + s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .latin1: return s.unicodeScalars.map { UInt8($0.value) }
            }
        }
    }

    @Test func linesOfMultiLineRecords() throws {
        let xml = """
        <?xml version="1.0"?>
        <!-- a comment
             on two lines -->
        <people>
          <person id="1">
            <name>Ann</name>
            <notes>line one
        line two
        line three</notes>
          </person>
          <person id="2"><notes><![CDATA[
        x
        ]]></notes></person><person id="3"/>

          <person
              id="4"><name>start tag on two lines: its line is where the tag ends</name></person>
        </people>
        """
        try XMLTest.check(xml, record: "person", fields: ["id", "name"], expected: [
            rec(5, "1", "Ann"),
            rec(11, "2", nil),
            rec(13, "3", nil),
            rec(16, "4", "start tag on two lines: its line is where the tag ends"),
        ])
    }

    /// libxml2 2.9 keeps element lines in 16 bits; past line 65535 the reader must still give
    /// every record its exact line (multi-line records, text first, element first).
    @Test func linesBeyond65535AreExact() throws {
        var xml = "<?xml version=\"1.0\"?>\n<people>\n"
        var line = 3
        for i in 0 ..< 40_000 {
            switch i % 3 {
            case 0:
                xml += "  <p line=\"\(line)\">\n    <name>n\(i)</name>\n  </p>\n"
                line += 3
            case 1:
                xml += "  <p line=\"\(line)\">text\nmore<name>n\(i)</name></p>\n"
                line += 2
            default:
                xml += "<p line=\"\(line)\"><name>n\(i)</name></p><p line=\"\(line)\"/>\n"
                line += 1
            }
        }
        xml += "</people>\n"
        #expect(line > 65_535 + 1000)
        let records = try XMLTest.check(xml, record: "p", fields: ["line"])
        #expect(records.count == 40_000 + 40_000 / 3)
        let wrong = records.filter { String($0.location) != $0.values[0] }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func recordsAtDifferentDepths() throws {
        let xml = """
        <root>
          <item n="1"/>
          <group>
            <item n="2"><item n="nested"/></item>
            <sub><item n="3"/></sub>
          </group>
          <item n="4"/>
        </root>
        """
        try XMLTest.check(xml, record: "item", fields: ["n"],
                          expected: [rec(2, "1"), rec(4, "2"), rec(5, "3"), rec(7, "4")])
        try XMLTest.check(xml, record: "//item", fields: ["n"],
                          expected: [rec(2, "1"), rec(4, "2"), rec(5, "3"), rec(7, "4")])
        try XMLTest.check(xml, record: "/root/item", fields: ["n"], expected: [rec(2, "1"), rec(7, "4")])
        try XMLTest.check(xml, record: "/root/group/item", fields: ["n"], expected: [rec(4, "2")])
        try XMLTest.check(xml, record: "/root/group/sub/item", fields: ["n"], expected: [rec(5, "3")])
        // a path that matches nothing is a data error at the end, not an empty pass (issue 13 §1)
        let wrong = try XMLTest.reader(try XMLTest.write(xml), record: "/group/item", fields: ["n"])
        #expect(try wrong.nextChunk(maxRecords: 10) == nil)
        #expect(throws: AuditError.self) { try wrong.finish() }
        try XMLTest.check(xml, record: "/root", fields: ["item"], map: ["item": .list("item/@n")],
                          expected: [rec(1, "[1, 4]")])
    }

    @Test func noRecords() throws {
        try XMLTest.check("<people/>", record: "person", fields: ["id"], expected: [])
        try XMLTest.check("<people></people>", record: "person", fields: [], expected: [])
    }

    @Test func emptySchemaStillCountsRecords() throws {
        try XMLTest.check("<r><p/><p>x</p></r>", record: "p", fields: [], expected: [rec(1), rec(1)])
    }

    @Test func longTextsAndManyRecordsAreIntact() throws {
        let long = String(repeating: "0123456789abcdef", count: 20_000) // 320 KB, many parser pushes
        var xml = "<r>\n"
        for i in 0 ..< 300 {
            xml += "<p><i>\(i)</i><t>\(i == 150 ? long : "short \(i)")</t></p>\n"
        }
        xml += "</r>"
        let records = try XMLTest.check(xml, record: "p", fields: ["i", "t"])
        #expect(records.count == 300)
        #expect(records[150].values[1] == long)
        #expect(records[299] == rec(301, "299", "short 299"))
    }

    @Test func progressAndSize() throws {
        let xml = "<r>" + String(repeating: "<p><v>x</v></p>", count: 1000) + "</r>"
        let path = try XMLTest.write(xml)
        let reader = try XMLTest.reader(path, record: "p", fields: ["v"])
        #expect(reader.totalBytes == Int64(xml.utf8.count))
        #expect(reader.locationStyle == .element(path: "p"))
        while try reader.nextChunk(maxRecords: 100) != nil {}
        #expect(reader.bytesRead == Int64(xml.utf8.count))
    }

    @Test func factoryOpensByFormatAndExtension() throws {
        let factory = XMLReader.factory
        #expect(factory.format == "xml")
        #expect(factory.extensions == ["xml"])
        #expect(ReaderRegistry([factory]).factory(forPath: "data/People.XML")?.format == "xml")
        let path = try XMLTest.write(#"<people><person id="9"><name>N</name></person></people>"#)
        let options = Y.m([("record", "/people/person"), ("fields", .m([("key", .q("@id"))]))]).node()
        let request = ReaderRequest(sourceName: "people", path: path, displayPath: "people.xml",
                                    options: try factory.decodeOptions(options), fields: ["key", "name"])
        try ReaderConformance.check(expected: [rec(1, "9", "N")]) { try factory.open(request) }
    }

    @Test func factoryRejectsAMissingOrInvalidBlock() throws {
        let path = try XMLTest.write("<r/>")
        let noBlock = ReaderRequest(sourceName: "people", path: path, displayPath: "p.xml",
                                    options: try XMLReader.factory.decodeOptions(nil), fields: [])
        let e1 = #expect(throws: AuditError.self) { try XMLReader.factory.open(noBlock) }
        #expect(e1?.code == .invalidRules)
        #expect(e1?.message.contains("xml: { record: person }") == true)
        // A bad block is refused when it is decoded (with the plan), before any reader is made.
        let e2 = #expect(throws: AuditError.self) { try XMLReader.factory.decodeOptions(Y.m([("recrod", "person")]).node()) }
        #expect(e2?.code == .invalidRules)
        #expect(e2?.diagnostics.count == 2)
        // Options of another format are refused, not read as defaults.
        let csv = ReaderRequest(sourceName: "people", path: path, displayPath: "p.xml", options: CSVOptions(), fields: [])
        let e3 = #expect(throws: AuditError.self) { try XMLReader.factory.open(csv) }
        #expect(e3?.code == .internal)
    }
}

/// Readers on several threads at once: the line hook and the current-reader pointer are per
/// thread, so every reader must get exactly the records (and lines past 65535) it gets alone.
@Suite struct XMLConcurrencyTests {
    @Test func concurrentReadersAgreeWithASequentialOne() throws {
        var xml = "<?xml version=\"1.0\"?>\n<people>\n"
        for i in 0 ..< 24_000 {
            xml += "  <person id=\"\(i)\">\n    <name>n\(i)</name>\n  </person>\n"
        }
        xml += "</people>\n"
        let path = try XMLTest.write(xml)
        let expected = try ReaderConformance.readAll(XMLTest.reader(path, record: "person", fields: ["id", "name"]),
                                                     chunkSize: 1000)
        #expect(expected.count == 24_000)
        #expect(expected.last?.location == Int64(3 + 23_999 * 3))
        let results = Results(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            do {
                let reader = try XMLTest.reader(path, record: "person", fields: ["id", "name"])
                results.set(i, try ReaderConformance.readAll(reader, chunkSize: [1, 7, 100, 4096][i % 4]))
            } catch {
                Issue.record("reader \(i): \(error)")
            }
        }
        for i in 0 ..< 8 {
            #expect(results.get(i) == expected, "reader \(i)")
        }
    }

    /// One slot per reader, written once each from its own thread.
    final class Results: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var slots: [[DecodedRecord]]
        init(count: Int) { slots = Array(repeating: [], count: count) }
        func set(_ i: Int, _ records: [DecodedRecord]) { lock.withLock { slots[i] = records } }
        func get(_ i: Int) -> [DecodedRecord] { lock.withLock { slots[i] } }
    }
}
