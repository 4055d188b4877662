@testable import Auditor
import Foundation
import Synchronization
import Testing

/// ``Pipeline`` merges exactly what a one-thread run merges, in order, for every job count;
/// stops at the first error with the chunks before it; stays bounded; never hangs.
@Suite struct PipelineTests {
    /// Chunks of `sizes` records (then the end, or `failure`), counting calls from any thread.
    final class ScriptedReader: RecordReader {
        let schema = Schema(fields: ["v"])
        var locationStyle: LocationStyle { .line }
        let sizes: [Int]
        let failure: AuditError?
        let calls = Atomic<Int>(0)
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
    }

    /// Morsels of `sizes` records, each record two lines long; locations relative to the
    /// morsel; `failAt` makes that morsel end the input with an error located from its base.
    /// Parsing sleeps a little at random, so that morsels finish out of order.
    final class ScriptedMorselReader: MorselReader {
        let schema = Schema(fields: ["v"])
        var locationStyle: LocationStyle { .line }
        let sizes: [Int]
        let failAt: Int?
        let throwAt: Int?
        let morselOrigin: Int64 = 5
        let calls = Atomic<Int>(0)
        private var index = 0
        private var records = 0
        private(set) var bytesRead: Int64 = 0

        init(sizes: [Int], failAt: Int? = nil, throwAt: Int? = nil) {
            self.sizes = sizes
            self.failAt = failAt
            self.throwAt = throwAt
        }

        func nextChunk(maxRecords: Int) throws -> RecordChunk? {
            Issue.record("the pipeline must take morsels, not chunks")
            return nil
        }

        struct Morsel: RecordMorsel {
            var first: Int
            var count: Int
            var limit: Int
            var fails: Bool
            func parse() -> ParsedMorsel {
                Thread.sleep(forTimeInterval: Double(Int.random(in: 0 ... 3)) / 1000)
                var chunks = [RecordChunk]()
                var done = 0
                while done < count {
                    let n = min(limit, count - done)
                    var b = RecordChunkBuilder(columnCount: 1, firstRecord: 0, capacity: n)
                    for r in done ..< done + n {
                        b.beginRecord(location: Int64(2 * r))
                        b.setText(0, "r\(first + r)")
                    }
                    chunks.append(b.build())
                    done += n
                }
                var failure: (@Sendable (Int64) -> AuditError)?
                if fails {
                    let lines = 2 * Int64(count)
                    failure = { base in AuditError(.malformedInput, "broken", location: "f:\(base + lines):1") }
                }
                return ParsedMorsel(chunks: chunks, locationSpan: 2 * Int64(count), failure: failure)
            }
        }

        func nextMorsel(maxRecords: Int) throws -> (any RecordMorsel)? {
            calls.add(1, ordering: .sequentiallyConsistent)
            if index == throwAt { throw AuditError(.io, "cannot read", location: "f") }
            guard index < sizes.count else { return nil }
            let morsel = Morsel(first: records, count: sizes[index], limit: maxRecords, fails: index == failAt)
            records += sizes[index]
            index += 1
            bytesRead = Int64(records * 10)
            return morsel
        }
    }

    /// Every merged chunk as `firstRecord:first value@location:bytesRead`, then `end` or the error.
    static func drain(_ reader: any RecordReader, jobs: Int, chunkSize: Int = 100) -> [String] {
        var out = [String]()
        let failure = Pipeline.run(reader: reader, chunkSize: chunkSize, jobs: jobs, evaluate: { $0 }) { chunk, bytes in
            for r in 0 ..< chunk.count {
                out.append("\(chunk.firstRecord + r):\(chunk.string(chunk.columns[0][r]) ?? "-")@\(chunk.locations[r])")
            }
            out.append("bytes \(bytes)")
        }
        out.append(failure.map { "error \($0)" } ?? "end")
        return out
    }

    @Test(arguments: [1, 2, 3, 4])
    func plainReaderMergesInOrder(jobs: Int) {
        let sizes = [3, 1, 7, 2, 5, 1, 1, 4, 9, 2]
        let expected = Self.drain(ScriptedReader(sizes: sizes), jobs: 1)
        for _ in 0 ..< 20 {
            #expect(Self.drain(ScriptedReader(sizes: sizes), jobs: jobs) == expected)
        }
    }

    @Test(arguments: [1, 2, 3])
    func plainReaderErrorComesAfterTheChunksBeforeIt(jobs: Int) {
        let failure = AuditError(.malformedInput, "broken", location: "f:9:1")
        let out = Self.drain(ScriptedReader(sizes: [2, 2], failure: failure), jobs: jobs)
        #expect(out.count == 7)
        #expect(out.last == "error \(failure)")
        #expect(out.first == "0:r0@2")
    }

    @Test(arguments: [2, 3, 4])
    func morselsArePlacedLikeOneAfterAnother(jobs: Int) {
        let sizes = (0 ..< 40).map { ($0 * 7) % 11 + 1 }
        // The reference: the same morsels parsed and placed on one thread.
        var sequencer = MorselSequencer(origin: 5)
        let reference = ScriptedMorselReader(sizes: sizes)
        var expected = [String]()
        while let morsel = try? reference.nextMorsel(maxRecords: 3) {
            let bytes = reference.bytesRead
            for chunk in sequencer.place(morsel.parse()).chunks {
                for r in 0 ..< chunk.count {
                    expected.append("\(chunk.firstRecord + r):\(chunk.string(chunk.columns[0][r]) ?? "-")@\(chunk.locations[r])")
                }
                expected.append("bytes \(bytes)")
            }
        }
        expected.append("end")
        // Record n is "rn" at line 5 + 2n.
        #expect(expected.first == "0:r0@5")
        #expect(expected.contains("10:r10@25"))
        for _ in 0 ..< 10 {
            #expect(Self.drain(ScriptedMorselReader(sizes: sizes), jobs: jobs, chunkSize: 3) == expected)
        }
    }

    @Test(arguments: [2, 3])
    func aMorselFailureStopsTheInputThere(jobs: Int) {
        for _ in 0 ..< 10 {
            let reader = ScriptedMorselReader(sizes: Array(repeating: 2, count: 200), failAt: 3)
            let out = Self.drain(reader, jobs: jobs, chunkSize: 10)
            // Morsels 0...3 merged (8 records at lines 5, 7, ...), then the error located after morsel 3.
            #expect(out.filter { $0.contains("@") }.count == 8)
            #expect(out.last == "error \(AuditError(.malformedInput, "broken", location: "f:21:1"))")
            // Cancelled: the producer stopped within its window, far from the 200 morsels.
            let calls = reader.calls.load(ordering: .sequentiallyConsistent)
            #expect(calls <= 4 + 2 * jobs + 1, "\(calls) morsels cut")
            Thread.sleep(forTimeInterval: 0.01)
            #expect(reader.calls.load(ordering: .sequentiallyConsistent) == calls, "cut on after run returned")
        }
    }

    @Test(arguments: [2, 3])
    func aThrowWhileCuttingComesAfterTheMorselsBeforeIt(jobs: Int) {
        let out = Self.drain(ScriptedMorselReader(sizes: [1, 2, 3, 4], throwAt: 2), jobs: jobs)
        #expect(out.filter { $0.contains("@") } == ["0:r0@5", "1:r1@7", "2:r2@9"])
        #expect(out.last == "error \(AuditError(.io, "cannot read", location: "f"))")
    }

    @Test func staysWithinItsWindow() {
        let reader = ScriptedReader(sizes: Array(repeating: 1, count: 1_000))
        var merged = 0
        var most = 0
        _ = Pipeline.run(reader: reader, chunkSize: 10, jobs: 2, evaluate: { $0 }) { _, _ in
            merged += 1
            if merged == 1 { Thread.sleep(forTimeInterval: 0.05) }
            // Cut and not merged: at most the window (2 × jobs), plus the one cut while it waits.
            most = max(most, reader.calls.load(ordering: .sequentiallyConsistent) - merged)
        }
        #expect(merged == 1_000)
        #expect(most <= 2 * 2 + 1, "\(most) chunks ahead of the merge")
    }

    @Test func manyShortRunsDoNotHang() {
        for jobs in [2, 3, 8] {
            for n in 0 ..< 30 {
                let out = Self.drain(ScriptedMorselReader(sizes: Array(repeating: 1, count: n % 4), failAt: n % 5 == 0 ? 0 : nil),
                                     jobs: jobs)
                #expect(out.last != nil)
            }
        }
    }
}
