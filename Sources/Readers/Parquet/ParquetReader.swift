import Auditor
import Dispatch

/// Reads the records of a Parquet file (our own reader over zlib, zstd and snappy).
///
/// - Schema: the requested ``ReaderRequest/fields`` that are top-level columns of the file, in
///   request order (all columns when none is requested); only those columns' chunks are read.
///   A requested column of a type the reader cannot read (a struct, a list of lists, INT96,
///   FLOAT16, an LZ4 or BROTLI codec) is refused with `.malformedInput`, naming it.
/// - Values (see ``ParquetCells``): INT32/INT64 → `.integer`; FLOAT/DOUBLE → `.real` (NaN,
///   `Infinity` and `-Infinity` as text, which no numeric type accepts);
///   STRING → UTF-8 text (refused when not UTF-8); BOOLEAN → text `true`/`false`; DATE,
///   TIMESTAMP, TIME, DECIMAL, UUID → their canonical text; other binary → `.blob`;
///   LIST → a list cell; MAP of string keys → a map cell; null → `.missing`. Chunks carry no
///   storage classes: a string column is judged exactly as a CSV field with the same text.
/// - Locations: `LocationStyle.rowGroup` (`people.parquet:rowgroup 0:row 17`, both from 0).
/// - Parallelism: the columns of a chunk are decoded on up to ``ReaderRequest/parallelism``
///   threads; chunks are delivered in order and never cross a row group. Memory: the
///   compressed column chunks of one row group plus one decompressed page per column.
package final class ParquetReader: RecordReader {
    public let schema: Schema
    public let availableFields: [String]
    public var locationStyle: LocationStyle { .rowGroup }
    public var totalBytes: Int64? { file.size }
    public private(set) var bytesRead: Int64 = 0

    /// The factory for ``ReaderRegistry`` (format `parquet`, extension `parquet`).
    /// There are no options: a `parquet:` block may only be empty (a key in it is refused).
    public static let factory: ReaderFactory = {
        var factory = ReaderFactory(
            format: "parquet", extensions: ["parquet"],
            decodeOptions: { node throws(AuditError) in
                guard let node, !node.isNull else { return DefaultReaderOptions() }
                let mapping: ConfigMapping
                do throws(Diagnostic) { mapping = try node.mapping("the parquet block") } catch { throw AuditError.invalidRules([error]) }
                if let key = mapping.keys.first {
                    throw AuditError.invalidRules([(mapping.keyNode(key) ?? node).error(
                        "the parquet block takes no options; remove '\(key)' (the reader reads the columns the rules use)")])
                }
                return DefaultReaderOptions()
            },
            open: { request in
                try ByteSources.refuseStream(request.path, displayPath: request.displayPath, format: "a Parquet file")
                return try ParquetReader(request: request)
            })
        factory.schemaShapes = { path in shapes(path: path) }
        return factory
    }()

    /// Each column's shape from the file's schema (a `LIST` a list, a `MAP` a map); nil when
    /// the file or its footer cannot be read.
    static func shapes(path: String) -> [String: FieldShape]? {
        guard let file = try? ParquetFile(path: path, displayPath: path),
              let meta = try? file.footer(), let (fields, _) = try? ParquetSchema.fields(meta.schema) else { return nil }
        var shapes = [String: FieldShape]()
        for f in fields {
            switch f.shape {
            case .list: shapes[f.name] = .list
            case .map: shapes[f.name] = .map
            case .scalar, .unsupported: shapes[f.name] = .scalar
            }
        }
        return shapes
    }

    private let file: ParquetFile
    private let meta: ParquetFileMetaData
    private let fields: [ParquetField]
    private let parallelism: Int
    private var group = -1
    private var groupRows = 0
    private var row = 0
    private var produced = 0
    private var cursors: [[ParquetColumnCursor]] = []
    private var failure: AuditError?
    private let watch: FileChangeWatch

    /// Opens the file and reads its footer.
    /// - Throws: ``AuditError``: `.missingInput` (cannot open), `.malformedInput` (not Parquet,
    ///   corrupt footer, a requested column of a type it cannot read).
    public init(request: ReaderRequest) throws(AuditError) {
        let file = try ParquetFile(path: request.path, displayPath: request.displayPath)
        func malformed(_ message: String) -> AuditError {
            AuditError(.malformedInput, message, location: request.displayPath)
        }
        let meta: ParquetFileMetaData
        let all: [ParquetField]
        let leafCount: Int
        do {
            meta = try file.footer()
            (all, leafCount) = try ParquetSchema.fields(meta.schema)
        } catch {
            throw malformed(error.message)
        }
        guard meta.rowGroups.count < 1 << 23 else { throw malformed("the file has more than 2^23 row groups") }
        for (g, rg) in meta.rowGroups.enumerated() {
            guard rg.columns.count == leafCount, rg.numRows >= 0, rg.numRows < 1 << 40 else {
                throw malformed("row group \(g) has \(rg.columns.count) column chunks and \(rg.numRows) rows "
                                + "for a schema of \(leafCount) columns")
            }
        }
        var selected = [ParquetField]()
        if request.fields.isEmpty {
            selected = all
        } else {
            for name in request.fields {
                if let f = all.first(where: { $0.name == name }) { selected.append(f) }
            }
        }
        for f in selected {
            var leaves = [ParquetLeaf]()
            switch f.shape {
            case .unsupported(let why):
                throw malformed("column '\(f.name)' is \(why), which auditor cannot read; "
                                + "audit a file without it or leave it out of the rules")
            case .scalar(let l), .list(let l, _): leaves = [l]
            case .map(let k, let v, _): leaves = [k, v]
            }
            for l in leaves {
                for (g, rg) in meta.rowGroups.enumerated() {
                    let c = rg.columns[l.index]
                    guard c.hasMetaData, c.filePath == nil else {
                        throw malformed("column '\(f.name)' of row group \(g) is stored in another file, which auditor does not read")
                    }
                    guard c.type == l.physical else {
                        throw malformed("column '\(f.name)' of row group \(g) is \(ParquetValues.physicalName(c.type)) "
                                        + "where the schema says \(ParquetValues.physicalName(l.physical))")
                    }
                    guard ParquetCodecs.isSupported(c.codec) else {
                        throw malformed("column '\(f.name)' is compressed with \(ParquetCodecs.name(c.codec)); "
                                        + "auditor reads UNCOMPRESSED, SNAPPY, GZIP and ZSTD")
                    }
                }
            }
        }
        self.file = file
        self.meta = meta
        fields = selected
        schema = Schema(fields: selected.map(\.name))
        availableFields = all.map(\.name)
        parallelism = request.parallelism
        watch = FileChangeWatch(path: request.path, displayPath: request.displayPath, opened: file.opened)
    }

    public func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if let failure { throw failure }
        do throws(AuditError) {
            while row >= groupRows {
                if group >= 0 { try endGroup() }
                group += 1
                guard group < meta.rowGroups.count else {
                    group = meta.rowGroups.count
                    groupRows = 0
                    return nil
                }
                startGroup()
            }
        } catch {
            let located = watch.unlessChanged(error)
            failure = located
            throw located
        }
        let n = min(max(1, maxRecords), groupRows - row)
        let outputs = fill(rows: n)
        var chunk = RecordChunk(firstRecord: produced, count: n, bytes: [], columns: [], locations: [])
        let base = Int64(group) << 40 | Int64(row)
        chunk.locations = (0 ..< n).map { base + Int64($0) }
        for (f, output) in outputs.enumerated() {
            switch output {
            case .failure(let message):
                let error = watch.unlessChanged(AuditError(
                    .malformedInput, "column '\(fields[f].name)': \(message)",
                    location: "\(file.displayPath):rowgroup \(group):row \(row)"))
                failure = error
                throw error
            case .success(var column):
                column.shift(bytes: chunk.bytes.count, composites: chunk.composites.count)
                chunk.bytes.append(contentsOf: column.bytes)
                chunk.composites.append(contentsOf: column.composites)
                chunk.columns.append(column.cells)
            }
        }
        row += n
        produced += n
        bytesRead = file.size * Int64(produced) / max(1, meta.numRows)
        return chunk
    }

    public func finish() throws {
        cursors = []
        try watch.check(bytesRead: nil)
    }

    private func startGroup() {
        let rg = meta.rowGroups[group]
        groupRows = Int(rg.numRows)
        row = 0
        cursors = fields.map { f in
            let leaves: [ParquetLeaf]
            switch f.shape {
            case .scalar(let l), .list(let l, _): leaves = [l]
            case .map(let k, let v, _): leaves = [k, v]
            case .unsupported: leaves = []
            }
            return leaves.map { ParquetColumnCursor(leaf: $0, file: file, meta: rg.columns[$0.index], rowGroup: group) }
        }
    }

    /// Checks that no column holds more rows than its row group declares.
    private func endGroup() throws(AuditError) {
        for (f, list) in cursors.enumerated() {
            for c in list {
                let more: Bool
                do { more = try c.hasEntry() } catch {
                    throw AuditError(.malformedInput, "column '\(fields[f].name)': \(error.message)",
                                     location: "\(file.displayPath):rowgroup \(group)")
                }
                if more {
                    throw AuditError(.malformedInput, "column '\(fields[f].name)' holds more values than the "
                                     + "\(groupRows) rows its row group declares", location: "\(file.displayPath):rowgroup \(group)")
                }
            }
        }
        cursors = []
    }

    /// Decodes `rows` rows of every field, on several threads when allowed.
    private func fill(rows: Int) -> [ParquetColumnOutput.Result] {
        let jobs = ParquetJobs(fields: fields, cursors: cursors, rows: rows, groupRows: groupRows)
        if parallelism > 1 && fields.count > 1 && rows >= 256 {
            DispatchQueue.concurrentPerform(iterations: fields.count) { jobs.run($0) }
        } else {
            for f in 0 ..< fields.count { jobs.run(f) }
        }
        return jobs.results
    }
}

/// The per-field work of one chunk, shared by the threads that decode it.
// @unchecked Sendable: thread f touches only `cursors[f]` and `results[f]` (distinct
// cursors, and distinct elements of a buffer allocated before and read after
// `concurrentPerform`, which orders those accesses).
private final class ParquetJobs: @unchecked Sendable {
    let fields: [ParquetField]
    let cursors: [[ParquetColumnCursor]]
    let rows: Int
    let groupRows: Int
    private let slots: UnsafeMutableBufferPointer<ParquetColumnOutput.Result>

    init(fields: [ParquetField], cursors: [[ParquetColumnCursor]], rows: Int, groupRows: Int) {
        self.fields = fields
        self.cursors = cursors
        self.rows = rows
        self.groupRows = groupRows
        slots = .allocate(capacity: fields.count)
        slots.initialize(repeating: .failure("not decoded"))
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func run(_ f: Int) {
        slots[f] = ParquetColumnOutput.decode(fields[f], cursors[f], rows: rows)
    }

    var results: [ParquetColumnOutput.Result] { Array(slots) }
}
