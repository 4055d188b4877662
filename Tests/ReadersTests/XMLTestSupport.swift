import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Helpers shared by the XML reader tests: temporary documents, readers, config nodes.
enum XMLTest {
    /// A fresh temporary directory (tests never share one), removed when the tests end.
    static func directory() throws -> URL {
        try ScratchRoot.folder("xml")
    }

    /// Writes bytes to a new file and returns its path.
    static func write(_ bytes: [UInt8], name: String = "doc.xml", in dir: URL? = nil) throws -> String {
        let url = try (dir ?? directory()).appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes UTF-8 text to a new file and returns its path.
    static func write(_ text: String, name: String = "doc.xml", in dir: URL? = nil) throws -> String {
        try write(Array(text.utf8), name: name, in: dir)
    }

    static func reader(_ path: String, record: String, fields: [String],
                       map: [String: XMLFieldSpec] = [:], namespaces: [String: String] = [:],
                       missingFieldsAllowed: Bool = false) throws -> XMLReader {
        try XMLReader(path: path, displayPath: "doc.xml", fields: fields,
                      options: XMLReaderOptions(record: record, fields: map, namespaces: namespaces),
                      missingFieldsAllowed: missingFieldsAllowed)
    }

    /// Runs the conformance suite on a document and returns its records.
    @discardableResult
    static func check(_ xml: String, record: String, fields: [String], map: [String: XMLFieldSpec] = [:],
                      namespaces: [String: String] = [:], expected: [DecodedRecord]? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [DecodedRecord] {
        let path = try write(xml)
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        return try ReaderConformance.check(expected: expected, sourceLocation: sourceLocation) {
            try reader(path, record: record, fields: fields, map: map, namespaces: namespaces)
        }
    }

    /// Reads until the reader throws; returns the records before the error and the error.
    static func readUntilError(_ reader: XMLReader, chunkSize: Int = 4096)
        -> (records: [DecodedRecord], bytes: [UInt8], error: AuditError?) {
        var records = [DecodedRecord]()
        var bytes = [UInt8]()
        do {
            while let chunk = try reader.nextChunk(maxRecords: chunkSize) {
                bytes += chunk.bytes
                for row in 0 ..< chunk.count {
                    records.append(DecodedRecord(
                        location: chunk.locations[row],
                        values: chunk.columns.map { chunk.string($0[row]) }))
                }
            }
            return (records, bytes, nil)
        } catch let error as AuditError {
            return (records, bytes, error)
        } catch {
            Issue.record("unexpected error type: \(error)")
            return (records, bytes, nil)
        }
    }
}


/// A tiny YAML-like tree for building `ConfigNode`s in tests; every node gets its own line
/// (in depth-first order), so diagnostics can be checked for their location.
indirect enum Y: ExpressibleByStringLiteral {
    case s(String)
    case q(String)
    case l([Y])
    case m([(String, Y)])

    init(stringLiteral value: String) { self = .s(value) }

    func node(file: String = "rules.yml") -> ConfigNode {
        var line = 0
        return build(file: file, line: &line)
    }

    private func build(file: String, line: inout Int) -> ConfigNode {
        line += 1
        let mark = ConfigMark(file: file, line: line, column: 1)
        switch self {
        case .s(let s): return ConfigNode(.scalar(s, quoted: false), mark: mark)
        case .q(let s): return ConfigNode(.scalar(s, quoted: true), mark: mark)
        case .l(let items): return ConfigNode(.sequence(items.map { $0.build(file: file, line: &line) }), mark: mark)
        case .m(let pairs):
            var built = [(key: ConfigNode, value: ConfigNode)]()
            for (k, v) in pairs {
                line += 1
                let key = ConfigNode(.scalar(k, quoted: false), mark: ConfigMark(file: file, line: line, column: 1))
                line -= 1
                built.append((key, v.build(file: file, line: &line)))
            }
            return ConfigNode(.mapping(built), mark: mark)
        }
    }
}
