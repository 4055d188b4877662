import Auditor
import CXMLShim
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Hostile and broken documents: nothing leaks, nothing expands, every failure is
/// `.malformedInput` at `file:line[:column]`, after the records read before it.
@Suite struct XMLSecurityTests {
    /// A local file whose content must never appear in any chunk.
    static func secretFile(in dir: URL) throws -> (url: String, secret: String) {
        let secret = "TOP-SECRET-\(UUID().uuidString)"
        let path = try XMLTest.write(secret, name: "secret.txt", in: dir)
        return ("file://" + path, secret)
    }

    @Test func externalEntityDoesNotLeakAndIsADataError() throws {
        let dir = try XMLTest.directory()
        let (url, secret) = try Self.secretFile(in: dir)
        for target in [url, "file:///etc/hostname", "file:///etc/passwd"] {
            let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE people [<!ENTITY e SYSTEM "\(target)">]>
            <people>
              <person><name>before</name></person>
              <person><name>&e;</name></person>
              <person><name>after</name></person>
            </people>
            """
            let path = try XMLTest.write(xml, in: dir)
            for chunkSize in ReaderConformance.chunkSizes {
                let reader = try XMLTest.reader(path, record: "person", fields: ["name"])
                let result = XMLTest.readUntilError(reader, chunkSize: chunkSize)
                #expect(result.records == [rec(4, "before")], "\(target), chunk size \(chunkSize)")
                let error = try #require(result.error)
                #expect(error.code == .malformedInput)
                #expect(error.location == "doc.xml:5")
                #expect(error.message.contains("'&e;'"))
                let text = String(decoding: result.bytes, as: UTF8.self)
                #expect(!text.contains(secret))
                if target.hasPrefix("file:///etc/"),
                   let system = try? String(contentsOfFile: String(target.dropFirst(7)), encoding: .utf8),
                   let firstLine = system.split(separator: "\n").first, firstLine.count > 3 {
                    #expect(!text.contains(firstLine))
                }
                // the same error again on the next call: the file is never "passed"
                #expect(throws: AuditError.self) { try reader.nextChunk(maxRecords: chunkSize) }
            }
        }
    }

    @Test func externalEntityInAnAttributeIsMalformed() throws {
        let dir = try XMLTest.directory()
        let (url, secret) = try Self.secretFile(in: dir)
        let xml = "<!DOCTYPE r [<!ENTITY e SYSTEM \"\(url)\">]>\n<r>\n<p a=\"&e;\"/>\n</r>"
        let reader = try XMLTest.reader(try XMLTest.write(xml, in: dir), record: "p", fields: ["a"])
        let result = XMLTest.readUntilError(reader)
        #expect(result.records.isEmpty)
        #expect(result.error?.code == .malformedInput)
        #expect(result.error?.location?.hasPrefix("doc.xml:3") == true)
        #expect(!String(decoding: result.bytes, as: UTF8.self).contains(secret))
    }

    @Test func parameterEntitiesAreNotLoaded() throws {
        let dir = try XMLTest.directory()
        let (url, secret) = try Self.secretFile(in: dir)
        let xml = """
        <!DOCTYPE r [<!ENTITY % p SYSTEM "\(url)"> %p;]>
        <r><p><v>plain</v></p></r>
        """
        let reader = try XMLTest.reader(try XMLTest.write(xml, in: dir), record: "p", fields: ["v"])
        let result = XMLTest.readUntilError(reader)
        #expect(!String(decoding: result.bytes, as: UTF8.self).contains(secret))
        #expect(result.records == [rec(2, "plain")])
        #expect(reader.refusedLoads == 0)
    }

    @Test func internalEntityReferenceIsADataErrorNotAMissingValue() throws {
        let xml = """
        <!DOCTYPE r [<!ENTITY company "ACME">]>
        <r>
        <p><v>ok</v></p>
        <p><v>&company; Ltd</v></p>
        </r>
        """
        let reader = try XMLTest.reader(try XMLTest.write(xml), record: "p", fields: ["v"])
        let result = XMLTest.readUntilError(reader, chunkSize: 7)
        #expect(result.records == [rec(3, "ok")])
        #expect(result.error?.code == .malformedInput)
        #expect(result.error?.location == "doc.xml:4")
        #expect(result.error?.message.contains("'&company;'") == true)
    }

    @Test func externalDTDIsNotFetched() throws {
        let dir = try XMLTest.directory()
        let dtd = """
        <!ATTLIST person country CDATA "FROM-DTD">
        <!ENTITY greeting "FROM-DTD">
        """
        let dtdPath = try XMLTest.write(dtd, name: "evil.dtd", in: dir)
        let xml = """
        <?xml version="1.0"?>
        <!DOCTYPE people SYSTEM "file://\(dtdPath)">
        <people>
          <person id="1"><name>Ann</name></person>
        </people>
        """
        let path = try XMLTest.write(xml, in: dir)
        // the DTD's default attribute is not applied: the DTD was never read (no record has
        // 'country', which is allowed here so that the records can be compared)
        try ReaderConformance.check(expected: [rec(4, "1", "Ann", nil)]) {
            try XMLTest.reader(path, record: "person", fields: ["id", "name", "country"], missingFieldsAllowed: true)
        }
        let reader = try XMLTest.reader(path, record: "person", fields: ["id"])
        _ = XMLTest.readUntilError(reader)
        #expect(reader.refusedLoads == 0, "not even attempted")
        // an entity that only the external DTD declares stays an unexpanded reference
        let uses = xml.replacingOccurrences(of: "<name>Ann</name>", with: "<name>&greeting;</name>")
        let usesPath = try XMLTest.write(uses, name: "uses.xml", in: dir)
        let result = XMLTest.readUntilError(try XMLTest.reader(usesPath, record: "person", fields: ["name"]))
        #expect(result.records.isEmpty)
        #expect(result.error?.code == .malformedInput)
        #expect(!String(decoding: result.bytes, as: UTF8.self).contains("FROM-DTD"))
    }

    @Test func theExternalEntityLoaderRefusesEverything() throws {
        #expect(axml_runtime_version() >= 20914)
        let before = XMLReader.refusedLoadsInProcess
        #expect(axml_probe_external_loader("file:///etc/passwd") == 1)
        #expect(axml_probe_external_loader("http://127.0.0.1:9/x.dtd") == 1)
        #expect(XMLReader.refusedLoadsInProcess >= before + 2)
    }

    /// Reads a hostile document and returns the error and how long it took.
    static func timedFailure(_ xml: String, record: String = "r", fields: [String] = ["v"])
        throws -> (error: AuditError?, seconds: Double, records: Int) {
        let path = try XMLTest.write(xml)
        let clock = ContinuousClock()
        var result: (records: [DecodedRecord], bytes: [UInt8], error: AuditError?) = ([], [], nil)
        let elapsed = try clock.measure {
            result = XMLTest.readUntilError(try XMLTest.reader(path, record: record, fields: fields))
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return (result.error, seconds, result.records.count)
    }

    @Test func billionLaughsIsRefusedQuickly() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
        xml += " <!ENTITY lol1 \"" + String(repeating: "&lol;", count: 10) + "\">\n"
        for i in 2 ... 9 {
            xml += " <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n"
        }
        xml += "]>\n<lolz>\n<r><v>ok</v></r>\n<r><v>&lol9;</v></r>\n</lolz>\n"
        let (error, seconds, records) = try Self.timedFailure(xml)
        #expect(records == 1)
        #expect(error?.code == .malformedInput)
        #expect(error?.code.exitStatus == .dataError)
        #expect(error?.location?.hasPrefix("doc.xml:16") == true, "\(String(describing: error))")
        #expect(seconds < 2, "took \(seconds) s")
    }

    @Test func quadraticBlowupIsRefusedQuickly() throws {
        let entity = String(repeating: "a", count: 100_000)
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE q [<!ENTITY a \"\(entity)\">]>\n<root>\n<r><v>"
            + String(repeating: "&a;", count: 100_000) + "</v></r>\n</root>\n"
        let (error, seconds, records) = try Self.timedFailure(xml)
        #expect(records == 0)
        #expect(error?.code == .malformedInput)
        #expect(error?.location?.hasPrefix("doc.xml:4") == true, "\(String(describing: error))")
        #expect(seconds < 2, "took \(seconds) s")
    }

    @Test func truncatedFileReportsItsLineAfterTheRecordsBeforeIt() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <people>
          <person id="1"><name>Ann</name></person>
          <person id="2"><name>Bob</name></person>
          <person id="3"><name>Cy</na
        """
        for size in ReaderConformance.chunkSizes {
            let reader = try XMLTest.reader(try XMLTest.write(xml), record: "person", fields: ["id", "name"])
            let result = XMLTest.readUntilError(reader, chunkSize: size)
            #expect(result.records == [rec(3, "1", "Ann"), rec(4, "2", "Bob")], "chunk size \(size)")
            let error = try #require(result.error)
            #expect(error.code == .malformedInput)
            #expect(error.location?.hasPrefix("doc.xml:5:") == true, "\(error)")
            #expect(error.description.hasPrefix("doc.xml:5:"))
        }
    }

    @Test func truncatedLargeFile() throws {
        var xml = "<?xml version=\"1.0\"?>\n<people>\n"
        for i in 1 ... 5000 {
            xml += "  <person id=\"\(i)\">\n    <name>Person \(i)</name>\n  </person>\n"
        }
        xml += "  <person id=\"5001\">\n    <name>Cut he"
        let path = try XMLTest.write(xml)
        for size in [1, 7, 4096] {
            let result = XMLTest.readUntilError(try XMLTest.reader(path, record: "person", fields: ["id"]), chunkSize: size)
            #expect(result.records.count == 5000)
            #expect(result.records.last == rec(3 + 4999 * 3, "5000"))
            #expect(result.error?.location?.hasPrefix("doc.xml:15004:") == true, "\(String(describing: result.error))")
        }
    }

    @Test func truncatedAfterTheLastRecordIsStillMalformed() throws {
        let xml = "<people>\n<person id=\"1\"/>\n<person id=\"2\"/>\n"
        let reader = try XMLTest.reader(try XMLTest.write(xml), record: "person", fields: ["id"])
        let result = XMLTest.readUntilError(reader, chunkSize: 4096)
        #expect(result.records.count == 2)
        #expect(result.error?.code == .malformedInput)
        #expect(result.error?.location?.hasPrefix("doc.xml:3:") == true, "\(String(describing: result.error))")
    }

    @Test func mismatchedTagsReportLineAndColumn() throws {
        let xml = "<people>\n<person><name>Ann</name></person>\n<person><name>Bob</nome></person>\n</people>"
        let reader = try XMLTest.reader(try XMLTest.write(xml), record: "person", fields: ["name"])
        let result = XMLTest.readUntilError(reader)
        #expect(result.records == [rec(2, "Ann")])
        let error = try #require(result.error)
        #expect(error.location == "doc.xml:3:25", "\(error)")
        #expect(error.message.contains("mismatch"))
    }

    @Test func badEncodingIsMalformed() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r>\n<p><v>ok</v></p>\n<p><v>".utf8)
        bytes += [0xC3, 0x28] // an invalid UTF-8 sequence
        bytes += Array("</v></p>\n</r>\n".utf8)
        let reader = try XMLTest.reader(try XMLTest.write(bytes), record: "p", fields: ["v"])
        let result = XMLTest.readUntilError(reader)
        #expect(result.records == [rec(3, "ok")])
        #expect(result.error?.code == .malformedInput)
        #expect(result.error?.location?.hasPrefix("doc.xml:4:") == true, "\(String(describing: result.error))")
    }

    /// A byte that the declared encoding cannot convert: libxml2 2.9 raises that error with no
    /// parser context, so it would go to stderr; it is the reader's located error instead.
    @Test func undecodableByteInDeclaredEncodingIsLocated() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<r>\n<p><v>ok</v></p>\n<p><v>".utf8)
        bytes += [0x81, 0x20] // a lead byte followed by no valid trail byte
        bytes += Array(" here</v></p>\n</r>\n".utf8)
        let reader = try XMLTest.reader(try XMLTest.write(bytes), record: "p", fields: ["v"])
        let result = XMLTest.readUntilError(reader)
        #expect(result.records == [rec(3, "ok")])
        let error = try #require(result.error)
        #expect(error.code == .malformedInput)
        #expect(error.location?.hasPrefix("doc.xml:4:") == true, "\(error)")
        #expect(error.message.contains("input conversion failed"), "\(error)")
        #expect(error.message.contains("0x81 0x20"), "\(error)")
    }

    /// libxml2's messages that span two lines read as one line.
    @Test func libxmlMessageIsOneLine() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r>\n<p><v>".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("</v></p>\n</r>\n".utf8)
        let reader = try XMLTest.reader(try XMLTest.write(bytes), record: "p", fields: ["v"])
        let error = try #require(XMLTest.readUntilError(reader).error)
        #expect(error.message.contains("Bytes: 0xFF 0xFE"), "\(error)")
        #expect(!error.message.contains("\n"), "\(error)")
    }

    @Test func undeclaredNamespacePrefixIsMalformed() throws {
        // a namespace error does not stop libxml2's parser: the cut still falls right there
        let xml = "<r>\n<p><v>1</v></p>\n<x:p><v>2</v></x:p>\n<p><v>3</v></p>\n</r>"
        for size in ReaderConformance.chunkSizes {
            let reader = try XMLTest.reader(try XMLTest.write(xml), record: "p", fields: ["v"])
            let result = XMLTest.readUntilError(reader, chunkSize: size)
            #expect(result.records == [rec(2, "1")])
            #expect(result.error?.code == .malformedInput)
            #expect(result.error?.location?.hasPrefix("doc.xml:3") == true)
            #expect(result.error?.message.contains("x") == true)
        }
    }

    /// Whatever breaks the document, far from its start: every record before the break is
    /// delivered (whatever the chunk size), none after it, and the error says where.
    @Test(arguments: [
        ("<person id=\"x\"><name>Bad</nmae></person>", "mismatch"),
        ("<person id=x/>", "AttValue"),
        ("<person id=\"x\"><name>\u{1}</name></person>", "PCDATA invalid Char"),
        ("<person id=\"x\" id=\"y\"/>", "redefined"),
        ("<person id=\"x\"><name>&amp;&nope;</name></person>", "nope"),
        ("<q:person id=\"x\"/>", "q"),
        ("</people><people>", "Extra content"),
    ])
    func errorFarInTheDocument(_ breaker: String, _ message: String) throws {
        var xml = "<?xml version=\"1.0\"?>\n<people>\n"
        for i in 1 ... 3000 {
            xml += "  <person id=\"\(i)\"><name>Person \(i)</name></person>\n"
        }
        xml += "  " + breaker + "\n  <person id=\"after\"/>\n</people>\n"
        let path = try XMLTest.write(xml)
        for size in [1, 7, 4096] {
            let reader = try XMLTest.reader(path, record: "person", fields: ["id"])
            let result = XMLTest.readUntilError(reader, chunkSize: size)
            #expect(result.records.count == 3000, "chunk size \(size)")
            #expect(result.records.last == rec(3002, "3000"))
            let error = try #require(result.error)
            #expect(error.code == .malformedInput)
            #expect(error.location?.hasPrefix("doc.xml:3003") == true, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func emptyAndNonXMLFilesAreMalformed() throws {
        for content in ["", "id,name\n1,Ann\n", "<r><p>"] {
            let reader = try XMLTest.reader(try XMLTest.write(content), record: "p", fields: ["v"])
            let result = XMLTest.readUntilError(reader)
            #expect(result.error?.code == .malformedInput, "\(content.debugDescription)")
        }
    }

    @Test func missingFileAndDirectoryAreMissingInput() throws {
        let dir = try XMLTest.directory()
        let missing = #expect(throws: AuditError.self) {
            try XMLTest.reader(dir.appendingPathComponent("nope.xml").path, record: "p", fields: [])
        }
        #expect(missing?.code == .missingInput)
        #expect(missing?.code.exitStatus == .noInput)
        #expect(missing?.location == "doc.xml")
        let directory = #expect(throws: AuditError.self) { try XMLTest.reader(dir.path, record: "p", fields: []) }
        #expect(directory?.code == .missingInput)
    }

    @Test func gzipIsInflatedByOurStreamNotByLibxml2() throws {
        // libxml2's own file opener inflates gzip transparently (and would know no zstd); the
        // reader instead recognises gzip by its magic bytes and hands libxml2 the bytes of its
        // own streaming decompressor (issue 15), so the document is read as `zcat` shows it.
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xB3, 0x29, 0xB2, 0xB3, 0x29,
                             0xD0, 0xB7, 0xB3, 0xD1, 0x2F, 0xB2, 0x03, 0x00, 0xD4, 0x41, 0xDD, 0xDE, 0x0B, 0x00,
                             0x00, 0x00] // gzip of "<r><p/></r>"
        let reader = try XMLTest.reader(try XMLTest.write(gzip, name: "doc.xml"), record: "p", fields: [])
        let result = XMLTest.readUntilError(reader)
        #expect(result.records.count == 1)
        #expect(result.error == nil)
        #expect(reader.bytesRead == Int64(gzip.count))      // progress: compressed bytes
        // Cut short: a located malformed input, never libxml2's silent partial document.
        let cut = try XMLTest.reader(try XMLTest.write(Array(gzip.prefix(20)), name: "cut.xml"), record: "p", fields: [])
        #expect(XMLTest.readUntilError(cut).error?.code == .malformedInput)
    }
}

/// Element lines are exact past 65535 (libxml2's own tree keeps 16 bits), through the C API,
/// with records on one line and over several, in batches that end mid-piece.
@Suite struct XMLLineTrackingTests {
    static func document() -> String {
        var xml = "<?xml version=\"1.0\"?>\n<people>\n"
        var line = 3
        for i in 0 ..< 30_000 {
            if i % 2 == 0 {
                xml += "  <p line=\"\(line)\">\n    <n>\(i)</n>\n  </p>\n"
                line += 3
            } else {
                xml += "<p line=\"\(line)\"><n>\(i)</n></p><p line=\"\(line)\"/>\n"
                line += 1
            }
        }
        return xml + "</people>\n"
    }

    @Test func exactLines() throws {
        let path = try XMLTest.write(Self.document())
        var errorNumber: Int32 = 0
        var size: Int64 = 0
        let handle = try #require(axml_open(path, &errorNumber, &size))
        defer { axml_free(handle) }
        #expect(axml_set_record_anywhere(handle, nil, "p") == 0)
        let field = axml_add_field(handle, Int32(AXML_KIND_TEXT))
        #expect(axml_set_field_attribute(handle, field, nil, "line") == 0)
        var records = 0
        var wrong = [String]()
        while true {
            let batch = axml_read(handle, 1000).pointee
            for row in 0 ..< Int(batch.count) {
                let cell = batch.cells[row]
                let text = String(decoding: UnsafeBufferPointer(start: batch.bytes + Int(cell.offset),
                                                                count: Int(cell.length)), as: UTF8.self)
                if text != String(batch.lines[row]) { wrong.append("\(text) at \(batch.lines[row])") }
            }
            records += Int(batch.count)
            if batch.status != Int32(AXML_STATUS_MORE) {
                #expect(batch.status == Int32(AXML_STATUS_END))
                break
            }
        }
        #expect(records == 45_000)
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}
