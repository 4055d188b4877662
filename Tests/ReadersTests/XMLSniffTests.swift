import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// The record element `auditor profile` reads an XML file by when none is named
/// (``XMLReader/likelyRecord(_:)``): the shallowest element path that repeats. End to end, on
/// documents that Python's ElementTree reads: `ProfileInputTests`.
@Suite struct XMLSniffTests {
    static func record(_ text: String) -> String? { XMLReader.likelyRecord(Array(text.utf8)) }

    @Test("The shallowest repeating path, not the repeated children inside each record")
    func shallowest() {
        #expect(Self.record("<people><person><tag/><tag/></person><person/></people>") == "/people/person")
        #expect(Self.record("<x><people><person/><person/></people></x>") == "/x/people/person", "under a wrapper")
        #expect(Self.record("<export><header a='1'/><person/><person/></export>") == "/export/person", "a single header first")
        #expect(Self.record("<r><a><b/><b/></a><c/><c/></r>") == "/r/c", "shallower beats earlier")
        #expect(Self.record("<r><a/><b/><a/><b/></r>") == "/r/a", "the earlier on a tie")
    }

    @Test("One child, or none: the root's first child, or nothing")
    func noRepeat() {
        #expect(Self.record("<people><person><name>Ann</name></person></people>") == "/people/person")
        #expect(Self.record("<people/>") == nil)
        #expect(Self.record("<people>text only</people>") == nil)
        #expect(Self.record("") == nil)
        #expect(Self.record("not xml at all") == nil)
    }

    @Test("Comments, processing instructions, CDATA, the document type and quoted '>' are not elements")
    func markup() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- <fake/><fake/> -->
            <!DOCTYPE people [ <!ENTITY co "<fake/>"> <!ELEMENT people (person*)> ]>
            <?style <fake/><fake/> ?>
            <people><person note="a > b" other='<fake/>'><![CDATA[<fake/><fake/>]]></person><person/></people>
            """
        #expect(Self.record(text) == "/people/person")
    }

    @Test("Namespace prefixes are dropped: an unprefixed name matches in any namespace")
    func prefixes() {
        #expect(Self.record("<p:people xmlns:p='urn:x'><p:person/><p:person/></p:people>") == "/people/person")
    }

    @Test("A sample cut inside a tag, UTF-16 text, a name a path cannot take")
    func edges() {
        #expect(Self.record("<people><person id='1'/><person id='2'/><person id='3") == "/people/person")
        #expect(Self.record("<people><person") == nil)
        let utf16 = Array("<people><person/><person/></people>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(XMLReader.likelyRecord([0xFF, 0xFE] + utf16) == nil)
        #expect(Self.record("<people><1a/><1a/></people>") == nil)
        #expect(Self.record("<données><élève/><élève/></données>") == "/données/élève")
    }

    @Test("Any bytes: an answer or nil, never a trap (cut and mutated documents, random bytes)")
    func anyBytes() {
        var rng = SystemRandomNumberGenerator()
        let base = Array("<?xml version='1.0'?><!DOCTYPE a [<!ENTITY e '>'>]><!-- c --><a x='>'><b><![CDATA[<c>]]></b><b/><?p?></a>".utf8)
        let alphabet = Array("<>/!?-[]'\"= abc:\n".utf8) + [0, 0x80, 0xFF]
        for round in 0 ..< 20_000 {
            var bytes = round % 2 == 0 ? Array(base.prefix(Int.random(in: 0 ... base.count, using: &rng))) : []
            for _ in 0 ..< Int.random(in: 0 ... 12, using: &rng) {
                let b = alphabet.randomElement(using: &rng)!
                if bytes.isEmpty || Bool.random(using: &rng) { bytes.append(b) } else { bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = b }
            }
            if let found = XMLReader.likelyRecord(bytes) { #expect(found.hasPrefix("/") && found.split(separator: "/").count >= 2, "\(bytes)") }
        }
    }

    @Test("A gzip file is sniffed decompressed; a missing file gives nothing")
    func files() throws {
        let dir = try ScratchRoot.folder("xml-sniff")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("p.xml")
        try Data("<people><person/><person/></people>\n".utf8).write(to: plain)
        #expect(XMLReader.sniffOptions(path: plain.path, displayPath: "p.xml") == ["record": "/people/person"])
        if CompressedFixture.has("gzip") {
            let gzip = dir.appendingPathComponent("p.xml.gz")
            try CompressedFixture.gzip(Data(contentsOf: plain)).write(to: gzip)
            #expect(XMLReader.sniffOptions(path: gzip.path, displayPath: "p.xml.gz") == ["record": "/people/person"])
        }
        #expect(XMLReader.sniffOptions(path: dir.appendingPathComponent("none.xml").path, displayPath: "none.xml") == [:])
    }
}
