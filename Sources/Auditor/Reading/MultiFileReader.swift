/// The reader of a source of several files: reads them one after the other through the
/// format's own reader, as one input. So every reader gets multi-file sources for free, and
/// the engine's one accumulator per entity makes `unique` and `references` span the files and
/// adds their counts up.
///
/// - Records are numbered across the files (``RecordChunk/firstRecord`` goes on), and each
///   chunk's locations carry their file (``FileLocation``); findings name their file, with
///   lines and record numbers within it (``SourceFiles``).
/// - Each file after the first is opened when the one before it ends, and its fields
///   (``RecordReader/availableFields``, the CSV header) must equal the first file's. A file
///   that cannot be opened or whose fields differ is noted in ``SourceFiles`` (its error is
///   reported, the exit status is 65 or 66) and skipped: the other files are still audited.
/// - An error inside a file (malformed data) ends the whole pass, as it ends a single file's.
/// - When the format's reader cuts morsels (CSV), so does this one (``MultiFileMorselReader``):
///   each file's first morsel resets the location base to that file's origin.
class MultiFileReader: RecordReader {
    let files: SourceFiles
    /// Opens the reader of a file (the same request as the first one's, another path).
    let openFile: (String) throws -> any RecordReader
    let first: any RecordReader
    /// The index of ``first`` in ``files`` (the files before it could not be opened).
    let firstIndex: Int
    private(set) var current: (any RecordReader)?
    /// The index of ``current`` in ``files``.
    private(set) var index: Int
    private var records = 0
    private var finishedBytes: Int64 = 0
    let totalBytes: Int64?
    /// The first file's fields when it was opened: what each later file must have when opened
    /// (a reader that learns its fields only by reading, XML, has none yet at either time).
    let openedFields: [String]

    /// - Parameters:
    ///   - first: The first file's reader, already open.
    ///   - firstIndex: The index of `first`'s file in `files`.
    ///   - files: The files.
    ///   - sizes: The size of each file, if known.
    ///   - openFile: Opens another file.
    init(first: any RecordReader, firstIndex: Int, files: SourceFiles, sizes: [Int64?],
         openFile: @escaping (String) throws -> any RecordReader) {
        self.first = first
        self.firstIndex = firstIndex
        index = firstIndex
        openedFields = first.availableFields
        self.files = files
        self.openFile = openFile
        current = first
        totalBytes = sizes.contains { $0 == nil } ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) }
    }

    /// Makes the reader of `files`: a morsel reader when the first file's reader is one.
    static func make(first: any RecordReader, firstIndex: Int, files: SourceFiles, sizes: [Int64?],
                     openFile: @escaping (String) throws -> any RecordReader) -> MultiFileReader {
        if first is any MorselReader {
            return MultiFileMorselReader(first: first, firstIndex: firstIndex, files: files, sizes: sizes, openFile: openFile)
        }
        return MultiFileReader(first: first, firstIndex: firstIndex, files: files, sizes: sizes, openFile: openFile)
    }

    var schema: Schema { first.schema }
    var locationStyle: LocationStyle { first.locationStyle }
    var structuralRules: [StructuralRule] { first.structuralRules }
    var availableFields: [String] { first.availableFields }
    var bytesRead: Int64 { finishedBytes + (current?.bytesRead ?? 0) }

    func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        do {
            return try nextChunkOfAnyFile(maxRecords: maxRecords)
        } catch {
            files.noteFailure(index)
            throw error
        }
    }

    private func nextChunkOfAnyFile(maxRecords: Int) throws -> RecordChunk? {
        while let reader = try currentReader() {
            guard var chunk = try reader.nextChunk(maxRecords: maxRecords) else {
                try endFile()
                continue
            }
            chunk.firstRecord = records
            records += chunk.count
            if index > 0 {
                let file = index
                let path = files.path(index)
                try chunk.locations.withUnsafeMutableBufferPointer { locations in
                    for r in locations.indices {
                        guard FileLocation.fits(locations[r]) else {
                            throw AuditError(.malformedInput, "record location \(locations[r]) is out of the range a source of "
                                                 + "several files can number (0 to 2^48); audit this file on its own", location: path)
                        }
                        locations[r] = FileLocation.pack(file: file, locations[r])
                    }
                }
            }
            return chunk
        }
        return nil
    }

    func finish() throws {}

    /// The reader of the file being read, opening the next readable one when needed; nil at the end.
    func currentReader() throws -> (any RecordReader)? {
        while current == nil {
            index += 1
            guard index < files.paths.count else { return nil }
            let path = files.paths[index]
            do {
                let reader = try openFile(path)
                if let problem = Self.headerProblem(reader, expected: openedFields, first.schema.fields, path: path,
                                                    firstPath: files.path(firstIndex)) {
                    files.setError(index, problem)
                    continue
                }
                current = reader
                opened(reader)
            } catch let e as AuditError where e.code == .invalidRules {
                throw e
            } catch let e as AuditError {
                files.setError(index, e)
            } catch {
                files.setError(index, AuditError(.internal, "unexpected error while opening: \(error)", location: path))
            }
        }
        return current
    }

    /// Called when a file after the first is opened.
    func opened(_ reader: any RecordReader) {}

    /// Ends the file being read: its final checks, then on to the next one.
    func endFile() throws {
        guard let reader = current else { return }
        try reader.finish()         // a changed file: the pass ends, like a single file's
        finishedBytes += reader.bytesRead
        current = nil
    }

    /// Why a file cannot be read as part of the source: its fields differ from the first file's.
    static func headerProblem(_ reader: any RecordReader, expected: [String], _ schema: [String], path: String,
                              firstPath: String) -> AuditError? {
        let fields = reader.availableFields
        guard fields != expected || reader.schema.fields != schema else { return nil }
        let missing = expected.filter { !fields.contains($0) }, extra = fields.filter { !expected.contains($0) }
        var parts = [String]()
        if !missing.isEmpty { parts.append("it lacks " + missing.map { "'\($0)'" }.joined(separator: ", ")) }
        if !extra.isEmpty { parts.append("it has " + extra.map { "'\($0)'" }.joined(separator: ", ") + " besides") }
        if parts.isEmpty { parts.append("its fields are in another order (\(fields.joined(separator: ", ")))") }
        return AuditError(.malformedInput, "the fields of \(path) differ from those of \(firstPath), the source's first file: "
                              + parts.joined(separator: "; ") + "; this file is not audited (fix its header, or audit it as a source of its own)",
                          location: path)
    }
}

/// ``MultiFileReader`` for a format whose reader cuts morsels (CSV): the files' morsels in order.
final class MultiFileMorselReader: MultiFileReader, MorselReader {
    /// The location base of the next morsel, when it is the first of a file after the first.
    private var pendingOrigin: Int64?

    var morselOrigin: Int64 { FileLocation.pack(file: firstIndex, (first as? any MorselReader)?.morselOrigin ?? 0) }

    override func opened(_ reader: any RecordReader) {
        pendingOrigin = (reader as? any MorselReader).map { FileLocation.pack(file: index, $0.morselOrigin) }
    }

    func nextMorsel(maxRecords: Int) throws -> (any RecordMorsel)? {
        do {
            return try nextMorselOfAnyFile(maxRecords: maxRecords)
        } catch {
            files.noteFailure(index)
            throw error
        }
    }

    private func nextMorselOfAnyFile(maxRecords: Int) throws -> (any RecordMorsel)? {
        while let reader = try currentReader() {
            guard let morsels = reader as? any MorselReader else {
                // Not possible for files of one format; refused rather than read wrongly.
                files.setError(index, AuditError(.internal, "the reader of this file cannot be read with the source's first file",
                                                 location: files.path(index)))
                try endFile()
                continue
            }
            guard let morsel = try morsels.nextMorsel(maxRecords: maxRecords) else {
                try endFile()
                continue
            }
            let origin = pendingOrigin
            pendingOrigin = nil
            return FileMorsel(inner: morsel, origin: origin, file: index, files: files)
        }
        return nil
    }
}

/// A morsel of a multi-file source: its locations carry the file (the first morsel of a file
/// after the first resets the base), its failure names the file that failed.
struct FileMorsel: RecordMorsel {
    var inner: any RecordMorsel
    var origin: Int64?
    var file: Int
    /// Told which file failed (the failure is made only when the morsel is placed in order).
    var files: SourceFiles

    func parse() -> ParsedMorsel {
        var parsed = inner.parse()
        parsed.locationOrigin = origin
        if let failure = parsed.failure {
            let file = self.file, files = self.files
            parsed.failure = { base in
                files.noteFailure(file)
                return failure(base - FileLocation.pack(file: file, 0))
            }
        }
        return parsed
    }
}
