/// What a reader is asked to open.
public struct ReaderRequest: Sendable {
    /// The source's name in the rules file (`people`).
    public var sourceName: String
    /// The path to open (absolute, or relative to the current directory).
    public var path: String
    /// The path as findings show it (as the user wrote it).
    public var displayPath: String
    /// This format's option block from the rules file (`csv: {...}`), if any.
    public var options: ConfigNode?
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

    public init(sourceName: String, path: String, displayPath: String, options: ConfigNode?,
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
    /// Checks an option block without opening data (`auditor check`); returns every problem.
    public var validateOptions: @Sendable (ConfigNode) -> [Diagnostic]
    /// The fields an input will have when its options alone tell (a CSV with `columns:`),
    /// so that `auditor check` can validate attribute names without reading data.
    public var declaredFields: @Sendable (ConfigNode?) -> [String]?
    /// The fields that the options make lists or maps (XML `as: list|map`), so that
    /// `auditor check` can refuse list and map constraints on single values; others are scalars.
    public var fieldShapes: @Sendable (ConfigNode?) -> [String: FieldShape]
    /// Opens a reader.
    /// - Throws: ``AuditError`` (`.missingInput`, `.malformedInput`, `.invalidRules` for bad options).
    public var open: @Sendable (ReaderRequest) throws -> any RecordReader

    public init(format: String, extensions: [String],
                validateOptions: @escaping @Sendable (ConfigNode) -> [Diagnostic] = { _ in [] },
                declaredFields: @escaping @Sendable (ConfigNode?) -> [String]? = { _ in nil },
                fieldShapes: @escaping @Sendable (ConfigNode?) -> [String: FieldShape] = { _ in [:] },
                open: @escaping @Sendable (ReaderRequest) throws -> any RecordReader) {
        self.format = format
        self.fieldShapes = fieldShapes
        self.declaredFields = declaredFields
        self.extensions = extensions
        self.validateOptions = validateOptions
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

    /// The factory for a path's extension (`people.CSV` → csv; `x.csv.gz` is not handled).
    public func factory(forPath path: String) -> ReaderFactory? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        return factories.first { $0.extensions.contains(ext) }
    }
}
