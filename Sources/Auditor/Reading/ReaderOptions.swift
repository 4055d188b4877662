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
}

extension ReaderOptions {
    public var declaredFields: [String]? { nil }
    public var fieldShapes: [String: FieldShape] { [:] }
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

extension ReaderRegistry {
    /// Decodes every option block of every source once, with the factory of its format
    /// (blocks of formats not registered are left alone, as unknown formats are).
    /// - Parameter sources: The rules file's sources.
    /// - Returns: The decoded options of the blocks that decode, and every problem of the
    ///   others, located in the rules file (sources in order, each one's formats by name).
    package func decodeOptions(_ sources: [SourceSpec]) -> (options: SourceOptions, diagnostics: [Diagnostic]) {
        var out = SourceOptions()
        var diagnostics = [Diagnostic]()
        for source in sources {
            for (format, node) in source.options.sorted(by: { $0.key < $1.key }) {
                guard let factory = factory(format: format) else { continue }
                do throws(AuditError) {
                    out.bySource[source.name, default: [:]][format] = try factory.decodeOptions(node)
                } catch {
                    diagnostics += error.diagnostics.isEmpty ? [Diagnostic(mark: node.mark, message: error.message)]
                                                              : error.diagnostics
                }
            }
        }
        return (out, diagnostics)
    }
}

extension AuditPlan {
    /// Decodes the sources' option blocks with the registry's factories and adopts them
    /// (``adopt(_:)``), unless the plan already carries decoded options.
    /// - Throws: ``AuditError`` `.invalidRules` with every located problem of the blocks.
    public mutating func decodeReaderOptions(_ registry: ReaderRegistry) throws(AuditError) {
        guard readerOptions == nil else { return }
        let (options, diagnostics) = registry.decodeOptions(sources)
        if !diagnostics.isEmpty { throw AuditError.invalidRules(diagnostics) }
        adopt(options)
    }
}
