@testable import Auditor
import Foundation
import Synchronization
import Testing

/// ``ReadAheadReader`` hands out exactly the wrapped reader's chunks, positions, errors and
/// bytes, stays at most `depth` chunks ahead, and lets go of the wrapped reader on `finish`.
@Suite struct ReadAheadReaderTests {
    /// Chunks of `sizes` records (then the end, or `failure`), counting calls from any thread.
    final class ScriptedReader: RecordReader {
        let schema = Schema(fields: ["v"])
        var locationStyle: LocationStyle { .line }
        let sizes: [Int]
        let failure: AuditError?
        let calls = Atomic<Int>(0)
        let finishes = Atomic<Int>(0)
        private var index = 0
        private var records = 0
        private(set) var bytesRead: Int64 = 0

        init(sizes: [Int], failure: AuditError? = nil) {
            self.sizes = sizes
            self.failure = failure
        }

        func nextChunk(maxRecords: Int) throws -> RecordChunk? {
            calls.add(1, ordering: .sequentiallyConsistent)
            guard index < sizes.count else {
                if let failure { throw failure }
                return nil
            }
            var b = RecordChunkBuilder(columnCount: 1, firstRecord: records, capacity: sizes[index])
            for _ in 0 ..< sizes[index] {
                b.beginRecord(location: Int64(records + 2))
                b.setText(0, "r\(records)")
                records += 1
            }
            index += 1
            bytesRead = Int64(records * 10)
            return b.build()
        }

        func finish() throws {
            finishes.add(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Every chunk as `firstRecord:first value:bytesRead`, then `end` or the error.
    static func drain(_ reader: any RecordReader) -> [String] {
        var out = [String]()
        do {
            while let chunk = try reader.nextChunk(maxRecords: 100) {
                out.append("\(chunk.firstRecord):\(chunk.string(chunk.columns[0][0]) ?? "-"):\(reader.bytesRead)")
            }
            out.append("end")
        } catch {
            out.append("error \(error)")
        }
        return out
    }

    @Test(arguments: [1, 2, 4])
    func sameChunksBytesAndEnd(depth: Int) throws {
        let sizes = [3, 1, 7, 2, 5, 1, 1, 4]
        let expected = Self.drain(ScriptedReader(sizes: sizes))
        let base = ScriptedReader(sizes: sizes)
        let reader = ReadAheadReader(base, depth: depth)
        #expect(Self.drain(reader) == expected)
        #expect(try reader.nextChunk(maxRecords: 100) == nil)       // the end stays the end
        try reader.finish()
        #expect(base.finishes.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func theErrorComesAfterTheChunksBeforeItAndStays() throws {
        let failure = AuditError(.malformedInput, "broken", location: "f:9:1")
        let expected = Self.drain(ScriptedReader(sizes: [2, 2], failure: failure))
        #expect(expected.last?.hasPrefix("error") == true)
        let reader = ReadAheadReader(ScriptedReader(sizes: [2, 2], failure: failure), depth: 2)
        #expect(Self.drain(reader) == expected)
        #expect(throws: AuditError.self) { try reader.nextChunk(maxRecords: 100) }
    }

    @Test func staysAtMostDepthChunksAhead() throws {
        let base = ScriptedReader(sizes: Array(repeating: 1, count: 1_000))
        let reader = ReadAheadReader(base, depth: 3)
        _ = try reader.nextChunk(maxRecords: 10)
        Thread.sleep(forTimeInterval: 0.05)
        // One chunk handed out, three waiting: at most four calls (an upper bound: a slow
        // machine makes fewer, never more).
        #expect(base.calls.load(ordering: .sequentiallyConsistent) <= 4)
        try reader.finish()
        let calls = base.calls.load(ordering: .sequentiallyConsistent)
        Thread.sleep(forTimeInterval: 0.02)
        #expect(base.calls.load(ordering: .sequentiallyConsistent) == calls, "read on after finish")
        #expect(base.finishes.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func droppedEarlyWithoutFinishDoesNotHang() throws {
        for _ in 0 ..< 20 {
            let reader = ReadAheadReader(ScriptedReader(sizes: Array(repeating: 1, count: 100)), depth: 2)
            _ = try reader.nextChunk(maxRecords: 10)
        }
    }

    @Test func finishBeforeTheFirstChunkFinishesTheReader() throws {
        let base = ScriptedReader(sizes: [1])
        try ReadAheadReader(base, depth: 2).finish()
        #expect(base.calls.load(ordering: .sequentiallyConsistent) == 0)
        #expect(base.finishes.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func theEngineReportsTheSameWhenReadingAhead() throws {
        // With two jobs the in-memory reader is read ahead; the report must not change
        // (GeneratedDataTests compares whole XML and SQLite reports across --jobs).
        let one = try audit(peopleRules, fields: peopleFields, rows: peopleRows, jobs: 1, chunkSize: 1)
        let two = try audit(peopleRules, fields: peopleFields, rows: peopleRows, jobs: 2, chunkSize: 1)
        #expect(one.counts == two.counts)
        #expect(one.report.records.map(\.location.description) == two.report.records.map(\.location.description))
    }
}
