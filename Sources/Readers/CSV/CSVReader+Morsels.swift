import Auditor
import Foundation

/// The several-thread path of ``CSVReader``: the file cut into morsels of whole records that the
/// engine's pipeline parses and evaluates on its worker threads (``MorselReader``).
///
/// Cutting is the only serial pass over the data: ``CSVRecordSplitter/lastRecordStart(_:from:to:)``
/// visits quote bytes with `memchr` and walks back from the end to the last record end. Each
/// morsel takes the read buffer it was read into (the reader goes on in a new one, with only the
/// incomplete record copied over), so morsels are parsed in any order without copying; parsing one is ``CSVSegmentParser``, the scanner and assembler of the
/// one-thread path. Lines are counted while parsing: a morsel's locations are relative to its
/// first line until ``MorselSequencer`` places it.
extension CSVReader: MorselReader {
    /// The line of the first record not cut into a morsel yet.
    package var morselOrigin: Int64 { line }

    /// Cuts the next morsel: the whole records of one read buffer of about
    /// ``CSVLimits/segmentBytes`` (more when one record is longer), or the input's last bytes.
    ///
    /// Errors are the one-thread path's, found while the morsel is parsed: a framing error, a
    /// record longer than the limit, a read error after the records before it. The last
    /// morsel carries them, so they are located and reported after every record before them.
    /// - Returns: The next morsel, nil at the end.
    /// - Complexity: O(bytes cut), plus reading them.
    package func nextMorsel(maxRecords: Int) throws -> (any RecordMorsel)? {
        if morsels.ended { return nil }
        let limit = min(max(maxRecords, 1), CSVLimits.maxChunkRecords)
        let splitter = CSVRecordSplitter(delimiter: options.delimiter, quote: options.quote)
        while true {
            let available = input.end - position
            if input.end == input.capacity || input.atEOF || morsels.readError != nil {
                if let cut = splitter.lastRecordStart(input.base, from: position, to: input.end), cut > position {
                    return morsel(to: cut, limit: limit, last: nil)
                }
                // No whole record in the buffer: as the one-thread path, too long before anything else.
                if available >= maxRecordBytes {
                    return morsel(to: input.end, limit: limit, last: .tooLong)
                }
                if input.atEOF {
                    morsels.ended = true
                    return available == 0 ? nil : morsel(to: input.end, limit: limit, last: .endOfFile)
                }
                if let readError = morsels.readError {
                    return morsel(to: input.end, limit: limit, last: .readError(readError))
                }
            }
            // Room for more (doubled when one record fills the buffer), then read.
            position -= input.compact(keepingFrom: position)
            do {
                try input.fill()
            } catch {
                morsels.readError = error
            }
        }
    }

    /// Makes `[position, end)` a morsel (its buffer goes with it) and moves past it.
    private func morsel(to end: Int, limit: Int, last: CSVMorsel.Last?) -> CSVMorsel {
        if last != nil { morsels.ended = true }
        let start = position
        let fresh = morsels.buffers.take(capacity: max(segmentBytes, 2 * (input.end - end), 16))
        let old = input.detach(keepingFrom: end, into: fresh.buffer, capacity: fresh.capacity)
        let bytes = CSVMorselBytes(owning: old.buffer, capacity: old.capacity, pool: morsels.buffers, from: start, to: end)
        position = 0
        let parser = CSVSegmentParser(scanner: scanner, nulls: nulls, quote: options.quote, names: schema.fields,
                                      rewrites: rewrites)
        return CSVMorsel(bytes: bytes, last: last, parser: parser, limit: limit, scratch: morsels.scratch,
                         context: CSVMorsel.Context(displayPath: input.displayPath, delimiter: options.delimiter,
                                                    maxRecordBytes: maxRecordBytes, watch: input.watch))
    }

    /// ``nextChunk(maxRecords:)`` with `parallelism > 1` (a library caller, or tests): the
    /// morsels parsed and placed one after another on the calling thread. The engine does
    /// not call it: its pipeline takes the morsels.
    func nextMorselChunk(maxRecords: Int) throws -> RecordChunk? {
        let limit = min(max(maxRecords, 1), CSVLimits.maxChunkRecords)
        if morsels.sequencer == nil { morsels.sequencer = MorselSequencer(origin: morselOrigin) }
        while morsels.pending.isEmpty {
            if let failure = morsels.failure { throw failure }
            guard let morsel = try nextMorsel(maxRecords: limit), var sequencer = morsels.sequencer else { return nil }
            let (chunks, failure) = sequencer.place(morsel.parse())
            morsels.sequencer = sequencer
            morsels.pending = chunks.reversed()
            morsels.failure = failure
        }
        guard var chunk = morsels.pending.popLast() else { return nil }
        if chunk.count > limit {
            let (head, rest) = CSVReader.split(chunk, at: limit)
            morsels.pending.append(rest)
            chunk = head
        }
        return chunk
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

/// The morsel state of a ``CSVReader``: the cutting (producer) side, and the one-thread
/// placing of ``CSVReader/nextMorselChunk(maxRecords:)``.
struct CSVMorselState {
    /// Read buffers, reused once their morsel is parsed.
    let buffers: CSVBufferPool
    /// Set once the last morsel is cut.
    var ended = false
    /// A read that failed: the bytes before it are cut first, then the error ends the input.
    var readError: AuditError?
    let scratch = CSVScratchPool()
    var sequencer: MorselSequencer?
    /// Placed chunks not handed out yet, last first.
    var pending: [RecordChunk] = []
    var failure: AuditError?
}

/// One morsel's bytes: `[start, end)` of a read buffer that the morsel owns (quoted fields
/// with doubled quotes are unescaped in place), handed back to the pool when the morsel goes.
/// `@unchecked Sendable`: the bytes are written only by the morsel's one ``CSVMorsel/parse()``.
final class CSVMorselBytes: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    let start: Int
    let end: Int
    private let pool: CSVBufferPool

    init(owning base: UnsafeMutablePointer<UInt8>, capacity: Int, pool: CSVBufferPool, from start: Int, to end: Int) {
        self.base = base
        self.capacity = capacity
        self.pool = pool
        self.start = start
        self.end = end
    }

    deinit {
        pool.give(base, capacity: capacity)
    }
}

/// Read buffers of one size, reused morsel after morsel: a fresh 512 KiB allocation per
/// morsel costs page faults each time the allocator gives memory back to the system.
/// At most `2 × jobs` morsels are alive, so the pool stays small; it keeps at most 16.
/// `@unchecked Sendable`: `free` is used with `lock` held.
final class CSVBufferPool: @unchecked Sendable {
    /// The size of the buffers kept.
    let size: Int
    private let lock = NSLock()
    private var free: [UnsafeMutablePointer<UInt8>] = []

    init(size: Int) {
        self.size = max(size, 16)
    }

    deinit {
        for buffer in free { buffer.deallocate() }
    }

    /// A buffer of at least `capacity` bytes (exactly ``size`` when that is enough), and its size.
    func take(capacity: Int) -> (buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        guard capacity <= size else { return (.allocate(capacity: capacity), capacity) }
        lock.lock()
        let reused = free.popLast()
        lock.unlock()
        return (reused ?? .allocate(capacity: size), size)
    }

    func give(_ buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        lock.lock()
        let kept = capacity == size && free.count < 16
        if kept { free.append(buffer) }
        lock.unlock()
        if !kept { buffer.deallocate() }
    }
}

/// Scratch storage (field spans, cells) for the parses running at once, reused morsel after
/// morsel. A thread gets back the scratch it used last, if it is free: its cells are then
/// still in that core's cache.
/// `@unchecked Sendable`: `free` is used with `lock` held; a scratch taken out is used by one
/// parse only until it is given back.
final class CSVScratchPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [(thread: pthread_t, scratch: CSVSegmentScratch)] = []

    func take() -> CSVSegmentScratch {
        let me = pthread_self()
        lock.lock()
        defer { lock.unlock() }
        if let mine = free.lastIndex(where: { pthread_equal($0.thread, me) != 0 }) {
            return free.remove(at: mine).scratch
        }
        return free.popLast()?.scratch ?? CSVSegmentScratch()
    }

    func give(_ scratch: CSVSegmentScratch) {
        let me = pthread_self()
        lock.lock()
        free.append((me, scratch))
        lock.unlock()
    }
}

/// Whole records of a CSV file, or its last bytes, to be parsed on any thread.
struct CSVMorsel: RecordMorsel {
    /// Why a morsel is the input's last one.
    enum Last: Sendable, Equatable {
        /// The file ends after it.
        case endOfFile
        /// Its one record is longer than the limit (and still incomplete).
        case tooLong
        /// Reading more failed; its one record is incomplete.
        case readError(AuditError)

        static func == (a: Last, b: Last) -> Bool {
            switch (a, b) {
            case (.endOfFile, .endOfFile), (.tooLong, .tooLong), (.readError, .readError): return true
            default: return false
            }
        }
    }

    /// What messages need.
    struct Context: Sendable {
        var displayPath: String
        var delimiter: UInt8
        var maxRecordBytes: Int
        var watch: FileChangeWatch?
    }

    let bytes: CSVMorselBytes
    /// Nil for a morsel of whole records with more after it.
    let last: Last?
    let parser: CSVSegmentParser
    let limit: Int
    let scratch: CSVScratchPool
    let context: Context

    func parse() -> ParsedMorsel {
        let pad = scratch.take()
        let result = parser.parse(bytes.base, from: bytes.start, to: bytes.end, isLast: last != nil, atEOF: last == .endOfFile,
                                  limit: limit, bytesPerRecord: 256, scratch: pad)
        scratch.give(pad)
        let failure: (@Sendable (Int64) -> AuditError)?
        let bytes = self.bytes
        let context = self.context
        let last = self.last
        switch result.stop {
        case .reachedEnd, .endOfFile:
            failure = nil
        case .incomplete(let recordStart, let recordLine, let openQuote):
            failure = { base in
                let error: AuditError
                switch last {
                case .tooLong?:
                    let (at, column) = CSVReader.locate(in: bytes.base, openQuote ?? recordStart,
                                                        recordStart: recordStart, recordLine: base + recordLine)
                    error = CSVMessages.recordTooLong(context.displayPath, line: at, column: column,
                                                      quoted: openQuote != nil, limit: context.maxRecordBytes)
                case .readError(let readError)?:
                    error = CSVMessages.streamError(readError, displayPath: context.displayPath, line: base + recordLine)
                default:
                    error = AuditError(.internal, "the CSV reader cut a morsel inside a record; read with --jobs 1",
                                       location: context.displayPath)
                }
                return context.watch?.unlessChanged(error) ?? error
            }
        case .unterminatedQuote(let openQuote, let recordStart, let recordLine):
            failure = { base in
                let (at, column) = CSVReader.locate(in: bytes.base, openQuote, recordStart: recordStart,
                                                    recordLine: base + recordLine)
                let error = CSVMessages.unterminatedQuote(context.displayPath, line: at, column: column)
                return context.watch?.unlessChanged(error) ?? error
            }
        case .unexpectedAfterQuote(let offending, let recordStart, let recordLine):
            failure = { base in
                let (at, column) = CSVReader.locate(in: bytes.base, offending, recordStart: recordStart,
                                                    recordLine: base + recordLine)
                let error = CSVMessages.characterAfterQuote(context.displayPath, line: at, column: column,
                                                            byte: bytes.base[offending], delimiter: context.delimiter)
                return context.watch?.unlessChanged(error) ?? error
            }
        }
        return ParsedMorsel(chunks: result.chunks, locationSpan: result.lines, failure: failure)
    }
}
