#if Spark
import Foundation
@testable import SparkConnect
import Testing

/// The Arrow decoder against streams written by pyarrow (scripts/make-arrow-fixtures.py), whose
/// expected text comes from Python's own decimal and datetime.
@Suite struct ArrowStreamReaderTests {
    struct Expected: Decodable {
        var columns: [[String]]
        var rows: [[String]]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func stream(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("\(name).arrows")))
    }

    func expected(_ name: String) throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("\(name).expected.json")))
    }

    @Test(arguments: ["types", "legacy", "empty"])
    func decodesWhatPythonWrote(_ name: String) throws {
        var reader = ArrowStreamReader()
        try reader.read(stream: try stream(name))
        let want = try expected(name)
        #expect(reader.fields?.map(\.name) == want.columns.map { $0[0] })
        #expect(reader.rows.count == want.rows.count)
        for (got, row) in zip(reader.rows, want.rows) {
            #expect(got.map(\.description) == row)
        }
    }

    @Test func typesAndValues() throws {
        var reader = ArrowStreamReader()
        try reader.read(stream: try stream("types"))
        let fields = try #require(reader.fields)
        #expect(fields.map(\.type) == [
            .int(bitWidth: 8, signed: true), .int(bitWidth: 16, signed: true), .int(bitWidth: 32, signed: true),
            .int(bitWidth: 64, signed: true), .float(bitWidth: 32), .float(bitWidth: 64), .bool, .utf8, .largeUTF8,
            .binary, .date(milliseconds: false), .timestamp(unit: .microsecond, timeZone: "UTC"),
            .timestamp(unit: .microsecond, timeZone: nil), .decimal(precision: 38, scale: 10, bitWidth: 128),
            .decimal(precision: 5, scale: 0, bitWidth: 128), .null,
        ])
        #expect(reader.batchCount == 2)
        let first = reader.rows[0]
        #expect(first[3] == .int(Int64.min))
        #expect(first[10] == .date(days: -719_162))  // 0001-01-01
        #expect(first[11] == .timestamp(microseconds: -1, timeZone: "UTC"))
        #expect(first[13] == .decimal("-1234567890123456789012345678.0123456789"))
        #expect(reader.rows[1].allSatisfy { $0 == .null })
        #expect(reader.rows[2][7] == .string("héllo, wörld ✓"))
    }

    @Test func twoStreamsWithTheSameSchemaAppend() throws {
        var reader = ArrowStreamReader()
        try reader.read(stream: try stream("types"))
        try reader.read(stream: try stream("types"))
        #expect(reader.rows.count == 8)
        #expect(reader.batchCount == 4)
    }

    @Test func aDifferentSchemaLaterIsRejected() throws {
        var reader = ArrowStreamReader()
        try reader.read(stream: try stream("types"))
        #expect(throws: ArrowError.self) { try reader.read(stream: try stream("legacy")) }
    }

    @Test func compressedAndNestedDataAreRefusedByName() throws {
        var reader = ArrowStreamReader()
        #expect(throws: ArrowError.unsupported("compressed record batches")) { try reader.read(stream: try stream("zstd")) }
        var nested = ArrowStreamReader()
        do {
            try nested.read(stream: try stream("nested"))
            Issue.record("a list column was decoded")
        } catch let error as ArrowError {
            #expect(error.description.contains("column 'l'"))
            #expect(error.description.contains("list"))
        }
    }

    /// Every truncation and every single-byte corruption of a valid stream either decodes or
    /// throws ArrowError: never a trap (the bytes come from the network).
    @Test func damagedStreamsThrowInsteadOfTrapping() throws {
        let good = try stream("types")
        for length in stride(from: 0, to: good.count, by: 7) {
            var reader = ArrowStreamReader()
            do { try reader.read(stream: Array(good[..<length])) } catch is ArrowError {}
        }
        for position in stride(from: 0, to: good.count, by: 3) {
            for value: UInt8 in [0x00, 0x7F, 0xFF] {
                var damaged = good
                damaged[position] = value
                var reader = ArrowStreamReader()
                do { try reader.read(stream: damaged) } catch is ArrowError {}
            }
        }
    }

    @Test(arguments: [
        (Int64(0), 2, "0.00"), (150, 2, "1.50"), (-5, 3, "-0.005"), (123, 0, "123"), (-1, 0, "-1"), (7, -2, "700"),
    ])
    func decimalText(unscaled: Int64, scale: Int, text: String) {
        let high: UInt64 = unscaled < 0 ? .max : 0
        #expect(DecimalText.format(low: UInt64(bitPattern: unscaled), high: high, scale: scale) == text)
    }

    @Test func decimalExtremes() {
        // 10^38 - 1 and its negation: the widest DECIMAL(38, s).
        let max = UInt128(String(repeating: "9", count: 38))!
        let negative = ~max &+ 1
        #expect(DecimalText.format(low: UInt64(truncatingIfNeeded: max), high: UInt64(truncatingIfNeeded: max >> 64), scale: 38)
                == "0." + String(repeating: "9", count: 38))
        #expect(DecimalText.format(low: UInt64(truncatingIfNeeded: negative), high: UInt64(truncatingIfNeeded: negative >> 64), scale: 0)
                == "-" + String(repeating: "9", count: 38))
    }

    @Test func datesAndTimestampsAsText() {
        #expect(SparkValue.date(days: 19782).description == "2024-02-29")
        #expect(SparkValue.date(days: -25567).description == "1900-01-01")
        #expect(SparkValue.timestamp(microseconds: 1_709_210_096_789_012, timeZone: "UTC").description
                == "2024-02-29 12:34:56.789012")
        #expect(SparkValue.timestamp(microseconds: -500_000, timeZone: nil).description == "1969-12-31 23:59:59.500000")
    }
}
#endif
