import Auditor
@testable import AuditorReaders
import Foundation
import Testing

/// Bad input: truncation, corrupt pages, lying lengths, deep nesting, invalid UTF-8 and
/// decompression bombs end with a located `AuditError` (exit 65), never a trap or a hang.
@Suite struct ParquetHostileTests {
    static let fixtures = ParquetTestSupport.fixtures

    /// Writes `bytes` to a temporary file, reads it to the end; returns the error, if any.
    static func readError(_ bytes: [UInt8], fields: [String] = []) -> AuditError? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString).parquet")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        do {
            let reader = try ParquetTestSupport.reader(url.path, fields: fields, parallelism: 2)
            _ = try ParquetTestSupport.records(reader, chunkSize: 9)
            return nil
        } catch let error as AuditError {
            return error
        } catch {
            Issue.record("not an AuditError: \(error)")
            return nil
        }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    @Test func everyTruncationIsAnError() throws {
        let whole = try Self.bytes("flat-dict-snappy-v1.parquet")
        for length in stride(from: 0, to: whole.count, by: 37) {
            let error = Self.readError(Array(whole[..<length]))
            #expect(error?.code == .malformedInput, "truncated to \(length) bytes")
        }
    }

    @Test("corrupt bytes anywhere: an error or a clean read, never a trap",
          arguments: ["flat-plain-none-v1.parquet", "flat-dict-snappy-v1.parquet", "flat-delta-zstd-v2.parquet",
                      "flat-split-gzip-v2.parquet", "nested-dict-snappy-v2.parquet", "nested-plain-none-v1.parquet"])
    func corruptBytes(_ name: String) throws {
        let whole = try Self.bytes(name)
        var rng = SplitMix64(state: UInt64(name.utf8.count))
        for _ in 0 ..< 150 {
            var mutated = whole
            for _ in 0 ..< 1 + Int(rng.next() % 4) {
                let at = 4 + Int(rng.next() % UInt64(whole.count - 12))
                mutated[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            if let error = Self.readError(mutated) {
                #expect(error.code == .malformedInput || error.code == .missingInput)
                #expect(error.location?.contains("parquet") == true)
            }
        }
    }

    @Test func footerLengthThatLies() throws {
        var whole = try Self.bytes("flat-plain-none-v1.parquet")
        let n = whole.count
        whole.replaceSubrange(n - 8 ..< n - 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let error = try #require(Self.readError(whole))
        #expect(error.message.contains("footer claims"))
    }

    @Test func notParquetAndEncrypted() throws {
        #expect(Self.readError(Array("id,name\n1,x\n".utf8))?.message.contains("not Parquet") == true)
        var encrypted = try Self.bytes("flat-plain-none-v1.parquet")
        encrypted.replaceSubrange(encrypted.count - 4 ..< encrypted.count, with: Array("PARE".utf8))
        #expect(Self.readError(encrypted)?.message.contains("encrypted") == true)
    }

    @Test func deeplyNestedFooterIsRefused() {
        // FileMetaData whose field 1 is a struct holding a struct... 10,000 deep.
        let footer = [UInt8](repeating: 0x1C, count: 10_000) + [UInt8](repeating: 0, count: 10_000)
        let n = UInt32(footer.count)
        let file = Array("PAR1".utf8) + footer + withUnsafeBytes(of: n.littleEndian, Array.init) + Array("PAR1".utf8)
        let error = Self.readError(file)
        #expect(error?.code == .malformedInput)
        #expect(error?.message.contains("nested deeper") == true)
    }

    @Test func invalidUTF8InAStringColumnIsLocated() throws {
        var whole = try Self.bytes("flat-plain-none-v1.parquet")
        let needle = Array("Zo\u{EB}".utf8)
        let at = try #require((0 ..< whole.count - needle.count).first { Array(whole[$0 ..< $0 + needle.count]) == needle })
        whole[at + 2] = 0xFF
        let error = try #require(Self.readError(whole, fields: ["s"]))
        #expect(error.code == .malformedInput)
        #expect(error.message.contains("UTF-8"))
        #expect(error.message.contains("'s'"))
        #expect(error.location?.contains(":rowgroup ") == true)
    }

    static func decompress(_ codec: Int32, _ bytes: [UInt8], size: Int) throws(ParquetFailure) -> [UInt8] {
        try bytes.withParquetBytes { p throws(ParquetFailure) in try ParquetCodecs.decompress(codec, p, size: size) }
    }

    @Test func decompressionBombsHoldTheirDeclaredSizeOnly() throws {
        let zst = try Self.bytes("bomb-64MiB.zst")
        let gz = try Self.bytes("bomb-8MiB.gz")
        #expect(try Self.decompress(6, zst, size: 64 << 20).count == 64 << 20)
        #expect(throws: ParquetFailure.self) { try Self.decompress(6, zst, size: 1000) }
        // A header that lies about a huge size: address space is reserved, never filled.
        #expect(throws: ParquetFailure.self) { try Self.decompress(6, zst, size: Int(Int32.max)) }
        #expect(try Self.decompress(2, gz, size: 8 << 20).count == 8 << 20)
        #expect(throws: ParquetFailure.self) { try Self.decompress(2, gz, size: 4096) }
        #expect(throws: ParquetFailure.self) { try Self.decompress(2, gz, size: Int(Int32.max)) }
        let junk = [UInt8](repeating: 0xAB, count: 64)
        for codec: Int32 in [1, 2, 5, 6] {
            #expect(throws: ParquetFailure.self) { try Self.decompress(codec, junk, size: 100) }
        }
    }

    @Test func hybridAndDeltaDecodersRefuseLyingRuns() {
        // A bit-packed run of 2^30 groups in 3 bytes; a DELTA header with a huge count.
        let run: [UInt8] = [0x81, 0x80, 0x80, 0x80, 0x08, 0x01]
        run.withUnsafeBytes { r in
            var pos = 0
            var out = [UInt8](repeating: 0, count: 16)
            #expect(throws: ParquetFailure.self) {
                try out.withUnsafeMutableBufferPointer { b throws(ParquetFailure) in
                    try ParquetEncodings.hybrid(r, &pos, end: r.count, width: 1, count: 16, into: b.baseAddress!)  // 16 slots
                }
            }
        }
        let delta: [UInt8] = [0x80, 0x01, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00]
        delta.withUnsafeBytes { d in
            var pos = 0
            #expect(throws: ParquetFailure.self) { try ParquetEncodings.deltaBinaryPacked(d, &pos, expected: 3) }
        }
    }
}
