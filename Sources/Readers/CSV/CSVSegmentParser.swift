import Auditor

/// What one parse found in its morsel (see ``CSVSegmentParser``).
struct CSVSegmentResult {
    /// Why the thread stopped. Lines are relative to the segment's first line (0).
    enum Stop {
        /// The segment's last record ended exactly at the segment's end.
        case reachedEnd
        /// The file ended after the last record.
        case endOfFile
        /// The record at `recordStart` runs past the bytes given (only the last segment of a
        /// block may end this way: the next block continues at `recordStart`).
        case incomplete(recordStart: Int, recordLine: Int64, openQuote: Int?)
        /// The file ends inside the quoted field opened at `openQuote`.
        case unterminatedQuote(openQuote: Int, recordStart: Int, recordLine: Int64)
        /// The byte at `position` follows a closing quote but is neither the delimiter nor a line end.
        case unexpectedAfterQuote(position: Int, recordStart: Int, recordLine: Int64)
    }

    /// The segment's records, `firstRecord` 0 and locations relative to the segment's first line.
    var chunks: [RecordChunk] = []
    /// One past each chunk's last byte (buffer positions).
    var chunkEnds: [Int] = []
    /// Lines from the segment's start to where parsing stopped.
    var lines: Int64 = 0
    var stop = Stop.reachedEnd
}

/// Storage reused from morsel to morsel: field spans and the cell scratch.
///
/// `@unchecked Sendable`: a scratch is used by one parse at a time: ``CSVScratchPool`` hands
/// it to one ``CSVMorsel/parse()`` and takes it back when that parse is done.
final class CSVSegmentScratch: @unchecked Sendable {
    var spans = CSVFieldSpans()
    private(set) var cells: UnsafeMutablePointer<Cell>?
    private(set) var capacity = 0

    /// Column-major storage for `records` records of `width` columns.
    func cells(width: Int, records: Int) -> UnsafeMutablePointer<Cell> {
        if let cells, capacity >= records { return cells }
        cells?.deallocate()
        let count = max(width, 1) * records
        let grown = UnsafeMutablePointer<Cell>.allocate(capacity: count)
        grown.initialize(repeating: .missing, count: count)
        cells = grown
        capacity = records
        return grown
    }

    deinit {
        spans.deallocate()
        cells?.deallocate()
    }
}

/// Parses the records of one segment of a block into chunks, exactly as the one-thread path
/// of ``CSVReader/nextChunk(maxRecords:)`` parses them (same scanner, same assembler), but
/// without reading more input: a segment ends where the next one starts.
struct CSVSegmentParser: Sendable {
    let scanner: CSVScanner
    let nulls: CSVNullMatcher
    let quote: UInt8
    let names: [String]
    /// The columns rewritten as they are read (`decimalComma:`, `dateFormat:`).
    var rewrites: [CSVColumnRewrite] = []

    /// Parses `[start, end)`.
    ///
    /// - Parameters:
    ///   - base: The block's buffer; quoted fields with doubled quotes are unescaped in place,
    ///     inside `[start, end)` only.
    ///   - start: A record start.
    ///   - end: The next segment's first record, or the block's end for the last segment.
    ///   - isLast: Whether this is the block's last segment (it may end inside a record).
    ///   - atEOF: Whether no byte follows `end` in the file (last segment only).
    ///   - limit: The most records per chunk.
    ///   - bytesPerRecord: A size hint for the chunk byte buffers.
    ///   - scratch: This thread's spans and cells.
    /// - Complexity: O(end − start).
    func parse(_ base: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, isLast: Bool, atEOF: Bool,
               limit: Int, bytesPerRecord: Int, scratch: CSVSegmentScratch) -> CSVSegmentResult {
        let width = names.count
        let cells = scratch.cells(width: width, records: limit)
        var spans = scratch.spans
        defer { scratch.spans = spans }
        let atEOF = isLast && atEOF
        var result = CSVSegmentResult()
        var position = start
        var line: Int64 = 0
        while true {
            let expected = min(limit * bytesPerRecord, end - position) + 64
            var assembler = CSVChunkAssembler(width: width, capacity: scratch.capacity, cells: cells, nulls: nulls,
                                              quote: quote, rewrites: rewrites, records: min(limit, expected / 8 + 1),
                                              expectedBytes: expected)
            let chunkStart = position
            assembler.beginSegment(at: position)
            var stop: CSVSegmentResult.Stop?
            scanning: while assembler.count < limit {
                if position == end {
                    if !isLast {
                        stop = .reachedEnd
                        break
                    }
                    if atEOF {
                        stop = .endOfFile
                        break
                    }
                }
                switch scanner.scanRecord(base, from: position, end: end, atEOF: atEOF, into: &spans) {
                case .record(let next, let fields, let newlines, let maybeNonASCII):
                    assembler.commit(base, spans: spans.pointer, fieldCount: fields, recordStart: position,
                                     recordEnd: next, maybeNonASCII: maybeNonASCII, line: line, names: names)
                    line += Int64(newlines) + 1
                    position = next
                case .incomplete(let openQuote):
                    stop = .incomplete(recordStart: position, recordLine: line, openQuote: openQuote)
                    break scanning
                case .unterminatedQuote(let openQuote):
                    stop = .unterminatedQuote(openQuote: openQuote, recordStart: position, recordLine: line)
                    break scanning
                case .unexpectedAfterQuote(let offending):
                    stop = .unexpectedAfterQuote(position: offending, recordStart: position, recordLine: line)
                    break scanning
                }
            }
            assembler.append(base, from: chunkStart, to: position)
            if assembler.count > 0 {
                result.chunks.append(assembler.build(firstRecord: 0))
                result.chunkEnds.append(position)
            }
            if let stop {
                result.stop = stop
                result.lines = line
                return result
            }
        }
    }
}
