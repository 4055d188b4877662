import Auditor
import Testing

/// One record as a reader delivered it, decoded for comparison.
struct DecodedRecord: Equatable, CustomStringConvertible {
    var location: Int64
    /// Field values as text (`nil` = missing); integers and reals in canonical text,
    /// lists as `[a, b]`, maps as `{k: v}`.
    var values: [String?]
    /// Structural issues as `ruleID` strings.
    var issues: [String] = []

    var description: String { "@\(location) \(values.map { $0.map { "'\($0)'" } ?? "nil" }) \(issues)" }
}

/// `DecodedRecord` shorthand for `expected:` lists: `rec(3, "1", nil, "x")`.
func rec(_ line: Int64, _ values: String?..., issues: [String] = []) -> DecodedRecord {
    DecodedRecord(location: line, values: values, issues: issues)
}

/// The reader conformance suite (STYLE.md "Tests"): every reader must pass it.
enum ReaderConformance {
    static let chunkSizes = [1, 2, 7, 4096]

    /// Reads a reader to its end with the given chunk size, checking the protocol's guarantees
    /// on the way (chunk bounds, record ordinals, column counts, `nil` after the end).
    static func readAll(_ reader: any RecordReader, chunkSize: Int,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> [DecodedRecord] {
        var records = [DecodedRecord]()
        let width = reader.schema.fields.count
        while let chunk = try reader.nextChunk(maxRecords: chunkSize) {
            #expect(chunk.count >= 1 && chunk.count <= chunkSize,
                    "chunk of \(chunk.count) records for maxRecords \(chunkSize)", sourceLocation: sourceLocation)
            #expect(chunk.firstRecord == records.count, "firstRecord continues the previous chunk",
                    sourceLocation: sourceLocation)
            #expect(chunk.columns.count == width, "one column per schema field", sourceLocation: sourceLocation)
            #expect(chunk.locations.count == chunk.count, sourceLocation: sourceLocation)
            for column in chunk.columns {
                #expect(column.count == chunk.count, sourceLocation: sourceLocation)
            }
            for row in 0 ..< chunk.count {
                let values = (0 ..< width).map { chunk.string(chunk.columns[$0][row]) }
                let issues = chunk.issues.filter { $0.row == row }.map(\.ruleID)
                records.append(DecodedRecord(location: chunk.locations[row], values: values, issues: issues))
            }
        }
        #expect(try reader.nextChunk(maxRecords: chunkSize) == nil, "nil again after the end",
                sourceLocation: sourceLocation)
        try reader.finish()
        return records
    }

    /// Runs the suite: a fresh reader per chunk size must deliver the same records, and
    /// exactly `expected` when given.
    /// - Returns: The records (for further checks).
    @discardableResult
    static func check(expected: [DecodedRecord]? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation,
                      make: () throws -> any RecordReader) throws -> [DecodedRecord] {
        var first: [DecodedRecord]?
        for size in chunkSizes {
            let records = try readAll(try make(), chunkSize: size, sourceLocation: sourceLocation)
            if let expected {
                #expect(records == expected, "chunk size \(size)", sourceLocation: sourceLocation)
            }
            if let first {
                #expect(records == first, "chunk size \(size) differs from chunk size 1",
                        sourceLocation: sourceLocation)
            } else {
                first = records
            }
        }
        return first ?? []
    }
}

extension RecordChunk: Equatable {
    public static func == (a: RecordChunk, b: RecordChunk) -> Bool {
        a.firstRecord == b.firstRecord && a.count == b.count && a.bytes == b.bytes
            && a.columns == b.columns && a.locations == b.locations && a.composites == b.composites
            && a.issues == b.issues
    }
}
