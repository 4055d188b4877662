import Auditor
import CXMLShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads records from an XML document with libxml2's push parser and SAX2 callbacks (no tree).
///
/// One element (``XMLReaderOptions/record``) is one record; the schema is the fields the
/// request asks for, in that order, each read from the record element as ``XMLFieldSpec``
/// says (by default: the child element of that name, else the attribute of that name).
/// A missing element is `.missing`; an element with `xsi:nil="true"` (XML Schema's explicit
/// null, also in a list item or a map entry) is `Cell.null`; an empty element is empty text. Every record's location
/// is the line of its start tag (the parser's line as it reports the tag: exact past line
/// 65535, where libxml2's tree keeps 16 bits), with the `record:` path (`LocationStyle.element(path:)`).
///
/// The per-event work runs in C (`CXMLShim`): one call fills one chunk. Memory stays flat
/// whatever the file's size: the parser builds no tree, and is fed 64 KiB at a time.
///
/// Safety (CONVENTIONS.md rule 6): no network, no DTD loading, no entity substitution, no
/// XInclude, libxml2's default limits (no `XML_PARSE_HUGE`: a value of at most 10 MB,
/// nesting depth 256, entity amplification checks); the file is opened by us, so a gzip file
/// is not transparently inflated. A process-global external-entity loader that
/// refuses every load is installed the first time a reader opens (thread-safe, once). A
/// reference to a DTD entity, a refused load, or any libxml2 error stops the reading with
/// `.malformedInput` at `file:line[:column]`, after the chunks completed before it.
///
/// At the end, ``finish()`` checks that the file did not change while it was read
/// (``FileChangeWatch``: `.transient`, exit 75), that the record path matched and that every
/// field was found (`XMLReader+Shape.swift`: `.malformedInput`, exit 65).
@_spi(Testing) public final class XMLReader: RecordReader {
    public let schema: Schema
    public var locationStyle: LocationStyle { .element(path: recordText) }
    public var structuralRules: [StructuralRule] {
        [Self.repeatedFieldRule] + (rewrites.contains { $0.date == nil && $0.numbers == .decimalComma } ? [Self.decimalPointRule] : [])
    }
    /// Bytes of the file read so far (compressed bytes for a compressed file).
    public var bytesRead: Int64 { feed?.source.rawBytesRead ?? axml_bytes_read(handle) }
    public let totalBytes: Int64?

    /// External loads (DTDs, entities) the document asked for and this reader refused.
    public var refusedLoads: Int { Int(axml_refused_loads(handle)) }

    /// External loads refused in this process so far, by every reader.
    public static var refusedLoadsInProcess: Int { Int(axml_refused_loads_total()) }

    /// A single-valued field that occurs more than once in a record: the first occurrence is
    /// used and the record is flagged (it is still evaluated).
    public static let repeatedFieldRule = StructuralRule(
        id: "xml.field.repeated", code: 3101, severity: .warning,
        summary: "a single-valued field occurs at most once per record",
        message: "field '{field}' occurs {count} times in the record; the first one was used (map it with 'as: list' to read them all)")

    /// The fields named by `decimalComma:`, `thousandsComma:` and `dateFormat:` (`XMLReader+Formats.swift`).
    let rewrites: [CSVColumnRewrite]
    let handle: OpaquePointer
    /// The stream libxml2 reads for a compressed file or standard input (nil: it reads the file itself).
    let feed: XMLStreamFeed?
    let displayPath: String
    /// The `record:` path as the rules file wrote it, and parsed.
    let recordText: String
    let recordPath: XMLRecordPath
    /// Per field: its path as the rules file wrote it (nil: the default mapping).
    let fieldPaths: [String?]
    /// Whether a field that no record has is allowed (a `columns:` rule reports it instead).
    let missingFieldsAllowed: Bool
    /// Per field: whether some record so far had a value for it.
    var fieldSeen: [Bool]
    /// The file as opened (nil for a FIFO or a device).
    let watch: FileChangeWatch?
    private var nextRecord = 0
    var ended = false
    private var failure: AuditError?

    /// Opens an XML document.
    /// - Parameters:
    ///   - path: The file to read.
    ///   - displayPath: The path as error locations show it (defaults to `path`).
    ///   - fields: The schema: the fields to produce, in this order.
    ///   - options: The record element and the field mappings.
    ///   - missingFieldsAllowed: When false (the default), ``finish()`` throws for a field
    ///     that no record has; when true (a `columns:` rule watches the schema) the field is
    ///     left out of ``availableFields`` instead.
    /// - Throws: ``AuditError``: `.missingInput` when the file cannot be opened, `.invalidRules`
    ///   when a path in `options` is invalid.
    public init(path: String, displayPath: String? = nil, fields: [String], options: XMLReaderOptions,
                missingFieldsAllowed: Bool = false) throws {
        let display = displayPath ?? path
        let record: XMLRecordPath
        var mappings = [(name: String, kind: XMLFieldSpec.Kind, path: XMLFieldPath?)]()
        do throws(XMLPathError) {
            record = try XMLPathSyntax.record(options.record, namespaces: options.namespaces)
            for name in fields {
                if let spec = options.fields[name] {
                    let path = try XMLPathSyntax.field(spec.path, namespaces: options.namespaces)
                    if spec.kind == .map, path.attribute != nil {
                        throw XMLPathError("the field '\(name)' cannot be a map of the attribute in '\(spec.path)'")
                    }
                    mappings.append((name, spec.kind, path))
                } else {
                    mappings.append((name, .text, nil))
                }
            }
        } catch {
            throw AuditError(.invalidRules, "invalid xml options for \(display): \(error.message)")
        }
        // A name that no entity reading the source reads is refused when the plan is made
        // (XMLReaderOptions.problems); one that another entity reads is no field of this reader.
        rewrites = try options.formats.rewrites(of: fields, unknown: nil)

        var errorNumber: Int32 = 0
        var size: Int64 = -1
        // Compressed or standard input: libxml2 reads our decompressed stream (never its own gzip support).
        let feed = ByteSources.isPlainFile(path) ? nil : XMLStreamFeed(try ByteSources.open(path: path, displayPath: display))
        let opened = feed.map { axml_open_stream(display, XMLStreamFeed.read, Unmanaged.passUnretained($0).toOpaque(), &errorNumber) }
            ?? axml_open(path, &errorNumber, &size)
        guard let handle = opened else {
            if let error = feed?.error { throw error }
            let reason = String(cString: strerror(errorNumber))
            switch errorNumber {
            case ENOENT, ENOTDIR:
                throw AuditError(.missingInput, "the XML file does not exist; check the path", location: display, cause: reason)
            case EISDIR:
                throw AuditError(.missingInput, "the path is a directory, not an XML file", location: display, cause: reason)
            case ENOMEM:
                throw AuditError(.io, "cannot open the XML file", location: display, cause: reason)
            default:
                throw AuditError(.missingInput, "cannot open the XML file", location: display, cause: reason)
            }
        }
        self.feed = feed
        self.handle = handle
        self.displayPath = display
        self.schema = Schema(fields: fields)
        self.totalBytes = feed.map { $0.source.totalBytes } ?? (size >= 0 ? size : nil)
        self.recordText = XMLPathSyntax.trim(options.record)
        self.recordPath = record
        self.fieldPaths = fields.map { options.fields[$0]?.path }
        self.missingFieldsAllowed = missingFieldsAllowed
        self.fieldSeen = [Bool](repeating: false, count: fields.count)
        let stat = axml_file_stat(handle).pointee
        self.watch = feed.map { $0.source.watch } ?? (stat.regular == 0 ? nil : FileChangeWatch(
            path: path, displayPath: display,
            opened: FileStamp(device: stat.device, inode: stat.inode, size: stat.size,
                              modifiedSeconds: Int(stat.modified_seconds),
                              modifiedNanoseconds: Int(stat.modified_nanoseconds))))

        var ok = true
        switch record {
        case .anywhere(let name):
            ok = ok && axml_set_record_anywhere(handle, name.namespaceURI, name.localName) == 0
        case .absolute(let names):
            for name in names {
                ok = ok && axml_add_record_step(handle, name.namespaceURI, name.localName) == 0
            }
        }
        for mapping in mappings {
            let kind: Int32
            switch mapping.kind {
            case .text: kind = Int32(AXML_KIND_TEXT)
            case .list: kind = Int32(AXML_KIND_LIST)
            case .map: kind = Int32(AXML_KIND_MAP)
            }
            let field = axml_add_field(handle, kind)
            ok = ok && field >= 0
            if let path = mapping.path {
                for step in path.elements {
                    ok = ok && axml_add_field_step(handle, field, step.namespaceURI, step.localName) == 0
                }
                if let attribute = path.attribute {
                    ok = ok && axml_set_field_attribute(handle, field, attribute.namespaceURI, attribute.localName) == 0
                }
            } else {
                ok = ok && axml_set_field_default(handle, field, mapping.name) == 0
            }
        }
        guard ok else {
            axml_free(handle)
            throw AuditError(.io, "cannot set up the XML reader: out of memory", location: display)
        }
    }

    deinit {
        axml_free(handle)
    }

    /// Returns the next chunk of records.
    ///
    /// When the document turns out malformed, the records completed before the error are
    /// returned first; the next call throws (and so does every call after it).
    /// - Complexity: O(bytes parsed); one call into C per chunk.
    public func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if let failure { throw failure }
        if ended { return nil }
        let batch = axml_read(handle, Int32(clamping: max(1, maxRecords))).pointee
        let chunk = batch.count > 0 ? makeChunk(batch) : nil
        switch Int32(batch.status) {
        case Int32(AXML_STATUS_MORE):
            break
        case Int32(AXML_STATUS_END):
            ended = true
        default:
            let error = watch?.unlessChanged(makeError()) ?? makeError()
            failure = error
            if chunk == nil { throw error }
        }
        return chunk
    }

    /// Copies a C batch into a chunk: one copy of the bytes, one pass over the cells.
    private func makeChunk(_ batch: AXMLBatch) -> RecordChunk {
        let count = Int(batch.count)
        let width = schema.fields.count
        var bytes: [UInt8]
        if batch.byte_count > 0, let start = batch.bytes {
            bytes = Array(UnsafeBufferPointer(start: start, count: Int(batch.byte_count)))
        } else {
            bytes = []
        }
        var composites = [Composite]()
        var repeated = [(row: Int, field: Int, count: Int)]()
        var columns = [[Cell]]()
        columns.reserveCapacity(width)
        // Safety: the shim sets `cells` (count × width, row by row) and `lines` (count) for
        // every batch.
        let cells = batch.cells!
        for field in 0 ..< width {
            let column = [Cell](unsafeUninitializedCapacity: count) { buffer, initialized in
                for row in 0 ..< count {
                    let c = cells[row * width + field]
                    switch Int32(c.tag) {
                    case Int32(AXML_CELL_TEXT):
                        buffer[row] = Cell(tag: .text, payload: c.offset, length: c.length)
                    case Int32(AXML_CELL_LIST):
                        composites.append(.list(items(of: c, in: batch).map(\.value)))
                        buffer[row] = Cell(tag: .list, payload: Int64(composites.count - 1))
                    case Int32(AXML_CELL_NULL):
                        buffer[row] = .null
                    case Int32(AXML_CELL_MAP):
                        let entries = items(of: c, in: batch).map { item in
                            Composite.MapEntry(key: String(decoding: bytes[item.key], as: UTF8.self), value: item.value)
                        }
                        composites.append(.map(entries))
                        buffer[row] = Cell(tag: .map, payload: Int64(composites.count - 1))
                    default:
                        buffer[row] = .missing
                    }
                    if c.repeats > 0 { repeated.append((row, field, Int(c.repeats) + 1)) }
                }
                initialized = count
            }
            if !fieldSeen[field] { fieldSeen[field] = column.contains { $0.tag != .missing || $0.isNull } }
            columns.append(column)
        }
        let locations = Array(UnsafeBufferPointer(start: batch.lines!, count: count))
        var issues = [RecordIssue]()
        for r in rewrites { rewrite(&columns[r.column], r, &bytes, &issues) }
        if !repeated.isEmpty {
            repeated.sort { ($0.row, $0.field) < ($1.row, $1.field) }
            for r in repeated {
                let times = r.count > 255 ? "more than 255" : String(r.count)
                issues.append(RecordIssue(row: r.row, ruleID: Self.repeatedFieldRule.id,
                                          parameters: ["field": schema.fields[r.field], "count": times],
                                          excludesRecord: false))
            }
        }
        let chunk = RecordChunk(firstRecord: nextRecord, count: count, bytes: bytes, columns: columns,
                                locations: locations, composites: composites, issues: issues)
        nextRecord += count
        return chunk
    }

    /// The items of a list or map cell, in document order.
    private func items(of cell: AXMLCell, in batch: AXMLBatch) -> [(key: Range<Int>, value: Cell)] {
        var result = [(key: Range<Int>, value: Cell)]()
        result.reserveCapacity(Int(cell.length))
        guard let items = batch.items else { return result }
        var index = cell.length > 0 ? Int32(truncatingIfNeeded: cell.offset) : -1
        while index >= 0, index < batch.item_count, result.count < Int(cell.length) {
            let item = items[Int(index)]
            let key = item.key_offset >= 0 ? Int(item.key_offset) ..< Int(item.key_offset) + Int(item.key_length) : 0 ..< 0
            result.append((key, item.is_nil != 0 ? .null : Cell(tag: .text, payload: item.offset, length: item.length)))
            index = item.next
        }
        return result
    }

    private func makeError() -> AuditError {
        let e = axml_error(handle).pointee
        if let streamError = feed?.error {
            // A corrupt or truncated compressed stream: located at the line libxml2 reached.
            guard streamError.code == .malformedInput, streamError.location == displayPath, e.line > 0 else { return streamError }
            var located = streamError
            located.location = "\(displayPath):\(e.line)"
            located.message += "; the records before line \(e.line) of the decompressed text were read and checked"
            return located
        }
        let message = Self.printable(withUnsafeBytes(of: e.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        })
        var location = displayPath
        if e.line > 0 {
            location += ":\(e.line)"
            if e.column > 0 { location += ":\(e.column)" }
        }
        switch Int32(e.kind) {
        case Int32(AXML_ERROR_ENTITY):
            return AuditError(.malformedInput, "\(message); auditor does not expand entities (a defence against XXE and entity expansion attacks): replace the reference with its text",
                              location: location)
        case Int32(AXML_ERROR_REFUSED_LOAD):
            return AuditError(.malformedInput, "\(message); auditor never loads external DTDs or entities",
                              location: location)
        case Int32(AXML_ERROR_IO):
            return AuditError(.io, message, location: location,
                              cause: String(cString: strerror(e.errno_value)))
        case Int32(AXML_ERROR_MEMORY):
            return AuditError(.io, message, location: location)
        default:
            return AuditError(.malformedInput, "malformed XML: \(message)", location: location,
                              cause: e.libxml_code > 0 ? "libxml2 error \(e.libxml_code)" : nil)
        }
    }

    /// Escapes control characters (a document's text can end up in a libxml2 message, and a
    /// raw newline in CI output can forge workflow commands: CONVENTIONS.md rule 3).
    static func printable(_ s: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        for c in s.unicodeScalars {
            switch c {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 || c.value == 0x7F || (c.value >= 0x80 && c.value < 0xA0) || c == "\u{2028}" || c == "\u{2029}" {
                    out += "\\u{\(String(c.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }
}

extension XMLReader {
    /// The `xml` format: files ending in `.xml`, options from the source's `xml:` block.
    public static let factory: ReaderFactory = {
        var factory = ReaderFactory(
            format: "xml", extensions: ["xml"],
            decodeOptions: { node throws(AuditError) in
                // No block: the reader says so when it is opened (it names the source).
                guard let node else { return DefaultReaderOptions() }
                let decoded = XMLReaderOptions.decode(node)
                guard let options = decoded.options, decoded.diagnostics.isEmpty else {
                    throw AuditError.invalidRules(decoded.diagnostics)
                }
                return options
            },
            open: { request in
                guard let options = try request.options(as: XMLReaderOptions.self) else {
                    // The element that repeats first in the file, where one does (standard input is not read for it).
                    let example = request.path == ByteSources.standardInput ? nil
                        : sniffOptions(path: request.path, displayPath: request.displayPath)["record"]
                    throw AuditError(.invalidRules, "the source '\(request.sourceName)' is read as XML but has no 'xml:' block; add one that "
                                         + "names the record element, e.g. 'xml: { record: \(example ?? "person") }'"
                                         + (example == nil ? "" : " (the first element that repeats in \(request.displayPath))"),
                                     location: request.displayPath)
                }
                return try XMLReader(path: request.path, displayPath: request.displayPath,
                                     fields: request.fields, options: options,
                                     missingFieldsAllowed: request.missingFieldsAllowed)
            })
        factory.sniff = { path, displayPath in sniffOptions(path: path, displayPath: displayPath) }
        // A child element's local name is its path; a prefixed one would need its namespace declared.
        // A field that repeats is read as a list, whose items no number or date option rewrites.
        factory.columnReadings = { chunk, names in
            let repeated = Set(chunk.issues.filter { $0.ruleID == repeatedFieldRule.id }.compactMap { $0.parameters["field"] })
            var readings = ValueFormats.found(in: chunk, names: names)
            readings.decimalComma.removeAll(where: repeated.contains)
            readings.thousandsComma.removeAll(where: repeated.contains)
            readings.dateFormats = readings.dateFormats.filter { !repeated.contains($0.key) }
            readings.lists = repeated.filter { !$0.contains(":") && !$0.hasPrefix("@") }.sorted()
            return readings
        }
        return factory
    }()
}
