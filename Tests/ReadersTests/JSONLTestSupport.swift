import Auditor
import Foundation
@_spi(Testing) @testable import AuditorReaders
import Testing

/// Helpers shared by the JSON Lines reader tests.
enum JSONLTest {
    /// Python 3 for the differential tests (standard library only).
    static let python3: URL? = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }

    /// Writes bytes to a new file in a fresh temporary directory and returns its path.
    static func write(_ bytes: [UInt8], name: String = "data.jsonl") throws -> String {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("auditor-jsonl-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func write(_ text: String, name: String = "data.jsonl") throws -> String {
        try write(Array(text.utf8), name: name)
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    static func reader(_ path: String, fields: [String], map: [String: JSONLOptions.Field] = [:],
                       missingFieldsAllowed: Bool = true, maxLineBytes: Int = JSONLLimits.maxLineBytes,
                       segmentBytes: Int = JSONLLimits.segmentBytes) throws -> JSONLReader {
        try JSONLReader(path: path, displayPath: "data.jsonl", fields: fields, options: JSONLOptions(fields: map),
                        missingFieldsAllowed: missingFieldsAllowed, maxLineBytes: maxLineBytes,
                        segmentBytes: segmentBytes)
    }

    /// Runs the conformance suite on a document (every chunk size, and morsels of 16 bytes,
    /// 61 bytes and the default) and returns its records.
    @discardableResult
    static func check(_ text: String, fields: [String], map: [String: JSONLOptions.Field] = [:],
                      expected: [DecodedRecord]? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [DecodedRecord] {
        try check(bytes: Array(text.utf8), fields: fields, map: map, expected: expected, sourceLocation: sourceLocation)
    }

    @discardableResult
    static func check(bytes: [UInt8], fields: [String], map: [String: JSONLOptions.Field] = [:],
                      expected: [DecodedRecord]? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [DecodedRecord] {
        let path = try write(bytes)
        defer { remove(path) }
        var first: [DecodedRecord]?
        for segment in [16, 61, JSONLLimits.segmentBytes] {
            let records = try ReaderConformance.check(expected: expected, sourceLocation: sourceLocation) {
                try reader(path, fields: fields, map: map, segmentBytes: segment)
            }
            if let first {
                #expect(records == first, "morsels of \(segment) bytes", sourceLocation: sourceLocation)
            }
            first = first ?? records
        }
        return first ?? []
    }

    /// Everything a reader delivers as one text: records with issue parameters, then the end
    /// or the error.
    static func outcome(_ make: () throws -> JSONLReader, chunkSize: Int = 4096) -> String {
        var out = [String]()
        do {
            let reader = try make()
            while let chunk = try reader.nextChunk(maxRecords: chunkSize) {
                for row in 0 ..< chunk.count {
                    let issues = chunk.issues.filter { $0.row == row }.map {
                        "\($0.ruleID)\($0.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
                    }
                    out.append("#\(chunk.firstRecord + row) @\(chunk.locations[row]) "
                               + "\(chunk.columns.map { chunk.string($0[row]) ?? "nil" }) \(issues)")
                }
            }
            out.append("end")
            try reader.finish()
        } catch let error as AuditError {
            out.append("error \(error.code) at \(error.location ?? "-"): \(error.message)")
        } catch {
            out.append("error \(error)")
        }
        return out.joined(separator: "\n")
    }

    /// The cells of one line parsed alone (fields `a`, `b`), or the problem.
    static func parse(_ line: String, fields: [[String]] = [["a"], ["b"]])
        -> (cells: [Cell], presence: [JSONLPresence], bytes: [UInt8], composites: [Composite], problem: JSONLProblem?) {
        var parser = JSONLLineParser(tree: JSONLFieldTree(paths: fields), width: fields.count)
        let bytes = Array(line.utf8)
        let ok = bytes.withUnsafeBufferPointer { parser.parse($0.baseAddress ?? UnsafePointer(bitPattern: 1).unsafelyUnwrapped, from: 0, to: $0.count) }
        return (ok ? parser.cells : [], ok ? parser.presence : [], parser.bytes, parser.composites, ok ? nil : parser.problem)
    }
}
