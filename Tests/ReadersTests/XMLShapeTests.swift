import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Issue 13 §1: nothing declared goes unchecked on XML. A record path that matches nothing,
/// and a field that no record has, are data errors (exit 65) from ``XMLReader/finish()``, not
/// an empty pass; a document that is legitimately empty is not an error; the "columns" of an
/// XML source are what `columns:` rules compare.
@Suite struct XMLShapeTests {
    static let people = """
        <?xml version="1.0"?>
        <people>
          <person id="1"><name>Ann</name><email>ann@example.com</email></person>
          <person id="2"><name>Bo</name><nickname>b</nickname></person>
        </people>
        """

    /// Reads the whole document, then finishes; returns the records read and what `finish` threw.
    static func readAndFinish(_ xml: String, record: String, fields: [String],
                              map: [String: XMLFieldSpec] = [:], missingFieldsAllowed: Bool = false)
        throws -> (records: Int, error: AuditError?, reader: XMLReader) {
        let path = try XMLTest.write(xml)
        let reader = try XMLReader(path: path, displayPath: "doc.xml", fields: fields,
                                   options: XMLReaderOptions(record: record, fields: map),
                                   missingFieldsAllowed: missingFieldsAllowed)
        var records = 0
        while let chunk = try reader.nextChunk(maxRecords: 7) { records += chunk.count }
        do {
            try reader.finish()
            return (records, nil, reader)
        } catch let error as AuditError {
            return (records, error, reader)
        }
    }

    // MARK: - The record path

    @Test("A record name that matches no element: exit 65 with the root, the paths and a did-you-mean")
    func recordNameMatchingNothing() throws {
        let r = try Self.readAndFinish(Self.people, record: "persn", fields: ["name"])
        #expect(r.records == 0)
        let error = try #require(r.error)
        #expect(error.code == .malformedInput)
        #expect(error.code.exitStatus.rawValue == 65)
        #expect(error.location == "doc.xml")
        #expect(error.message.contains("the record path 'persn' matched no element; did you mean 'person'?"), "\(error)")
        #expect(error.message.contains("root element is 'people'"), "\(error)")
        #expect(error.message.contains("/people, /people/person, /people/person/name"), "\(error)")
    }

    @Test("An absolute record path that matches no element: did-you-mean on the whole path",
          arguments: [("/people/persons", "/people/person"), ("/peeple/person", "/people/person"),
                      ("/person", "/people/person")])
    func absoluteRecordPathMatchingNothing(path: String, suggestion: String) throws {
        let r = try Self.readAndFinish(Self.people, record: path, fields: ["name"])
        let error = try #require(r.error)
        #expect(error.code == .malformedInput)
        #expect(error.message.contains("the record path '\(path)' matched no element; did you mean '\(suggestion)'?"),
                "\(error)")
    }

    @Test("Legitimately empty documents are a pass with zero records, not an error",
          arguments: [("<people/>", "/people/person"), ("<people>\n  </people>", "/people/person"),
                      ("<people/>", "person"), ("<people><!-- none yet --></people>", "person"),
                      ("<a><people/></a>", "/a/people/person"), ("<a><people/><people/></a>", "/a/people/person")])
    func legitimatelyEmpty(xml: String, record: String) throws {
        let r = try Self.readAndFinish(xml, record: record, fields: ["name"])
        #expect(r.records == 0)
        #expect(r.error == nil, "\(String(describing: r.error))")
    }

    @Test("Zero records where the parent path does not exist, or the root has other children: an error",
          arguments: [("<persons/>", "/people/person"), ("<people><group/></people>", "person"),
                      ("<people/>", "/person"), ("<a><b/></a>", "/a/people/person"),
                      ("<people><staff><member/></staff></people>", "/people/person")])
    func emptyButWrongPath(xml: String, record: String) throws {
        let r = try Self.readAndFinish(xml, record: record, fields: ["name"])
        #expect(r.records == 0)
        let error = try #require(r.error, "no error for \(record) in \(xml)")
        #expect(error.code == .malformedInput)
        #expect(error.message.contains("the record path '\(record)' matched no element"), "\(error)")
    }

    // MARK: - The fields

    @Test("A field that no record has: exit 65 naming the field, what was searched and a did-you-mean")
    func fieldThatNoRecordHas() throws {
        let r = try Self.readAndFinish(Self.people, record: "person", fields: ["name", "mail"])
        #expect(r.records == 2)
        let error = try #require(r.error)
        #expect(error.code == .malformedInput)
        #expect(error.message.contains("no record has the field 'mail' (a child element <mail> or an attribute 'mail' of the record); did you mean 'email'?"), "\(error)")
        #expect(error.message.contains("Searched every 'person' record (2)"), "\(error)")
        #expect(error.message.contains("name, email, nickname, @id"), "\(error)")
    }

    @Test("A mapped field whose path no record has names the path")
    func mappedFieldThatNoRecordHas() throws {
        let r = try Self.readAndFinish(Self.people, record: "person", fields: ["key", "mail"],
                                       map: ["key": "@idd", "mail": "emails/email"])
        let error = try #require(r.error)
        #expect(error.message.contains("no record has the field 'key' (path '@idd'); did you mean 'id'?"), "\(error)")
        #expect(error.message.contains("no record has the field 'mail' (path 'emails/email'); did you mean 'email'?"), "\(error)")
    }

    @Test("A field that one record has is fine, even if the others lack it")
    func fieldThatSomeRecordHas() throws {
        let r = try Self.readAndFinish(Self.people, record: "person", fields: ["id", "name", "email", "nickname"])
        #expect(r.records == 2)
        #expect(r.error == nil, "\(String(describing: r.error))")
    }

    @Test("With a columns: rule the missing field is no error; it is left out of the available fields")
    func missingFieldAllowedByColumnsRule() throws {
        let r = try Self.readAndFinish(Self.people, record: "person", fields: ["id", "name", "ghost"],
                                       missingFieldsAllowed: true)
        #expect(r.error == nil)
        #expect(r.reader.availableFields == ["id", "name", "email", "nickname"])
    }

    @Test("The columns of an XML source: declared fields seen, then unread children and attributes")
    func availableFieldsDefinition() throws {
        let xml = """
            <people>
              <person id="1" kind="a"><name>Ann</name><address><city>X</city></address></person>
              <person id="2"><name>Bo</name><phone>1</phone></person>
            </people>
            """
        let r = try Self.readAndFinish(xml, record: "person", fields: ["key", "city", "name"],
                                       map: ["key": "@id", "city": "address/city"])
        #expect(r.error == nil)
        #expect(r.reader.availableFields == ["key", "city", "name", "phone", "kind"])
    }

    @Test("Names are collected for every record, through chunk boundaries and many names")
    func manyNames() throws {
        var xml = "<r>"
        for i in 0 ..< 300 { xml += "<p a\(i % 50)=\"x\"><c\(i)>v</c\(i)></p>" }
        xml += "</r>"
        let r = try Self.readAndFinish(xml, record: "p", fields: [], missingFieldsAllowed: true)
        #expect(r.records == 300)
        let fields = r.reader.availableFields
        #expect(fields.count == 350)
        #expect(fields.prefix(3) == ["c0", "c1", "c2"])
        #expect(fields.last == "a49")
    }
}
