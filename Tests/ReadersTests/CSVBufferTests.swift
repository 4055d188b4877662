import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Writes records the RFC 4180 way, to compare the reader's output with what was written.
enum CSVWriter {
    /// A field as CSV text: `nil` as an empty unquoted field, text quoted when needed (or when
    /// `forceQuote`), inner quotes doubled.
    static func field(_ value: String?, forceQuote: Bool = false) -> String {
        guard let value else { return "" }
        let needs = forceQuote || value.isEmpty || value.utf8.contains(where: { [0x2C, 0x22, 0x0D, 0x0A].contains($0) })
        return needs ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }

    /// Serializes records, returning the text and each record's starting line.
    static func document(header: [String], records: [[String?]], newline: (Int) -> String,
                         forceQuote: (Int, Int) -> Bool = { _, _ in false }) -> (String, [Int64]) {
        var text = header.joined(separator: ",") + newline(0)
        var line: Int64 = 2
        var lines = [Int64]()
        for (r, record) in records.enumerated() {
            lines.append(line)
            let row = record.enumerated().map { field($1, forceQuote: forceQuote(r, $0)) }.joined(separator: ",")
            text += row + newline(r + 1)
            line += Int64(row.utf8.count(where: { $0 == 10 })) + 1
        }
        return (text, lines)
    }
}

@Suite struct CSVBufferTests {
    @Test func fieldsLargerThanTheBuffer() throws {
        let big = String(repeating: "lorem \"ipsum\", dolor\r\nsit ämet 🙂 ", count: 45_000)  // ≈ 1.7 MiB
        let bigUnquoted = String(repeating: "x", count: 1_600_000)
        #expect(big.utf8.count > 1 << 20 + 1 << 19)
        let records: [[String?]] = [["1", big, "a"], ["2", bigUnquoted, "b"], ["3", "c", big], ["4", nil, "d"]]
        let (text, lines) = CSVWriter.document(header: ["id", "text", "end"], records: records, newline: { _ in "\r\n" })
        let path = try CSVFixture.file(text)
        defer { CSVFixture.remove(path) }
        let expected = zip(records, lines).map { DecodedRecord(location: $1, values: $0) }
        try ReaderConformance.check(expected: expected) { try CSVReader(path: path) }
        try ReaderConformance.check(expected: expected) { try CSVReader(path: path, options: CSVOptions(), bufferCapacity: 1000) }
    }

    @Test func manyRecordsAroundTheBufferBoundary() throws {
        // Records of every length from 1 to 300 bytes, with quotes, CR and LF, repeated past 3 MiB,
        // so that 1 MiB boundaries fall at every kind of position in a record.
        var generator = SplitMix64(state: 42)
        var records = [[String?]]()
        var size = 0
        let pieces = ["a", "b,c", "\"", "\r\n", "\n", "é", "🙂", "  ", "x", ""]
        while size < 3 << 20 {
            var fields = [String?]()
            for _ in 0 ..< 3 {
                let n = Int.random(in: 0 ... 30, using: &generator)
                let value = (0 ..< n).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
                fields.append(value.isEmpty && Bool.random(using: &generator) ? nil : value)
            }
            size += fields.reduce(4) { $0 + ($1?.utf8.count ?? 0) * 2 }
            records.append(fields)
        }
        let (text, lines) = CSVWriter.document(
            header: ["a", "b", "c"], records: records, newline: { $0 % 3 == 0 ? "\n" : "\r\n" },
            forceQuote: { r, c in (r + c) % 5 == 0 })
        let path = try CSVFixture.file(text)
        defer { CSVFixture.remove(path) }
        let expected = zip(records, lines).map { DecodedRecord(location: $1, values: $0) }
        #expect(expected.count > 15_000)
        try ReaderConformance.check(expected: expected) { try CSVReader(path: path) }
    }

    @Test(arguments: 0 ..< 40)
    func randomDocumentsRoundTrip(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        let alphabet: [String] = ["a", "Z", ",", "\"", "\r", "\n", "\r\n", "ü", "🚚", " ", ";"]
        let width = Int.random(in: 1 ... 4, using: &generator)
        let records: [[String?]] = (0 ..< Int.random(in: 0 ... 12, using: &generator)).map { _ in
            (0 ..< width).map { _ in
                if Int.random(in: 0 ..< 5, using: &generator) == 0 { return nil }
                return (0 ..< Int.random(in: 0 ... 6, using: &generator))
                    .map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
            }
        }
        // A one-column record whose only value is missing is an empty line: skip that shape.
        let kept = records.filter { width > 1 || $0[0] != nil }
        let crlf = Bool.random(using: &generator)
        let (text, lines) = CSVWriter.document(header: (0 ..< width).map { "f\($0)" }, records: kept,
                                               newline: { _ in crlf ? "\r\n" : "\n" })
        // The last record's line break is optional (bytes: "\r\n" is a single Character).
        var document = Array(text.utf8)
        if !kept.isEmpty, Bool.random(using: &generator) { document.removeLast(crlf ? 2 : 1) }
        let path = try CSVFixture.file(document)
        let expected = zip(kept, lines).map { DecodedRecord(location: $1, values: $0) }
        try CSVFixture.check(path, expected: expected)
    }

    @Test(arguments: 0 ..< 60)
    func arbitraryBytesReadTheSameWithEveryBufferSize(seed: UInt64) throws {
        // Not necessarily valid CSV: records, issues and errors must not depend on where the
        // buffer boundaries fall.
        var generator = SplitMix64(state: seed &* 7919)
        let alphabet: [[UInt8]] = [[0x61], [0x2C], [0x22], [0x22, 0x22], [0x0D], [0x0A], [0x0D, 0x0A],
                                   [0xC3, 0xA9], [0xC3], [0xFF], [0xEF, 0xBB, 0xBF], [0x20]]
        var bytes = Array("h1,h2\n".utf8)
        for _ in 0 ..< Int.random(in: 0 ... 80, using: &generator) {
            bytes += alphabet.randomElement(using: &generator) ?? []
        }
        let path = try CSVFixture.file(bytes)
        func outcome(_ capacity: Int) -> String {
            do {
                let reader = try CSVReader(path: path, displayPath: "p.csv", options: CSVOptions(),
                                           bufferCapacity: capacity)
                var out = [String]()
                while let chunk = try reader.nextChunk(maxRecords: 3) {
                    for row in 0 ..< chunk.count {
                        let issues = chunk.issues.filter { $0.row == row }.map { "\($0.ruleID)\($0.parameters.sorted { $0.key < $1.key })" }
                        out.append("\(chunk.locations[row]) \(chunk.columns.map { chunk.string($0[row]) }) \(issues)")
                    }
                }
                return out.joined(separator: "\n")
            } catch {
                return "error: \(error)"
            }
        }
        let reference = outcome(1 << 20)
        for capacity in [4, 5, 6, 7, 8, 9, 11, 16, 23] {
            #expect(outcome(capacity) == reference, "buffer \(capacity)")
        }
    }
}
