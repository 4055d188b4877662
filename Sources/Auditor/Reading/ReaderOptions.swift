/// A reader's options: a source's option block for one format (`csv: {...}`), decoded once,
/// when the plan is compiled, by the format's ``ReaderFactory/decodeOptions``.
///
/// What an implementation must guarantee: it is an immutable, `Sendable` value holding
/// everything the reader needs from the block (nothing is decoded again when the reader is
/// made), and ``declaredFields`` and ``fieldShapes`` answer from it without reading data.
public protocol ReaderOptions: Sendable {
    /// The fields an input will have when the options alone tell (a CSV with `columns:`), so
    /// that `auditor check` can validate attribute names without reading data; nil otherwise.
    var declaredFields: [String]? { get }
    /// The fields that the options make lists or maps (XML `as: list|map`), so that list and
    /// map constraints on single values are refused before the run; others are scalars.
    var fieldShapes: [String: FieldShape] { get }
    /// The options' problems with the fields that the source's entities read, found without
    /// reading data, where those are the format's fields (XML: a `decimalComma:` name that no
    /// rule reads); none by default.
    /// - Parameters:
    ///   - fields: Every field that an entity reading the source reads.
    ///   - displayPath: The source's path, as messages show it.
    func problems(reading fields: Set<String>, displayPath: String) -> [Diagnostic]
    /// How the options say a field's values of `type` are written, for the `type:` rule's
    /// messages (`a date (DD.MM.YYYY, or YYYY-MM-DD)`); nil (the default): as the type says.
    /// - Parameters:
    ///   - field: A field that an entity reading the source declares.
    ///   - type: The type it declares.
    func typeName(of field: String, as type: ValueType) -> String?
}

extension ReaderOptions {
    public var declaredFields: [String]? { nil }
    public var fieldShapes: [String: FieldShape] { [:] }
    public func problems(reading fields: Set<String>, displayPath: String) -> [Diagnostic] { [] }
    public func typeName(of field: String, as type: ValueType) -> String? { nil }
}

/// The options of a source that has no block for the format it is read as (or of a format
/// without options): each reader then uses its defaults, or says what the block must name.
public struct DefaultReaderOptions: ReaderOptions, Equatable {
    public init() {}
}

extension ReaderRequest {
    /// The request's options as the reader's own type.
    /// - Returns: The options, or nil when the source has no block for this format
    ///   (``DefaultReaderOptions``): the reader's defaults apply.
    /// - Throws: ``AuditError`` `.internal` when the options were decoded by another format's
    ///   factory (a caller that paired a request with the wrong factory).
    public func options<T: ReaderOptions>(as type: T.Type) throws(AuditError) -> T? {
        if let options = options as? T { return options }
        if options is DefaultReaderOptions { return nil }
        throw AuditError(.internal, "the reader of '\(displayPath)' expects \(T.self) but was given \(Swift.type(of: options)); "
                         + "decode the source's block with the same format's factory (ReaderFactory.decodeOptions)",
                         location: displayPath)
    }
}

/// Every source's option blocks, decoded: by source name, then format. What a compiled plan
/// carries (``AuditPlan/readerOptions``) instead of the raw blocks.
package struct SourceOptions: Sendable {
    /// By source name, then format name.
    public var bySource: [String: [String: any ReaderOptions]]

    public init(_ bySource: [String: [String: any ReaderOptions]] = [:]) {
        self.bySource = bySource
    }

    /// The decoded block of a source for a format, or nil when the source has none.
    public subscript(source: String, format: String) -> (any ReaderOptions)? {
        bySource[source]?[format]
    }

    /// The shapes every block of a source gives its fields (one source may be read as CSV or
    /// XML: `--source`); the block of the first format in name order wins a conflict.
    public func fieldShapes(source: String) -> [String: FieldShape] {
        var shapes = [String: FieldShape]()
        for (_, options) in (bySource[source] ?? [:]).sorted(by: { $0.key < $1.key }) {
            shapes.merge(options.fieldShapes) { first, _ in first }
        }
        return shapes
    }
}
