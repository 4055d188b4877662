import Auditor
import Dispatch

/// The several-thread path of ``CSVReader``: reads the file in blocks and parses each block's
/// segments in parallel, a few blocks ahead of the caller.
///
/// For each block, on a background serial queue:
/// 1. Move the unconsumed tail (an incomplete record) to the front of the buffer and fill it
///    (`threads × segmentBytes` bytes; more only when one record needs it).
/// 2. Cut the block into `threads` segments at record starts found by ``CSVRecordSplitter``
///    (a `memchr` walk over quote bytes, the only serial pass over the data).
/// 3. Parse the segments with `DispatchQueue.concurrentPerform`, each into its own chunks
///    (``CSVSegmentParser``, the same scanner and assembler as the one-thread path).
/// 4. In segment order: add each segment's first line to its record locations, turn a framing
///    error into its `path:line:column` message, and keep the chunks before it.
///
/// ``nextChunk(maxRecords:)`` hands out the chunks of one block while the next ones are
/// parsed (up to ``blocksAhead`` blocks are queued), so the calling thread does no parsing and
/// rarely waits. Records, values, locations, issues and errors are those of the one-thread
/// path; only where chunks end may differ (a chunk never spans two segments).
///
/// Memory: the buffer (one block) and the chunks of at most `blocksAhead + 1` blocks, whatever
/// the file size.
///
/// `@unchecked Sendable`: the mutable state is split in two. The producer state (`input`,
/// `position`, `line`, `bytesPerRecord`, `hasParsedBuffer`, `producerEnded`, `scratch`) is
/// used only by the block jobs, which run one at a time on the serial `queue`, and by the
/// calling thread only after `queue.sync {}` has drained them (``waitUntilIdle()``). Job `n`
/// writes its result to `slots[n % blocksAhead]` and then signals `done`; the calling thread
/// reads that slot only after the matching `done.wait()` (jobs finish in order), and queues
/// job `n + blocksAhead`, the next writer of the slot, only after reading it. The consumer
/// state (`pending`, `failure`, `finished`, `queued`, `taken`, `recordsRead`, `bytesRead`)
/// is used only by the thread that calls the reader (readers are used from one thread at a time).
final class CSVBlockReader: @unchecked Sendable {
    private struct Item {
        var chunk: RecordChunk
        /// The file offset one past the chunk's last record.
        var endOffset: Int64
    }

    private enum Terminal {
        case endOfFile
        case failure(AuditError)
    }

    private struct Block {
        var items: [Item] = []
        var terminal: Terminal?
    }

    /// Blocks parsed ahead of the caller; jobs are queued two at a time, once at most half of
    /// them are left. Measured with 2 threads on 1M rows (perf sched, calling thread): one block
    /// ahead, it waited for the parser ~60–100 times; 4 ahead refilled one at a time, ~5 times
    /// but it was preempted ~70 times by the producer it woke; 4 ahead refilled in pairs, ~10
    /// waits and ~35 preemptions. Each block ahead costs about 2 MiB of RSS.
    static let blocksAhead = 4

    private let input: CSVInput
    private let parser: CSVSegmentParser
    private let splitter: CSVRecordSplitter
    private let threads: Int
    private let maxRecordBytes: Int
    private let delimiter: UInt8
    private let queue = DispatchQueue(label: "auditor.csv.blocks")
    private let done = DispatchSemaphore(value: 0)
    /// Job results, by job number modulo ``blocksAhead``.
    private let slots: UnsafeMutablePointer<Block>

    // Producer state.
    private var position: Int
    private var line: Int64
    private var bytesPerRecord = 256
    /// False until the first block: the bytes left in the buffer after the header come first.
    private var hasParsedBuffer = false
    /// Set once a block ended the input: later jobs produce nothing.
    private var producerEnded = false
    private var scratch: [CSVSegmentScratch]

    // Consumer state.
    /// Jobs queued and blocks taken so far.
    private var queued = 0
    private var taken = 0
    /// The current block's chunks, last first.
    private var pending: [Item] = []
    private var failure: AuditError?
    private var finished = false
    private var recordsRead = 0
    /// Bytes of the file consumed by the records handed out so far.
    private(set) var bytesRead: Int64

    /// - Parameters:
    ///   - input: The file, positioned after the header; this reader takes it over.
    ///   - position: The first record's position in the buffer; `line`: its line.
    ///   - threads: Segments per block (at least 2).
    ///   - segmentBytes: Bytes per segment.
    init(input: CSVInput, position: Int, line: Int64, parser: CSVSegmentParser, splitter: CSVRecordSplitter,
         threads: Int, segmentBytes: Int, maxRecordBytes: Int, delimiter: UInt8) {
        self.input = input
        self.position = position
        self.line = line
        self.parser = parser
        self.splitter = splitter
        self.threads = max(threads, 1)
        self.maxRecordBytes = maxRecordBytes
        self.delimiter = delimiter
        scratch = (0 ..< self.threads).map { _ in CSVSegmentScratch() }
        bytesRead = input.fileOffset + Int64(position)
        slots = .allocate(capacity: CSVBlockReader.blocksAhead)
        slots.initialize(repeating: Block(), count: CSVBlockReader.blocksAhead)
        input.reserve(self.threads * max(segmentBytes, 1))
    }

    deinit {
        // Jobs hold `self`: none is left by now.
        slots.deinitialize(count: CSVBlockReader.blocksAhead)
        slots.deallocate()
    }

    /// Returns the next records, as ``CSVReader/nextChunk(maxRecords:)`` documents.
    /// - Complexity: O(1) amortized on the calling thread, plus a split when `maxRecords` is
    ///   smaller than the chunks being parsed (O(records of the chunk)).
    func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        let limit = min(max(maxRecords, 1), CSVLimits.maxChunkRecords)
        while pending.isEmpty {
            if let failure { throw failure }
            if finished { return nil }
            // Keep the producer busy: once at most half of `blocksAhead` jobs are left, top the
            // queue up (a batch wakes the producer once), then take the oldest block.
            if queued - taken <= CSVBlockReader.blocksAhead / 2 {
                while queued - taken < CSVBlockReader.blocksAhead {
                    enqueue(job: queued, limit: limit)
                    queued += 1
                }
            }
            done.wait()
            let slot = slots + taken % CSVBlockReader.blocksAhead
            let block = slot.pointee
            slot.pointee = Block()
            taken += 1
            switch block.terminal {
            case nil: break
            case .endOfFile: finished = true
            case .failure(let error): failure = error
            }
            pending = block.items.reversed()
        }
        guard var item = pending.popLast() else { return nil }
        if item.chunk.count > limit {
            let (head, rest) = CSVBlockReader.split(item.chunk, at: limit)
            pending.append(Item(chunk: rest, endOffset: item.endOffset))
            item.chunk = head
        } else {
            bytesRead = item.endOffset
        }
        item.chunk.firstRecord = recordsRead
        recordsRead += item.chunk.count
        return item.chunk
    }

    /// Waits until no block job runs or is queued (before the file is closed).
    func waitUntilIdle() {
        queue.sync {}
    }

    private func enqueue(job: Int, limit: Int) {
        queue.async { [self] in
            let block = producerEnded ? Block() : produceBlock(limit: limit)
            if block.terminal != nil { producerEnded = true }
            slots[job % CSVBlockReader.blocksAhead] = block
            done.signal()
        }
    }

    // MARK: - Producer

    /// Reads and parses blocks until one yields records or ends the input.
    private func produceBlock(limit: Int) -> Block {
        while true {
            var readError: AuditError?
            // Read only once the bytes in the buffer are parsed up to an incomplete record (the
            // buffer may still hold unparsed bytes from the header's read). Like the one-thread
            // path, the end of the file is thus learnt only when a record is incomplete, after
            // the too-long check.
            if hasParsedBuffer {
                position -= input.compact(keepingFrom: position)
                do {
                    try input.fill()
                } catch {
                    readError = error
                }
            }
            hasParsedBuffer = true
            var block = Block()
            if parseBlock(limit: limit, readError: readError, into: &block) || !block.items.isEmpty {
                return block
            }
        }
    }

    /// Parses the buffer's records from `position` on.
    /// - Returns: True when the input ended (`block.terminal` is set).
    private func parseBlock(limit: Int, readError: AuditError?, into block: inout Block) -> Bool {
        let base = input.base
        let end = input.end
        let atEOF = input.atEOF
        let start = position
        let span = end - start
        let targets = (1 ..< threads).map { start + span / threads * $0 }
        var cuts = [start]
        if span >= 2 * threads {
            cuts += splitter.recordStarts(base, from: start, to: end, after: targets)
        }
        cuts.append(end)
        let bounds = cuts
        let segments = bounds.count - 1
        var results = [CSVSegmentResult](repeating: CSVSegmentResult(), count: segments)
        let parser = self.parser
        let scratch = self.scratch
        let hint = bytesPerRecord
        results.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            nonisolated(unsafe) let base = base
            let parse: @Sendable (Int) -> Void = { k in
                out[k] = parser.parse(base, from: bounds[k], to: bounds[k + 1], isLast: k == segments - 1,
                                      atEOF: atEOF, limit: limit, bytesPerRecord: hint, scratch: scratch[k])
            }
            if segments == 1 {
                parse(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: segments, execute: parse)
            }
        }
        return assemble(&results, bounds: bounds, readError: readError, into: &block)
    }

    /// Joins the segments' results in order (the only step that sees them all).
    /// - Returns: True when the input ended (`block.terminal` is set).
    private func assemble(_ results: inout [CSVSegmentResult], bounds: [Int], readError: AuditError?,
                          into block: inout Block) -> Bool {
        var lineBase = line
        var records = 0
        for k in results.indices {
            // Take the chunks out so that each one's locations are uniquely referenced (shifted in place).
            var chunks = results[k].chunks
            results[k].chunks = []
            for c in chunks.indices {
                chunks[c].locations.withUnsafeMutableBufferPointer { lines in
                    for r in lines.indices { lines[r] &+= lineBase }
                }
                records += chunks[c].count
                block.items.append(Item(chunk: chunks[c], endOffset: input.fileOffset + Int64(results[k].chunkEnds[c])))
            }
            let result = results[k]
            switch result.stop {
            case .reachedEnd:
                lineBase += result.lines
            case .endOfFile:
                block.terminal = .endOfFile
                position = bounds[k + 1]
            case .incomplete(let recordStart, let recordLine, let openQuote):
                guard k == results.count - 1 else {
                    block.terminal = .failure(AuditError(
                        .internal, "the CSV reader split a block inside a record; read with --jobs 1",
                        location: input.displayPath))
                    break
                }
                position = recordStart
                line = lineBase + recordLine
                if input.end - recordStart >= maxRecordBytes {
                    let (at, column) = CSVReader.locate(in: input.base, openQuote ?? recordStart,
                                                        recordStart: recordStart, recordLine: line)
                    block.terminal = .failure(CSVMessages.recordTooLong(
                        input.displayPath, line: at, column: column, quoted: openQuote != nil, limit: maxRecordBytes))
                } else if let readError {
                    block.terminal = .failure(readError)
                }
            case .unterminatedQuote(let openQuote, let recordStart, let recordLine):
                let (at, column) = CSVReader.locate(in: input.base, openQuote, recordStart: recordStart,
                                                    recordLine: lineBase + recordLine)
                block.terminal = .failure(CSVMessages.unterminatedQuote(input.displayPath, line: at, column: column))
            case .unexpectedAfterQuote(let offending, let recordStart, let recordLine):
                let (at, column) = CSVReader.locate(in: input.base, offending, recordStart: recordStart,
                                                    recordLine: lineBase + recordLine)
                block.terminal = .failure(CSVMessages.characterAfterQuote(
                    input.displayPath, line: at, column: column, byte: input.base[offending], delimiter: delimiter))
            }
            if block.terminal != nil { break }
        }
        if records > 0 {
            let bytes = block.items.reduce(0) { $0 + $1.chunk.bytes.count }
            bytesPerRecord = max(16, bytes / records + 1)
        }
        return block.terminal != nil
    }

    /// Splits a chunk after its first `count` records (both parts share the byte buffer).
    static func split(_ chunk: RecordChunk, at count: Int) -> (RecordChunk, RecordChunk) {
        let head = RecordChunk(
            firstRecord: chunk.firstRecord, count: count, bytes: chunk.bytes,
            columns: chunk.columns.map { Array($0[..<count]) }, locations: Array(chunk.locations[..<count]),
            composites: chunk.composites, issues: chunk.issues.filter { $0.row < count })
        let rest = RecordChunk(
            firstRecord: chunk.firstRecord + count, count: chunk.count - count, bytes: chunk.bytes,
            columns: chunk.columns.map { Array($0[count...]) }, locations: Array(chunk.locations[count...]),
            composites: chunk.composites,
            issues: chunk.issues.filter { $0.row >= count }.map { issue in
                var moved = issue
                moved.row -= count
                return moved
            })
        return (head, rest)
    }
}
