import Auditor
@testable import AuditorReaders
import Foundation
import TestSupport
import Testing

/// Reads Parquet files and compares every value with the `.json` that
/// `scripts/make-parquet-fixtures.py` wrote next to it (values as pyarrow reads them).
enum ParquetTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/parquet")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func reader(_ path: String, fields: [String] = [], parallelism: Int = 1) throws -> ParquetReader {
        try ParquetReader(request: ReaderRequest(sourceName: "t", path: path, displayPath: (path as NSString).lastPathComponent,
                                                 fields: fields, parallelism: parallelism))
    }

    /// Every record of a file, as (chunk, row) pairs.
    static func records(_ reader: ParquetReader, chunkSize: Int) throws -> [(RecordChunk, Int)] {
        var out = [(RecordChunk, Int)]()
        while let chunk = try reader.nextChunk(maxRecords: chunkSize) {
            for r in 0 ..< chunk.count { out.append((chunk, r)) }
        }
        try reader.finish()
        return out
    }

    /// Compares a file with its JSON; returns the mismatches (at most 20).
    static func compare(_ parquet: URL, chunkSize: Int = 4096, parallelism: Int = 1) throws -> [String] {
        let json = parquet.deletingPathExtension().appendingPathExtension("json")
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let fields = try #require(expected["fields"] as? [String])
        let rows = try #require(expected["rows"] as? [[Any]])
        let reader = try reader(parquet.path, parallelism: parallelism)
        var problems = [String]()
        if reader.schema.fields != fields { problems.append("fields \(reader.schema.fields) != \(fields)") }
        let got = try records(reader, chunkSize: chunkSize)
        if got.count != rows.count { problems.append("\(got.count) rows, expected \(rows.count)") }
        for (i, (chunk, r)) in got.enumerated() where i < rows.count {
            for (c, want) in rows[i].enumerated() where c < chunk.columns.count {
                if !matches(chunk.columns[c][r], chunk, want) && problems.count < 20 {
                    problems.append("\(parquet.lastPathComponent) row \(i) \(fields[c]): got \(describe(chunk.columns[c][r], chunk)), expected \(want)")
                }
            }
        }
        return problems
    }

    static func describe(_ cell: Cell, _ chunk: RecordChunk) -> String {
        "\(cell.tag) \(chunk.string(cell) ?? "nil")"
    }

    static func matches(_ cell: Cell, _ chunk: RecordChunk, _ want: Any) -> Bool {
        switch want {
        case is NSNull: return cell.tag == .missing
        case let s as String: return cell.tag == .text && chunk.string(cell) == s
        case let items as [Any]:
            guard cell.tag == .list, case .list(let cells) = chunk.composites[Int(cell.payload)],
                  cells.count == items.count else { return false }
            return zip(cells, items).allSatisfy { matches($0, chunk, $1) }
        case let object as [String: Any]:
            if let real = object["real"] as? String {   // Python's repr: exact through strtod
                guard let d = Double(real) else { return false }
                // NaN and the infinities are read as text, which no numeric type accepts.
                if !d.isFinite { return cell.tag == .text && chunk.string(cell) == (d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity") }
                return cell.tag == .real && d == cell.realValue
            }
            if let hex = object["hex"] as? String {
                guard cell.tag == .blob else { return false }
                let start = Int(cell.payload)
                let bytes = chunk.bytes[start ..< start + Int(cell.length)]
                return bytes.map { String(format: "%02x", $0) }.joined() == hex
            }
            if let entries = object["map"] as? [[Any]] {
                guard cell.tag == .map, case .map(let got) = chunk.composites[Int(cell.payload)],
                      got.count == entries.count else { return false }
                return zip(got, entries).allSatisfy { g, e in
                    e.count == 2 && (e[0] as? String) == g.key && matches(g.value, chunk, e[1])
                }
            }
            return false
        case let n as NSNumber:
            return cell.tag == .integer && cell.integerValue == n.int64Value
        default:
            return false
        }
    }

    /// A Python with pyarrow (``PyarrowPython``).
    static var pyarrowPython: String? { PyarrowPython.path }
}
