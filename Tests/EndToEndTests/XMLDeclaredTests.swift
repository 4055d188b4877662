import Foundation
import Testing

/// Issue 13 §1 through the binary: on XML, nothing declared goes unchecked. A record path
/// that matches nothing and a field that no record has exit 65 with a message that says what
/// was searched and what the document has; `columns:` compares the records' child elements
/// and attributes with the declared attributes; an empty document is still a pass.
@Suite struct XMLDeclaredTests {
    static let people = """
        <people>
          <person id="1"><name>Ann</name><email>ann@example.com</email></person>
          <person id="2"><name>Bo</name><nickname>b</nickname></person>
        </people>

        """

    static func rules(record: String, attributes: String, extra: String = "") -> String {
        """
        version: 1
        sources:
          people: { path: people.xml, xml: { record: \(record) } }
        entities:
          Person:
            source: people
        \(extra.isEmpty ? "" : "    " + extra + "\n")    attributes: \(attributes)

        """
    }

    @Test("A record path that matches no element: exit 65 with the root, the paths and a did-you-mean")
    func recordPathMatchingNothing() throws {
        let tmp = try Scratch("xml-record-path")
        defer { tmp.remove() }
        try tmp.write("people.xml", Self.people)
        try tmp.write("rules.yml", Self.rules(record: "/people/persn", attributes: "{ id: integer, name: string }"))
        let run = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 65, stderrContains: [
            "people.xml: the record path '/people/persn' matched no element; did you mean '/people/person'?",
            "root element is 'people'",
        ])
        #expect(!run.stdoutText.contains("PASSED"), "\(run)")
    }

    @Test("A document with no records where the records' parent is empty: exit 0, zero records")
    func emptyDocumentPasses() throws {
        let tmp = try Scratch("xml-empty")
        defer { tmp.remove() }
        try tmp.write("people.xml", "<people/>\n")
        try tmp.write("rules.yml", Self.rules(record: "/people/person", attributes: "{ id: integer, name: string }"))
        try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 0)
    }

    @Test("A field that no record has: exit 65 naming the field and a did-you-mean from the records' names")
    func fieldThatNoRecordHas() throws {
        let tmp = try Scratch("xml-field")
        defer { tmp.remove() }
        try tmp.write("people.xml", Self.people)
        try tmp.write("rules.yml", Self.rules(record: "person", attributes: "{ id: integer, name: string, mail: string }"))
        try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 65, stderrContains: [
            "people.xml: no record has the field 'mail'", "did you mean 'email'?",
        ])
    }

    @Test("columns: on XML reports a missing required column, a declared attribute no record has, and an extra child")
    func columnsRuleOnXML() throws {
        let tmp = try Scratch("xml-columns")
        defer { tmp.remove() }
        try tmp.write("people.xml", Self.people)
        try tmp.write("rules.yml", Self.rules(record: "person", attributes: "{ id: integer, name: string, phone: string }",
                                              extra: "columns: { required: [id, name, email, title], allowExtra: false }"))
        for jobs in ["1", "2"] {
            let run = try assertExecute(["run", "rules.yml", "--jobs", jobs], in: tmp.url, exitCode: 1)
            let out = run.stdoutText
            #expect(out.contains("Person.columns: The input has no column 'title'; it is required."), "\(run)")
            #expect(out.contains("Person.columns: The input has no column 'phone'; the attribute is read as missing."), "\(run)")
            #expect(out.contains("Person.columns: The input has an unexpected column 'nickname'."), "\(run)")
            #expect(!out.contains("column 'email'"), "\(run)")
        }
    }

    @Test("A byte that the declared encoding cannot convert: one located error (exit 65), none of libxml2's own lines")
    func undecodableByteHasOneLocatedError() throws {
        let tmp = try Scratch("xml-encoding")
        defer { tmp.remove() }
        var bytes = Data("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<people>\n<person id=\"1\"><name>Ann</name></person>\n<person id=\"2\"><name>B".utf8)
        bytes += Data([0x81, 0x20])
        bytes += Data("o</name></person>\n</people>\n".utf8)
        try tmp.write("people.xml", bytes: bytes)
        try tmp.write("rules.yml", Self.rules(record: "/people/person", attributes: "{ id: integer, name: string }"))
        let run = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 65, stderrContains: [
            "people.xml:4:", "input conversion failed due to input error, bytes 0x81 0x20",
        ])
        #expect(!run.stderrText.contains("encoding error :"), "\(run)")
        #expect(!run.stderrText.contains("I/O error"), "\(run)")
        #expect(!run.stderrText.contains("xmlParseChunk"), "\(run)")
        #expect(!run.stderrText.contains("the XML parser stopped"), "\(run)")
    }
}
