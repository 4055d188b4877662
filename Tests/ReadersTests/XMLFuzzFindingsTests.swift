import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
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

    /// A record whose document breaks inside it, then XML declarations and processing
    /// instructions out of place: libxml2's recovery handed the shim an element at or above the
    /// record's depth while the record was open, and the shim read its field index at a negative
    /// level (SEGV under ASan in element_start). The record reads the same for any chunk size
    /// and the read ends as malformed input, never a crash.
    static let elementAboveRecord: [UInt8] = Array(Data(base64Encoded: [
        "PHBlb3BsZT48cGVyc29uIGlkPSIxIj48bmFtZT5BICZhbXA7IEI8L25hbWU+PHBob25lcz48cGhvbmU+MTwvcGhvbmU+PHBo",
        "b25lPjI8L3Bob25lPjwvcGhvbmVzPjxhZGRyZXNzPjxjaXR5Pk9zbG1iY3NpdHk+PHppTExMTExMTExMTExMTExMTExMTExM",
        "TExMTExMTExMTExMcGVyc29uIGlkPSIxIj48bmFtZT5KZStzaWNhIFdhXFxcXFxcVFxcXFxcXFxcXFxcXFxcXFxcXFxcNjY2",
        "djY2NlxcXFxcXFxcXDY2NnY2NjY2NjZGLTdGLTgiPz4KPD94bWwyIHZlcnNpb249IjEuMCIgZW5jb2RpXFxcXFxcXFxcXFxc",
        "XFRcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcNjY2djY2NlxcXFxcXFxcXDY2NnY2NjY2NjZGLTdGLTgiPz4KPD94",
        "bWwyIHZlcnNpb249IjEuMCIgZW5jb2RpXFxcXFxcXFxcXFxcXFRcXFxcXFxcXFxcXFxcXFxcXFxcXDY2NnY2NjY2NjZGLTdG",
        "LTgiPz42NjZGLTdGLTgiPz4KPD94bWwyIHZlcnNpb249IjEuPz4KPD94bWwyIHZlcnNpb249IjEuMCIgZW5jb2Rpbmc9IlVU",
        "VVRGLTdGLTgiPz4KPGRlcGFydG1lbnQKPiAgczxkZXBhIHZlcnNpb249IjEuMCIgZW5jb2Q2NjZ2NjY2NjY2Ri03Ri04Ij8+",
        "NjY2Ri03Ri04Ij8+Cjw/eG1sMiB2ZXJzaW9uPSIxLj8+Cjw/eG1sMiB2ZXJzaW9uPSIxLjAiIGVuY29kaW5nPSJVVFVURi03",
        "Ri04Ij8+CjxkZXBhcnRtZW50Cj4gIHM8ZGVwYSB2ZXJzaW9uPSIxLjAiIGVuY29kaXA+MDFNTU1NTU1NTU1NTU1NNTA8bmFt",
        "ZT5PbGl2aWEgU21pdGg8L25hbWU+RDw=",
    ].joined()) ?? Data())

    @Test(arguments: [1, 4096])
    func elementAboveTheRecordWhileItIsOpen(_ chunkSize: Int) throws {
        #expect(Self.elementAboveRecord.count == 743)
        let path = try XMLTest.write(Self.elementAboveRecord)
        let fields = ["id", "name", "phones", "address", "city", "title"]
        let reader = try XMLTest.reader(path, record: "person", fields: fields,
                                        map: ["id": "@id", "phones": .list("phones/phone"), "address": .map("address"),
                                              "city": "address/city", "title": "p:title"],
                                        namespaces: ["p": "urn:example:people"])
        let result = XMLTest.readUntilError(reader, chunkSize: chunkSize)
        #expect(result.error?.code == .malformedInput)
    }
}
