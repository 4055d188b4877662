@_spi(Testing) import AuditorReaders
import Auditor
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 13 §6: a CSV or XML file that is truncated, appended to, rewritten, replaced or
/// deleted while it is read is reported as changed during the audit (`.transient`, exit 75,
/// "retry"), never as complete. Each test reads one chunk, changes the file for real, then
/// reads the rest and finishes, as the engine does.
@Suite struct ChangeDuringReadTests {
    enum Mutation: String, CaseIterable, CustomTestStringConvertible {
        case none, truncate, append, rewrite, replace, delete
        var testDescription: String { rawValue }
    }

    static let rows = 3000

    static func csvText() -> String {
        var text = "id,name\n"
        for i in 0 ..< rows { text += "\(i),name \(i)\n" }
        return text
    }

    static func xmlText() -> String {
        var text = "<people>\n"
        for i in 0 ..< rows { text += "<person id=\"\(i)\"><name>name \(i)</name></person>\n" }
        return text + "</people>\n"
    }

    /// Writes a file whose modification time lies an hour back, so that any later write moves
    /// it whatever the file system's timestamp granularity.
    static func write(_ text: String, name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: url.path)
        return url.path
    }

    /// Changes the file as `mutation` says (really: truncate(2), O_APPEND, pwrite, rename, unlink).
    static func apply(_ mutation: Mutation, to path: String, appending tail: String) throws {
        let size = Int64(try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).int64Value)
        switch mutation {
        case .none:
            return
        case .truncate:
            #expect(truncate(path, off_t(size / 2)) == 0)
        case .append:
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(tail.utf8))
            try handle.close()
        case .rewrite:
            // same size, same inode: the second half's letters change case
            let fd = open(path, O_RDWR)
            #expect(fd >= 0)
            defer { close(fd) }
            let bytes = [UInt8](repeating: UInt8(ascii: "X"), count: 16)
            #expect(pwrite(fd, bytes, bytes.count, off_t(size - 200)) == bytes.count)
        case .replace:
            let other = path + ".new"
            try Data(repeating: UInt8(ascii: "\n"), count: Int(size)).write(to: URL(fileURLWithPath: other))
            #expect(rename(other, path) == 0)
        case .delete:
            #expect(unlink(path) == 0)
        }
    }

    /// Reads one chunk, runs `between`, reads the rest and finishes.
    static func read(_ reader: any RecordReader, between: () throws -> Void) throws -> (records: Int, error: AuditError?) {
        var records = 0
        do {
            let first = try #require(try reader.nextChunk(maxRecords: 10))
            records += first.count
            try between()
            while let chunk = try reader.nextChunk(maxRecords: 10) { records += chunk.count }
            try reader.finish()
            return (records, nil)
        } catch let error as AuditError {
            return (records, error)
        }
    }

    static func expectOutcome(_ outcome: (records: Int, error: AuditError?), _ mutation: Mutation,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        if mutation == .none {
            #expect(outcome.error == nil, "\(String(describing: outcome.error))", sourceLocation: sourceLocation)
            #expect(outcome.records == rows, sourceLocation: sourceLocation)
            return
        }
        guard let error = outcome.error else {
            Issue.record("a file that was \(mutation) during the read was reported as complete (\(outcome.records) records)",
                         sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == .transient, "\(error)", sourceLocation: sourceLocation)
        #expect(error.code.exitStatus.rawValue == 75, sourceLocation: sourceLocation)
        #expect(error.message.contains("changed during the audit"), "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains("retry"), "\(error)", sourceLocation: sourceLocation)
    }

    @Test("CSV changed between chunks: exit 75, with one thread and with morsels",
          arguments: Mutation.allCases, [1, 2])
    func csvChangedBetweenChunks(mutation: Mutation, jobs: Int) throws {
        let dir = try XMLTest.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.write(Self.csvText(), name: "people.csv", in: dir)
        // small buffers and blocks: most of the file is read after the change
        let reader = try CSVReader(path: path, displayPath: "people.csv", options: CSVOptions(), bufferCapacity: 4096,
                                   parallelism: jobs, segmentBytes: 256)
        let outcome = try Self.read(reader) {
            try Self.apply(mutation, to: path, appending: "3000,late\n3001,later\n")
        }
        Self.expectOutcome(outcome, mutation)
        if let error = outcome.error { #expect(error.location == "people.csv") }
    }

    @Test("XML changed between chunks: exit 75 (also when the change makes the document malformed)",
          arguments: Mutation.allCases)
    func xmlChangedBetweenChunks(mutation: Mutation) throws {
        let dir = try XMLTest.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.write(Self.xmlText(), name: "people.xml", in: dir)
        let reader = try XMLReader(path: path, displayPath: "people.xml", fields: ["id", "name"],
                                   options: XMLReaderOptions(record: "/people/person"))
        let outcome = try Self.read(reader) {
            try Self.apply(mutation, to: path, appending: "<!-- appended -->\n")
        }
        Self.expectOutcome(outcome, mutation)
    }

    @Test("A file truncated inside a quoted field: the framing error is reported as the change")
    func csvTruncatedInsideAQuote() throws {
        let dir = try XMLTest.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "id,note\n"
        for i in 0 ..< 2000 { text += "\(i),\"a long, quoted note number \(i)\"\n" }
        let path = try Self.write(text, name: "notes.csv", in: dir)
        let reader = try CSVReader(path: path, displayPath: "notes.csv", options: CSVOptions(), bufferCapacity: 4096)
        let size = text.utf8.count
        // cut inside the quoted field of some later record
        let cut = text.utf8.count / 2 + 5
        let outcome = try Self.read(reader) { #expect(truncate(path, off_t(cut)) == 0) }
        #expect(outcome.error?.code == .transient, "\(String(describing: outcome.error)) (size \(size), cut \(cut))")
        #expect(outcome.error?.cause?.contains("bytes") == true)
    }

    @Test("Through the engine: a changed input is exit 75 and the input is not complete",
          arguments: ["csv", "xml"], [1, 2])
    func engineReportsTheChange(format: String, jobs: Int) throws {
        let dir = try XMLTest.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try Self.write(format == "csv" ? Self.csvText() : Self.xmlText(), name: "people.\(format)", in: dir)
        let yaml = """
            version: 1
            sources:
              people: { path: \(data), xml: { record: person } }
            entities:
              Person:
                source: people
                attributes: { id: { type: integer, required: true }, name: { type: string } }
            """
        // the standard reader, wrapped so that the file is truncated after the first chunk
        let base = try #require(StandardReaders.registry.factory(format: format))
        let factory = ReaderFactory(format: format, extensions: [format], decodeOptions: base.decodeOptions) { request in
            MutatingReader(try base.open(request)) { _ = truncate(data, 100) }
        }
        var registry = StandardReaders.registry
        registry.register(factory)
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: dir.path + "/rules.yml"))
        let result = try AuditEngine(registry: registry, options: AuditOptions(jobs: jobs, chunkSize: 10)).run(plan)
        #expect(result.exitStatus.rawValue == 75, "\(result.report.inputs)")
        #expect(result.report.inputs.first?.complete == false)
        #expect(result.report.inputs.first?.error?.contains("changed during the audit") == true)
    }
}

/// A reader that runs `change` once, after handing out its first chunk.
final class MutatingReader: RecordReader {
    let base: any RecordReader
    var change: (() -> Void)?
    init(_ base: any RecordReader, change: @escaping () -> Void) {
        self.base = base
        self.change = change
    }
    var schema: Schema { base.schema }
    var locationStyle: LocationStyle { base.locationStyle }
    var structuralRules: [StructuralRule] { base.structuralRules }
    var availableFields: [String] { base.availableFields }
    func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        let chunk = try base.nextChunk(maxRecords: maxRecords)
        if chunk != nil, let c = change {
            change = nil
            c()
        }
        return chunk
    }
    func finish() throws { try base.finish() }
}
