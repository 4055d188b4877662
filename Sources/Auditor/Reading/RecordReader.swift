/// A source of records: a pull cursor over one input that returns columnar chunks.
///
/// What an implementation must guarantee:
/// - ``schema`` is known when the reader is created and never changes; every chunk has
///   exactly `schema.fields.count` columns, in that order.
/// - ``nextChunk(maxRecords:)`` returns chunks of 1...`maxRecords` records in source order,
///   then `nil` at the end (and `nil` again if called after that). `firstRecord` of each chunk
///   continues where the previous chunk ended, starting at 0.
/// - Chunks are independent values: they own their bytes, so they can be evaluated on other
///   threads while the reader goes on.
/// - Bad *data* inside an otherwise readable record is not an error: a value of the wrong
///   type is stored as it is (rules judge it); a record whose structure is broken (a ragged CSV
///   row) is stored as well as it can be and flagged with a ``RecordIssue`` of one of the
///   reader's ``structuralRules``.
/// - When the input cannot be read further (malformed, truncated, I/O), the reader throws an
///   ``AuditError`` with code `.malformedInput`, `.io` or `.missingInput` and a location
///   (`file:line:column`). Chunks returned before the error stay valid: their findings are
///   reported and the input is marked as not fully read.
/// - The reader never writes to the input, nor anywhere next to it.
///
/// Readers own operating-system or C resources and are used from one thread at a time;
/// they need not be `Sendable`. With several jobs the engine's pipeline calls a reader from
/// its producer thread, so a reader must not depend on the thread that created it. A reader
/// that can cut its input into independently parsed pieces also adopts `MorselReader` (package: the built-in CSV reader).
public protocol RecordReader: AnyObject {
    /// The fields this reader produces, in column order.
    var schema: Schema { get }
    /// How to read the per-record numbers in ``RecordChunk/locations``.
    var locationStyle: LocationStyle { get }
    /// The structural rules this reader may flag records with (reported even when not violated).
    var structuralRules: [StructuralRule] { get }
    /// Bytes consumed so far (for progress), if known.
    var bytesRead: Int64 { get }
    /// The input's total size in bytes, if known.
    var totalBytes: Int64? { get }
    /// Every field the input has (CSV header, all columns of a table), when it can tell:
    /// `columns:` rules compare it with the declared attributes. Defaults to the schema.
    var availableFields: [String] { get }
    /// Returns the next chunk of at most `maxRecords` records, or `nil` at the end.
    /// - Throws: ``AuditError`` when the input cannot be read further.
    func nextChunk(maxRecords: Int) throws -> RecordChunk?

    /// Called once after the last chunk; verifies what can only be checked at the end (for
    /// example, that a database did not change during the audit).
    /// - Throws: ``AuditError`` (`.transient` when the input changed).
    func finish() throws
}

extension RecordReader {
    public var bytesRead: Int64 { 0 }
    public var totalBytes: Int64? { nil }
    public var structuralRules: [StructuralRule] { [] }
    public var availableFields: [String] { schema.fields }
    public func finish() throws {}
}

/// A rule that a reader checks while it reads (record structure, encoding), declared up front
/// so that the report lists it with a count even when nothing violated it.
public struct StructuralRule: Sendable, Equatable {
    public var id: String
    public var code: Int
    public var severity: Severity
    /// A short description: "every record has as many fields as the header".
    public var summary: String
    /// The default message template; may use `{value}`, `{source}` and the parameters.
    public var message: String

    public init(id: String, code: Int, severity: Severity = .error, summary: String, message: String) {
        self.id = id
        self.code = code
        self.severity = severity
        self.summary = summary
        self.message = message
    }
}
