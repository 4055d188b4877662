import Auditor

/// A streaming reader for RFC 4180 CSV (and TSV) files.
///
/// The file is read with `read(2)` into one 1 MiB buffer that is reused, so memory does not
/// grow with the file (only with its longest record). Records are split by a byte scanner
/// that reads 8 bytes at a time; no `String` is built per field. Each chunk's `bytes` are a
/// block copy of its records' raw bytes, and `.text` cells point into them. With several
/// jobs the engine's pipeline cuts the file into morsels of whole records that its worker
/// threads parse and evaluate (``MorselReader``, in `CSVReader+Morsels.swift`), with the same results.
///
/// What it reads:
/// - Fields separated by ``CSVOptions/delimiter``, records ended by LF or CRLF; the last
///   record may lack its line break. A UTF-8 byte order mark at the start is skipped.
/// - Quoted fields may hold delimiters, CR, LF and doubled quotes (`""` is one quote).
///   A quote inside an unquoted field (`ab"c`) is kept as it is.
/// - Unquoted fields equal to one of ``CSVOptions/nullValues`` are missing (absent), those
///   equal to one of ``CSVOptions/explicitNullValues`` explicit nulls (`Cell.null`); a quoted
///   empty field (`""`) is an empty string, never missing.
/// - An empty line is a record with one empty field.
///
/// What it reports:
/// - Each record's location is the physical 1-based line where it starts (a quoted line
///   break makes later records start on later lines).
/// - A record whose field count differs from the header's is kept (extra fields dropped,
///   missing ones `.missing`) and flagged `csv.row.ragged`; bytes that are not UTF-8 are
///   kept and flagged `csv.encoding`.
/// - A framing error (the file ends inside a quoted field, a character follows a closing
///   quote) throws ``AuditError`` `.malformedInput` at `path:line:column`, where the column
///   counts characters from 1. The records before it are returned first.
/// - A file replaced, truncated, appended to or rewritten while it is read throws
///   `.transient` from ``finish()`` (or instead of the read error it caused).
@_spi(Testing) public final class CSVReader: RecordReader {
    /// The header's field names, or ``CSVOptions/columns``.
    public private(set) var schema: Schema
    public let locationStyle = LocationStyle.line
    /// The options in force.
    public let options: CSVOptions

    /// `csv.row.ragged` (2101) and `csv.encoding` (2102), and with `decimalComma:` columns `csv.decimal.point` (2103).
    public var structuralRules: [StructuralRule] {
        [CSVMessages.raggedRule, CSVMessages.encodingRule]
            + (rewrites.contains { $0.date == nil && $0.numbers == .decimalComma } ? [CSVMessages.decimalPointRule] : [])
    }
    /// The columns named by `decimalComma:`, `thousandsComma:` and `dateFormat:`.
    private(set) var rewrites: [CSVColumnRewrite] = []
    /// Bytes of the file consumed by the records returned so far (and the header).
    /// (With `parallelism > 1`: the bytes cut into morsels so far.)
    /// For a compressed file: the compressed bytes read so far (progress against ``totalBytes``).
    public var bytesRead: Int64 {
        input.source.compression == .none && options.encoding == nil ? input.fileOffset + Int64(position) : input.bytesFromFile
    }
    /// The file's size, when it is a regular file (its compressed size when it is compressed).
    public var totalBytes: Int64? { input.totalBytes }

    let input: CSVInput
    let scanner: CSVScanner
    let nulls: CSVNullMatcher
    var spans: CSVFieldSpans
    private var cells: UnsafeMutablePointer<Cell>?
    private var cellCapacity = 0
    /// The next unconsumed byte in the buffer.
    var position = 0
    /// The physical line of the byte at `position`.
    var line: Int64 = 1
    private var recordsRead = 0
    private var finished = false
    /// A framing or I/O error found after some records of a chunk: thrown by the next call.
    private var failure: AuditError?
    private var bytesPerRecord = 256
    /// The longest record accepted (``CSVLimits/maxRecordBytes`` outside tests).
    let maxRecordBytes: Int
    /// Threads that may parse records. With 1, ``nextChunk(maxRecords:)`` takes the
    /// one-thread path (no extra pass); with more, it places this reader's morsels one after
    /// another (the engine's pipeline parses them on its threads instead).
    public let parallelism: Int
    /// Bytes per morsel (more when one record is longer).
    let segmentBytes: Int
    /// The morsel path's state (``MorselReader``).
    var morsels: CSVMorselState
    /// The error thrown once, as reported (a change of the file takes precedence).
    private var reported: AuditError?

    /// Opens a CSV file and reads its header.
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - displayPath: The path as messages and locations show it (default: `path`).
    ///   - options: Delimiter, quote, header and null values.
    ///   - parallelism: Threads that may parse records (the engine passes `--jobs`). With more
    ///     than one, ``nextChunk(maxRecords:)`` parses the morsels of ``nextMorsel(maxRecords:)``
    ///     (512 KiB of whole records each) one after another; records, locations, issues and
    ///     errors are the same for every value.
    /// - Throws: ``AuditError``: `.missingInput` when the file cannot be opened; `.malformedInput`
    ///   for an empty file, a header with an empty or duplicate name, or a framing error in the
    ///   header; `.invalidRules` for inconsistent options (no `columns` without a header, a
    ///   `columns` list whose length differs from the header's); `.io` when reading fails.
    public convenience init(path: String, displayPath: String? = nil, options: CSVOptions = CSVOptions(),
                            parallelism: Int = 1) throws {
        try self.init(path: path, displayPath: displayPath, options: options,
                      bufferCapacity: CSVInput.initialCapacity, parallelism: parallelism)
    }

    /// Opens a CSV file with a chosen buffer size and record limit (tests use tiny buffers so
    /// that records straddle refills at every byte position, and tiny segments so that the
    /// several-thread path cuts blocks at every kind of position).
    /// - Parameters:
    ///   - bufferCapacity: The read buffer's initial size in bytes (at least 4).
    ///   - maxRecordBytes: The longest record accepted.
    ///   - parallelism: Threads that may parse records.
    ///   - segmentBytes: Bytes per morsel.
    @_spi(Testing)
    public init(path: String, displayPath: String? = nil, options: CSVOptions, bufferCapacity: Int,
                maxRecordBytes: Int = CSVLimits.maxRecordBytes, parallelism: Int = 1,
                segmentBytes: Int = CSVLimits.segmentBytes) throws {
        let shownPath = displayPath ?? path
        self.maxRecordBytes = maxRecordBytes
        self.parallelism = max(1, parallelism)
        self.segmentBytes = max(1, segmentBytes)
        morsels = CSVMorselState(buffers: CSVBufferPool(size: max(1, segmentBytes)))
        try CSVReader.check(options)
        let input = if let encoding = options.encoding {
            CSVInput(source: TranscodingSource(try ByteSources.open(path: path, displayPath: shownPath), encoding: encoding),
                     capacity: bufferCapacity)
        } else {
            try CSVInput(path: path, displayPath: shownPath, capacity: bufferCapacity)
        }
        // A spreadsheet's `sep=;` first line names the delimiter.
        var options = options
        let separatorLine = try Self.separatorLine(input)
        if let (delimiter, _) = separatorLine, delimiter != options.delimiter {
            if options.delimiterGiven || delimiter == options.quote {
                throw CSVMessages.separatorLineDisagrees(shownPath, hint: delimiter, delimiter: options.delimiter, quote: options.quote)
            }
            options.delimiter = delimiter
        }
        self.options = options
        scanner = CSVScanner(delimiter: options.delimiter, quote: options.quote)
        nulls = CSVNullMatcher(options.nullValues, explicit: options.explicitNullValues)
        self.input = input
        // Allocated after the last throw that can happen before `self` is complete: from
        // here on a throw runs `deinit`, which frees it.
        spans = CSVFieldSpans()
        schema = Schema(fields: options.columns ?? [])
        try skipByteOrderMark()
        if let (_, length) = separatorLine {
            position += length
            line += 1
        }
        if options.diagnosesEncoding, options.encoding == nil { try checkEncoding() }
        if options.header {
            let header = try readHeader()
            if let columns = options.columns, columns.count != header.count {
                throw CSVMessages.columnCountMismatch(shownPath, columns: columns.count,
                                                      headerFields: header.count, mark: options.columnsMark)
            }
            schema = Schema(fields: options.columns ?? header)
        }
        let columns = schema.fields
        rewrites = try options.formats.rewrites(of: columns) { option, name, mark in
            CSVMessages.unknownRewrittenColumn(shownPath, option: option, name: name, columns: columns, mark: mark)
        }
    }

    deinit {
        spans.deallocate()
        cells?.deallocate()
    }

    /// Returns the next records.
    ///
    /// - Parameter maxRecords: The most records to return (at least 1 is assumed; at most
    ///   65,536 are returned per call).
    /// - Returns: A chunk of 1...`maxRecords` records, or `nil` at the end of the file.
    /// - Throws: ``AuditError`` `.malformedInput` for a framing error, `.io` when reading
    ///   fails, `.transient` instead when the file changed meanwhile (a truncation looks like
    ///   a framing error). When the error is found after some records of the chunk, those
    ///   records are returned first and the error is thrown by the next call (and every call
    ///   after it).
    /// - Complexity: O(bytes of the records returned).
    public func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if let reported { throw reported }
        do {
            if parallelism > 1 { return try nextMorselChunk(maxRecords: maxRecords) }
            return try readChunk(maxRecords: maxRecords)
        } catch let error as AuditError {
            let shown = input.watch?.unlessChanged(error) ?? error
            reported = shown
            throw shown
        }
    }

    /// The one-thread path of ``nextChunk(maxRecords:)``.
    private func readChunk(maxRecords: Int) throws -> RecordChunk? {
        if let failure { throw failure }
        if finished { return nil }
        let limit = min(max(maxRecords, 1), CSVLimits.maxChunkRecords)
        let cells = cellScratch(records: limit)
        var assembler = CSVChunkAssembler(
            width: schema.fields.count, capacity: cellCapacity, cells: cells, nulls: nulls,
            quote: options.quote, rewrites: rewrites, records: limit,
            expectedBytes: min(limit * bytesPerRecord + 64, 1 << 26))
        let names = schema.fields
        let scanner = self.scanner
        var spans = self.spans
        defer { self.spans = spans }
        var position = self.position
        var line = self.line
        var base = input.base
        var end = input.end
        var atEOF = input.atEOF
        var segmentStart = position
        assembler.beginSegment(at: position)
        var error: AuditError?

        scanning: while assembler.count < limit {
            if position == end, atEOF {
                finished = true
                break
            }
            switch scanner.scanRecord(base, from: position, end: end, atEOF: atEOF, into: &spans) {
            case .record(let next, let fields, let newlines, let maybeNonASCII):
                assembler.commit(base, spans: spans.pointer, fieldCount: fields, recordStart: position,
                                 recordEnd: next, maybeNonASCII: maybeNonASCII, line: line, names: names)
                line += Int64(newlines) + 1
                position = next
            case .incomplete(let openQuote):
                if end - position >= maxRecordBytes {
                    error = tooLong(recordStart: position, recordLine: line, openQuote: openQuote)
                    break scanning
                }
                // Copy out the records scanned so far, carry the partial record to the front.
                assembler.append(base, from: segmentStart, to: position)
                position -= input.compact(keepingFrom: position)
                segmentStart = position
                assembler.beginSegment(at: position)
                do {
                    try input.readMore()
                } catch let failure {
                    error = CSVMessages.streamError(failure, displayPath: input.displayPath, line: line)
                }
                base = input.base
                end = input.end
                atEOF = input.atEOF
                if error != nil { break scanning }
            case .unterminatedQuote(let openQuote):
                let (at, column) = locate(openQuote, recordStart: position, recordLine: line)
                error = CSVMessages.unterminatedQuote(input.displayPath, line: at, column: column)
                break scanning
            case .unexpectedAfterQuote(let offending):
                let (at, column) = locate(offending, recordStart: position, recordLine: line)
                error = CSVMessages.characterAfterQuote(input.displayPath, line: at, column: column,
                                                        byte: base[offending], delimiter: options.delimiter)
                break scanning
            }
        }
        assembler.append(base, from: segmentStart, to: position)
        self.position = position
        self.line = line
        if let error {
            failure = error
            if assembler.count == 0 { throw error }
        }
        guard assembler.count > 0 else { return nil }
        let chunk = assembler.build(firstRecord: recordsRead)
        recordsRead += chunk.count
        bytesPerRecord = max(16, chunk.bytes.count / chunk.count + 1)
        return chunk
    }

    /// Closes the file, then checks that it did not change while it was read.
    /// - Throws: ``AuditError`` `.transient` when the file was replaced, truncated, appended
    ///   to or rewritten since it was opened (``FileChangeWatch``).
    public func finish() throws {
        input.closeDescriptor()
        try input.watch?.check(bytesRead: input.atEOF ? input.bytesFromFile : nil)
    }

    /// Column-major cell storage for `records` records per column, reused across chunks.
    private func cellScratch(records: Int) -> UnsafeMutablePointer<Cell> {
        if let cells, cellCapacity >= records { return cells }
        cells?.deallocate()
        let width = max(schema.fields.count, 1)
        let grown = UnsafeMutablePointer<Cell>.allocate(capacity: width * records)
        grown.initialize(repeating: .missing, count: width * records)
        cells = grown
        cellCapacity = records
        return grown
    }

    /// Rejects option values that the rules-file decoder would have reported (for callers
    /// that build ``CSVOptions`` in code).
    private static func check(_ options: CSVOptions) throws {
        var problems = [String]()
        for (name, byte) in [("delimiter", options.delimiter), ("quote", options.quote)]
            where byte == 0 || byte == 10 || byte == 13 || byte >= 0x80 {
            problems.append("\(name) must be one ASCII character other than a line break")
        }
        if options.delimiter == options.quote { problems.append("delimiter and quote must be different characters") }
        if !options.header, (options.columns ?? []).isEmpty {
            problems.append("columns is required when header is false")
        }
        if let columns = options.columns {
            if columns.contains("") { problems.append("columns: every field needs a name") }
            if Set(columns).count != columns.count { problems.append("columns: a name is listed twice") }
        }
        guard problems.isEmpty else {
            throw AuditError(.invalidRules, "invalid csv options: " + problems.joined(separator: "; "))
        }
    }
}
