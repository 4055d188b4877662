/// What a reader is asked to open.
public struct ReaderRequest: Sendable {
    /// The source's name in the rules file (`people`).
    public var sourceName: String
    /// The path to open (absolute, or relative to the current directory).
    public var path: String
    /// The path as findings show it (as the user wrote it).
    public var displayPath: String
    /// This format's option block from the rules file (`csv: {...}`), decoded by the
    /// format's ``ReaderFactory/decodeOptions``; ``DefaultReaderOptions`` when the source has
    /// none. Readers read it with ``options(as:)``.
    public var options: any ReaderOptions
    /// The attributes the rules need, in entity order. Readers whose schema is not in the
    /// data itself (XML, SQLite) produce exactly these fields; CSV reads its header.
    public var fields: [String]
    /// How many threads the reader may use to produce chunks (the engine passes `--jobs`).
    /// A reader may ignore it; one that uses it must deliver the same records, issues and
    /// errors for every value. Default 1.
    public var parallelism: Int
    /// True when a `columns:` rule watches the entity's schema: a field of ``fields`` that the
    /// input turns out not to have is then reported by that rule (through
    /// ``RecordReader/availableFields``) rather than as an error by the reader. Default false.
    public var missingFieldsAllowed: Bool

    public init(sourceName: String, path: String, displayPath: String, options: any ReaderOptions = DefaultReaderOptions(),
                fields: [String], parallelism: Int = 1, missingFieldsAllowed: Bool = false) {
        self.sourceName = sourceName
        self.path = path
        self.displayPath = displayPath
        self.options = options
        self.fields = fields
        self.parallelism = max(1, parallelism)
        self.missingFieldsAllowed = missingFieldsAllowed
    }
}

/// Knows how to open one format.
public struct ReaderFactory: Sendable {
    /// The format name, also the key of its option block in a source (`csv`, `xml`, `sqlite`).
    public var format: String
    /// File extensions (lower case, no dot) that select this format when `format:` is absent.
    public var extensions: [String]
    /// URL schemes (lower case) that select this format when `format:` is absent: a source
    /// path `postgresql://host/db` is a connection, not a file (see `SourceURL`).
    package var schemes: [String] = []
    /// Whether its readers can push down and read only some columns (``PushdownReader/readOnly(_:)``):
    /// a pushed-down entity that others reference then has its keys read first, alone.
    package var readsKeyColumnsAlone = false
    /// The options that a file's own content tells, for `auditor profile`, which has no rules
    /// file to read them from: a CSV's delimiter (`["delimiter": ";"]`), an XML file's record
    /// element (`["record": "/people/person"]`), an SQLite database's only table (`["table":
    /// "items"]`). Given the path and the path as messages show it; empty when the defaults read
    /// it, or it cannot be read.
    package var sniff: (@Sendable (_ path: String, _ displayPath: String) -> [String: String])?
    /// The tables `auditor profile` reads from a database it is given no table of: every table
    /// and view when there are several and none is named like the file (the default); empty
    /// otherwise (``sniff`` then names the only one).
    package var profiledTables: (@Sendable (_ path: String, _ displayPath: String) -> [String])?
    /// The shapes that a file's own schema gives its fields, where the format has lists and maps
    /// of its own (Parquet `LIST` and `MAP` columns), read from its metadata only, so that list
    /// and map constraints are checked against them before the run; nil when it cannot be read
    /// (the audit then says why). Nil for formats whose options declare shapes.
    package var schemaShapes: (@Sendable (_ path: String) -> [String: FieldShape]?)?
    /// Whether each value carries its own shape (JSON Lines: an array is a list, an object a
    /// map): list and map constraints on a field the options do not declare are then checked
    /// on each value in the run ("must be a list"), not refused before it.
    package var valuesCarryShapes = false
    /// The fields of `chunk` (named `names`, in order) that `auditor profile` reads otherwise than
    /// the defaults do: numbers written with a decimal comma (`12,50`) and dates in another order
    /// (`31.12.2024`), a CSV's `decimalComma:` and `dateFormat:`; fields that hold several values
    /// in some record (an XML child element that repeats), declared `{ path: NAME, as: list }`.
    package var columnReadings: (@Sendable (_ chunk: RecordChunk, _ names: [String]) -> ColumnReadings)?
    /// Decodes the format's option block of a source (`nil`: the source has none) into the
    /// typed value the reader is made with, once, when the plan is compiled (see
    /// `ReaderRegistry.decodeOptions(_:)`); no data is read. The value also answers
    /// ``ReaderOptions/declaredFields`` and ``ReaderOptions/fieldShapes``.
    /// - Throws: ``AuditError`` `.invalidRules` with every problem of the block, located in the
    ///   rules file.
    public var decodeOptions: @Sendable (ConfigNode?) throws(AuditError) -> any ReaderOptions
    /// Opens a reader with the options ``decodeOptions`` made (in ``ReaderRequest/options``).
    /// - Throws: ``AuditError`` (`.missingInput`, `.malformedInput`, `.invalidRules` for bad options).
    public var open: @Sendable (ReaderRequest) throws -> any RecordReader

    public init(format: String, extensions: [String],
                decodeOptions: @escaping @Sendable (ConfigNode?) throws(AuditError) -> any ReaderOptions = { _ in DefaultReaderOptions() },
                open: @escaping @Sendable (ReaderRequest) throws -> any RecordReader) {
        self.format = format
        self.extensions = extensions
        self.decodeOptions = decodeOptions
        self.open = open
    }
}

/// Maps format names and file extensions to readers. A value: build one, register what you
/// need, pass it in. (`Readers.standard` is the registry with CSV, XML and SQLite.)
public struct ReaderRegistry: Sendable {
    public private(set) var factories: [ReaderFactory] = []

    public init(_ factories: [ReaderFactory] = []) {
        for f in factories { register(f) }
    }

    /// Adds a reader; a later registration of the same format replaces the earlier one.
    public mutating func register(_ factory: ReaderFactory) {
        factories.removeAll { $0.format == factory.format }
        factories.append(factory)
    }

    /// The registered format names.
    public var formats: [String] { factories.map(\.format) }

    public func factory(format: String) -> ReaderFactory? {
        factories.first { $0.format == format }
    }

    /// Extensions of compressed files, looked through to the format's extension
    /// (`people.csv.gz` → csv). Whether a file is compressed is decided by its first bytes.
    package static let compressionExtensions: Set<String> = ["gz", "gzip", "zst", "zstd"]

    /// The factory for a URL's scheme (`postgresql://…` → postgres), or for a path's extension
    /// (`people.CSV` → csv), after a compression extension (`people.csv.gz`, `people.xml.zst` →
    /// csv, xml). Nil for standard input (`-`).
    public func factory(forPath path: String) -> ReaderFactory? {
        if let scheme = SourceURL.scheme(of: path) {
            return factories.first { $0.schemes.contains(scheme) }
        }
        var name = Substring(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path))
        for _ in 0..<2 {
            guard let dot = name.lastIndex(of: ".") else { return nil }
            let ext = name[name.index(after: dot)...].lowercased()
            if Self.compressionExtensions.contains(ext) {
                name = name[..<dot]
                continue
            }
            return factories.first { $0.extensions.contains(ext) }
        }
        return nil
    }
}
