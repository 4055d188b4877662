#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor

/// A streaming reader for JSON Lines (`.jsonl`, `.ndjson`): one JSON object per line.
///
/// The file is read with `read(2)` into 512 KiB buffers; each buffer's whole lines are a
/// morsel (a line feed never occurs inside a JSON value, so cutting needs no parsing) that
/// ``JSONLLineParser`` parses byte by byte on any thread (``MorselReader``). One thread or
/// several give the same records, locations, findings and errors.
///
/// What it reads (README "JSON Lines"):
/// - Each non-blank line is one record; blank lines (spaces, TABs, a CR) are skipped. A UTF-8
///   byte order mark at the start of the file is skipped; LF or CRLF line ends.
/// - A field reads the top-level key of its name, or the key path of its `jsonl: fields:`
///   mapping. A string is `.text` (unescaped UTF-8), judged as a CSV field of that text; a
///   number is judged by its value (``JSONLNumber``); `true`/`false` are the text `true`/`false`;
///   `null` and an absent key are missing (`null` is an explicit null, ``Cell/null``, which
///   `allowsNull` and `allowsMissing` tell apart); arrays and objects are lists and maps.
///
/// What it reports:
/// - Each record's location is its 1-based line.
/// - A line that is not one JSON object is flagged `jsonl.line.malformed`, one with bytes
///   that are not UTF-8 (or a lone surrogate escape) `jsonl.encoding`, one whose object repeats
///   a key that a field reads `jsonl.key.duplicate`; such a record is excluded from the other
///   rules. The audit goes on.
/// - A line longer than ``JSONLLimits/maxLineBytes`` throws `.malformedInput` at `path:line:1`
///   after the records before it; a field that no record has (and no `columns:` rule watches)
///   throws `.malformedInput` from ``finish()``; a file that changed while it was read
///   `.transient`.
@_spi(Testing) public final class JSONLReader: RecordReader, MorselReader {
    public let schema: Schema
    public let locationStyle = LocationStyle.line
    /// `jsonl.line.malformed` (4101), `jsonl.encoding` (4102), `jsonl.key.duplicate` (4103).
    public var structuralRules: [StructuralRule] {
        [JSONLMessages.malformedRule, JSONLMessages.encodingRule, JSONLMessages.duplicateKeyRule]
    }
    /// Bytes cut into morsels so far.
    public var bytesRead: Int64 { input.fileOffset + Int64(position) }
    public var totalBytes: Int64? { input.totalBytes }
    /// The declared fields that some record has (all of them before the first record).
    public var availableFields: [String] {
        if schema.fields.isEmpty { return firstLineKeys }
        let seen = sightings.seen
        guard sightings.records > 0 else { return schema.fields }
        return schema.fields.indices.filter { seen[$0] }.map { schema.fields[$0] }
    }

    let input: CSVInput
    let tree: JSONLFieldTree
    let paths: [[String]]
    let missingFieldsAllowed: Bool
    let maxLineBytes: Int
    let segmentBytes: Int
    let buffers: CSVBufferPool
    let sightings: JSONLSightings
    /// The keys of the first line: the fields without fields (``availableFields``), else for
    /// the message of a field no line has.
    private var firstLineKeys: [String] = []
    /// The next byte not cut into a morsel.
    var position = 0
    var ended = false
    var readError: AuditError?
    // The one-thread placing of ``nextChunk(maxRecords:)``.
    private var sequencer: MorselSequencer?
    private var pending: [RecordChunk] = []
    private var failure: AuditError?
    private var reported: AuditError?

    /// Opens a JSON Lines file.
    /// - Parameters:
    ///   - path: The file to read.
    ///   - displayPath: The path as messages and locations show it (default: `path`).
    ///   - fields: The fields to read, in column order.
    ///   - options: The `jsonl:` block (field paths).
    ///   - missingFieldsAllowed: True when a `columns:` rule reports fields no record has.
    ///   - maxLineBytes: The longest line accepted (tests use small ones).
    ///   - segmentBytes: Bytes per morsel (tests use tiny ones, so that lines straddle cuts).
    /// - Throws: ``AuditError`` `.missingInput` when the file cannot be opened, `.io` when reading fails.
    public init(path: String, displayPath: String? = nil, fields: [String], options: JSONLOptions = JSONLOptions(),
                missingFieldsAllowed: Bool = false, maxLineBytes: Int = JSONLLimits.maxLineBytes,
                segmentBytes: Int = JSONLLimits.segmentBytes) throws {
        schema = Schema(fields: fields)
        paths = fields.map(options.path(of:))
        tree = JSONLFieldTree(paths: paths)
        self.missingFieldsAllowed = missingFieldsAllowed
        self.maxLineBytes = max(16, maxLineBytes)
        self.segmentBytes = max(16, segmentBytes)
        buffers = CSVBufferPool(size: self.segmentBytes)
        sightings = JSONLSightings(width: fields.count)
        input = try CSVInput(path: path, displayPath: displayPath ?? path, capacity: self.segmentBytes)
        while input.end < 3, !input.atEOF { try input.readMore() }
        if input.end >= 3, input.base[0] == 0xEF, input.base[1] == 0xBB, input.base[2] == 0xBF { position = 3 }
        firstLineKeys = firstKeys()
    }

    /// The keys of the first non-blank line in the first buffer (`auditor profile` asks a reader
    /// opened without fields what fields the input has); empty when there is none or it is not
    /// an object.
    private func firstKeys() -> [String] {
        var parser = JSONLLineParser(tree: JSONLFieldTree(paths: []), width: 0)
        parser.topLevelKeys = []
        let base = UnsafePointer(input.base)
        var k = position
        while k < input.end {
            var stop = k
            while stop < input.end, base[stop] != 10 { stop += 1 }
            if stop == input.end, !input.atEOF { return [] }  // the first line is longer than the buffer
            if UnsafeBufferPointer(start: base + k, count: stop - k).contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                return parser.parse(base, from: k, to: stop) ? parser.topLevelKeys ?? [] : []
            }
            k = stop + 1
        }
        return []
    }

    /// The line of the first record: morsels' locations count from it.
    package var morselOrigin: Int64 { 1 }

    /// Cuts the next morsel: the whole lines of one read buffer (more when one line is longer),
    /// or the file's last bytes.
    /// - Returns: The next morsel, nil at the end.
    /// - Complexity: O(bytes cut) (one backwards search for a line feed), plus reading them.
    package func nextMorsel(maxRecords: Int) throws -> (any RecordMorsel)? {
        if ended { return nil }
        let limit = min(max(maxRecords, 1), JSONLLimits.maxChunkRecords)
        while true {
            let available = input.end - position
            if input.end == input.capacity || input.atEOF || readError != nil {
                if let feed = Self.lastLineFeed(input.base, from: position, to: input.end) {
                    return morsel(to: feed + 1, limit: limit, last: nil)
                }
                if available > maxLineBytes { return morsel(to: input.end, limit: limit, last: .tooLong) }
                if input.atEOF {
                    ended = true
                    return available == 0 ? nil : morsel(to: input.end, limit: limit, last: .endOfFile)
                }
                if let readError { return morsel(to: input.end, limit: limit, last: .readError(readError)) }
            }
            position -= input.compact(keepingFrom: position)
            do {
                try input.fill()
            } catch {
                readError = error
            }
        }
    }

    /// The offset of the last line feed in `[start, end)` (`memrchr` is a GNU extension that
    /// Swift does not import); lines are short, so the walk back is too.
    static func lastLineFeed(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var k = end
        while k > start {
            k -= 1
            if base[k] == 10 { return k }
        }
        return nil
    }

    /// Makes `[position, end)` a morsel (its buffer goes with it) and moves past it.
    private func morsel(to end: Int, limit: Int, last: JSONLMorsel.Last?) -> JSONLMorsel {
        if last != nil { ended = true }
        let start = position
        let fresh = buffers.take(capacity: max(segmentBytes, 2 * (input.end - end), 16))
        let old = input.detach(keepingFrom: end, into: fresh.buffer, capacity: fresh.capacity)
        let bytes = CSVMorselBytes(owning: old.buffer, capacity: old.capacity, pool: buffers, from: start, to: end)
        position = 0
        return JSONLMorsel(bytes: bytes, last: last, tree: tree, width: schema.fields.count, limit: limit,
                           sightings: sightings, displayPath: input.displayPath, maxLineBytes: maxLineBytes,
                           watch: input.watch)
    }

    /// Returns the next records: the morsels parsed and placed one after another on the
    /// calling thread (the engine's pipeline parses them on its threads instead).
    /// - Throws: ``AuditError`` as described for the type; the same error again on every later call.
    public func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if let reported { throw reported }
        do {
            let limit = min(max(maxRecords, 1), JSONLLimits.maxChunkRecords)
            if sequencer == nil { sequencer = MorselSequencer(origin: morselOrigin) }
            while pending.isEmpty {
                if let failure { throw failure }
                guard let morsel = try nextMorsel(maxRecords: limit), var placing = sequencer else { return nil }
                let (chunks, failure) = placing.place(morsel.parse())
                sequencer = placing
                pending = chunks.reversed()
                self.failure = failure
            }
            return pending.popLast()
        } catch let error as AuditError {
            let shown = input.watch?.unlessChanged(error) ?? error
            reported = shown
            throw shown
        }
    }

    /// Closes the file, checks that it did not change while it was read, and that every field
    /// occurs in some record.
    /// - Throws: ``AuditError`` `.transient` when the file changed, `.malformedInput` for a
    ///   field that no record has (unless a `columns:` rule reports it).
    public func finish() throws {
        input.closeDescriptor()
        try input.watch?.check(bytesRead: input.atEOF ? input.bytesFromFile : nil)
        guard !missingFieldsAllowed, ended, readError == nil, sightings.records > 0 else { return }
        let seen = sightings.seen
        for (c, name) in schema.fields.enumerated() where !seen[c] {
            throw JSONLMessages.fieldNeverSeen(input.displayPath, field: name, keyPath: paths[c], firstKeys: firstLineKeys)
        }
    }
}

extension JSONLReader {
    /// The registry entry: format `jsonl`, extensions `jsonl` and `ndjson`, options from the
    /// source's `jsonl:` block. Its values carry their shape: an array is a list, an object a map.
    public static let factory = {
        var factory = ReaderFactory(
            format: "jsonl",
            extensions: ["jsonl", "ndjson"],
            decodeOptions: { node throws(AuditError) in
                guard let node, !node.isNull else { return DefaultReaderOptions() }
                let decoded = JSONLOptions.decode(node)
                guard let options = decoded.options, decoded.diagnostics.isEmpty else {
                    throw AuditError.invalidRules(decoded.diagnostics)
                }
                return options
            },
            open: { request in
                let options = try request.options(as: JSONLOptions.self) ?? JSONLOptions()
                return try JSONLReader(path: request.path, displayPath: request.displayPath, fields: request.fields,
                                       options: options, missingFieldsAllowed: request.missingFieldsAllowed)
            })
        factory.valuesCarryShapes = true
        return factory
    }()
}
