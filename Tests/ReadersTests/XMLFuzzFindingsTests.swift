import Auditor
import Foundation
import Readers
import Testing

/// Inputs the FuzzXML target found (Fuzz/README.md), kept as regression tests.
@Suite struct XMLFuzzFindingsTests {
    /// The bundled departments document, its closing root tag broken by a byte that is not UTF-8.
    static let brokenEnd: [UInt8] = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <departments>
          <department id="1"><name>Engineering</name></department>
          <department id="2"><name>Sales</name></department>
        </departmentc
        """.utf8) + [0xC2, 0x0A]

    /// After the fatal error, the shim's walk over what was parsed (axml_walk_begin) started
    /// at the last delivered node, the second department's end, which the failing
    /// xmlTextReaderRead had already released: libxml2 recycled it, its `next` led back into
    /// the first department, and a phantom third record (line 3, id '1Engineering\n  ')
    /// came before the error; other inputs were a heap-use-after-free under ASan.
    @Test(arguments: [1, 4096])
    func noPhantomRecordAfterABrokenEndTag(_ chunkSize: Int) throws {
        let path = try XMLTest.write(Self.brokenEnd)
        let reader = try XMLTest.reader(path, record: "department", fields: ["id", "name"])
        let result = XMLTest.readUntilError(reader, chunkSize: chunkSize)
        #expect(result.error?.code == .malformedInput)
        #expect(result.error.map { "\($0)" }?.contains("doc.xml:5:") == true)
        #expect(result.records.map(\.location) == [3, 4])
        #expect(result.records.map(\.values) == [["1", "Engineering"], ["2", "Sales"]])
    }
}
