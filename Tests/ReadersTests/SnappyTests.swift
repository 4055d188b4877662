import Auditor
@testable import AuditorReaders
import Foundation
import TestSupport
import Testing

/// Parquet's SNAPPY pages, decoded by our own Swift decoder (no libsnappy on a fresh machine).
@Suite struct SnappyTests {
    func decode(_ bytes: [UInt8], size: Int) throws(ParquetFailure) -> [UInt8] {
        var result: Result<[UInt8], ParquetFailure> = .success([])
        bytes.withUnsafeBytes { raw in
            do throws(ParquetFailure) { result = .success(try Snappy.decompress(raw, size: size)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    @Test("literals, every copy form, an overlapping copy")
    func everyElementKind() throws {
        // "abcd" literal, then a 1-byte-offset copy of 4 (offset 4), then a 2-byte-offset copy
        // of 3 (offset 8), then a 4-byte-offset copy of 2 (offset 1, overlapping: "cc").
        let block: [UInt8] = [13, 3 << 2, 97, 98, 99, 100,
                              0b000_000_01, 4,
                              (2 << 2) | 2, 8, 0,
                              (1 << 2) | 3, 1, 0, 0, 0]
        #expect(try decode(block, size: 13) == Array("abcdabcdabccc".utf8))
        // A long literal: tag 60 means one length byte follows (length - 1).
        let long = [UInt8](repeating: 120, count: 100)
        #expect(try decode([100, 60 << 2, 99] + long, size: 100) == long)
        // A run: one literal byte, then a copy of 9 with offset 1.
        #expect(try decode([10, 0, 122, (8 << 2) | 2, 1, 0], size: 10) == [UInt8](repeating: 122, count: 10))
        #expect(try decode([0], size: 0) == [])
    }

    @Test("hostile blocks throw: bad preamble, truncation, offsets before the start, sizes that lie")
    func hostileBlocksThrow() {
        let good: [UInt8] = [13, 3 << 2, 97, 98, 99, 100, 0b000_000_01, 4, (2 << 2) | 2, 8, 0, (1 << 2) | 3, 1, 0, 0, 0]
        for cut in 0 ..< good.count {
            #expect(throws: ParquetFailure.self) { try decode(Array(good[..<cut]), size: 13) }
        }
        #expect(throws: ParquetFailure.self) { try decode(good, size: 12) }          // declared size differs
        #expect(throws: ParquetFailure.self) { try decode([4, 0, 97, (2 << 2) | 2, 2, 0], size: 4) }  // offset 2 > 1 written
        #expect(throws: ParquetFailure.self) { try decode([4, 0, 97, (3 << 2) | 2, 0, 0], size: 4) }  // offset 0
        #expect(throws: ParquetFailure.self) { try decode([2, 2 << 2, 97, 98, 99], size: 2) }       // literal past size
        #expect(throws: ParquetFailure.self) { try decode([0xff, 0xff, 0xff, 0xff, 0xff, 0x0f], size: 1) } // preamble too long
        #expect(throws: ParquetFailure.self) { try decode([3, 0, 97], size: 3) }                   // decodes short
    }

    /// pyarrow's Snappy (the C++ library) compresses random and repetitive data; we decode it.
    @Test(.enabled(if: ParquetTestSupport.pyarrowPython != nil, "no Python with pyarrow (.ci/run installs it into .venv)"))
    func decodesWhatPyarrowCompresses() throws {
        let python = try #require(ParquetTestSupport.pyarrowPython)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-snappy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
            import os, random, sys, pyarrow as pa
            rng = random.Random(11)
            for i in range(60):
                n = rng.choice([0, 1, 5, 60, 61, 300, 70000, 200000])
                kind = i % 3
                if kind == 0: data = bytes(rng.getrandbits(8) for _ in range(n))
                elif kind == 1: data = (b"abcabcabd" * (n // 9 + 1))[:n]
                else: data = bytes(rng.choice(b"ab ") for _ in range(n))
                open(os.path.join(sys.argv[1], "%02d.raw" % i), "wb").write(data)
                open(os.path.join(sys.argv[1], "%02d.snappy" % i), "wb").write(pa.compress(data, codec="snappy", asbytes=True))
            """
        let run = try ChildProcess.run([python, "-c", script, dir.path])
        try #require(run.status == 0, "\(run)")
        for i in 0 ..< 60 {
            let raw = try Data(contentsOf: dir.appendingPathComponent(String(format: "%02d.raw", i)))
            let block = try Data(contentsOf: dir.appendingPathComponent(String(format: "%02d.snappy", i)))
            #expect(try decode([UInt8](block), size: raw.count) == [UInt8](raw), "block \(i)")
        }
    }
}
