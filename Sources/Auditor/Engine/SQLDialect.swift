/// How one SQL engine writes the pieces of a pushed-down audit (SQLite, PostgreSQL; Spark SQL
/// and Trino would be one more conformance each). The lowering (``PushdownLowering``) builds
/// every condition from these pieces and never writes engine-specific SQL itself.
///
/// Every condition a dialect returns must be *sound*: where it says a value is valid (or a
/// rule holds), the streaming engine says so too. It may say "not surely" more often than
/// needed (a datetime with an offset, text with a NUL byte): such rows are read out and
/// checked in the process, so the report stays exact. A piece the engine cannot express
/// exactly returns nil, and the entity is then read in full.
///
/// A lowering may be tried before it is used (to learn whether a first read of some columns
/// is worth it), so a piece that registers state for the query (a join, a key set) returns
/// the same expression, and registers nothing more, when asked again with the same arguments.
package protocol SQLDialect {
    /// The engine's name as reports show it ("sqlite", "postgresql").
    var engine: String { get }
    /// The column expression of a field the reader reads, or nil.
    func column(_ field: String) -> String?
    /// True where the field is present (not NULL) and surely of `type`, in the form the
    /// other pieces below expect (for text: without NUL bytes; for a date-time: a form whose
    /// UTC date the dialect can take).
    func valid(_ field: String, as type: ValueType) -> String?
    /// A valid integer or decimal field as an SQL number that compares exactly (the column,
    /// or its text cast once it is known to be valid).
    func number(_ field: String, _ type: ValueType) -> String?
    /// True where a valid integer or decimal field is a number the expression engine holds
    /// exactly (an integer of magnitude at most 2^53, a decimal of at most 15 significant
    /// digits; the streaming engine skips a record rule on any other); may be narrower.
    func exactNumber(_ field: String, _ type: ValueType) -> String?
    /// A valid integer or decimal field as an exact decimal (PostgreSQL's `numeric`): a type
    /// whose `+`, `-`, `*`, unary `-` and comparisons are exact at any length; nil where the
    /// engine has none (the default), or the field's value is not the number the expression
    /// engine reads (a floating-point column).
    func exactDecimal(_ field: String, _ type: ValueType) -> String?
    /// A number literal as an exact decimal of ``exactDecimal(_:_:)``'s type, or nil.
    func exactDecimal(_ literal: ExactDecimal) -> String?
    /// The Unicode scalar count of a valid string field.
    func characters(_ field: String) -> String
    /// True where a valid string field fully matches `pattern`; nil when the engine cannot
    /// match it exactly.
    func matches(_ field: String, _ pattern: Pattern) -> String?
    /// A string literal.
    func literal(_ text: String) -> String
    /// A valid string field compared byte for byte (no collation).
    func bytes(_ field: String) -> String
    /// A valid boolean field as an SQL condition.
    func isTrue(_ field: String) -> String
    /// A valid date field, or a valid date-time field's UTC date, in a form that compares as
    /// dates do (a day number, an SQL date) and that ``year(_:)`` and ``monthDay(_:)`` read.
    func dateText(_ field: String, _ type: ValueType) -> String?
    /// A date constant (days since 1970-01-01) in the form of ``dateText(_:_:)``.
    func dateConstant(_ days: Int) -> String
    /// The year (an integer) of a date expression.
    func year(_ dateText: String) -> String
    /// The month and day of a date expression, comparable as (month, day) pairs.
    func monthDay(_ dateText: String) -> String
    /// True where the row's values of `fields` occur in more than one row in which every one
    /// of them satisfies its condition in `valid` (the key rows of a unique rule). Values
    /// must be grouped at least as coarsely as the streaming engine's keys compare.
    func duplicated(_ fields: [(name: String, type: ValueType)], valid: [String]) -> String?
    /// The most keys ``isOneOf(_:_:)`` takes (a referenced entity's key set, sent with the query).
    var maxKeySet: Int { get }
    /// True where `number` (a valid integer, ``number(_:_:)``) is one of `keys` (distinct,
    /// ascending, at least one): a reference to a parent whose keys were read first.
    func isOneOf(_ number: String, _ keys: [Int64]) -> String
}

extension SQLDialect {
    package func exactDecimal(_ field: String, _ type: ValueType) -> String? { nil }
    package func exactDecimal(_ literal: ExactDecimal) -> String? { nil }

    /// An `IN` list written out: every engine parses it, but as one expression per key.
    package var maxKeySet: Int { 100_000 }

    package func isOneOf(_ number: String, _ keys: [Int64]) -> String {
        "\(number) IN (\(keys.map(String.init).joined(separator: ", ")))"
    }
}

/// A reader whose rows live in an engine that can evaluate a ``SQLDialect``'s conditions
/// (`pushdown: true`): the engine counts, the reader then reads only the rows that may fail.
package protocol PushdownReader: RecordReader {
    /// Why this reader cannot push down (a query, a view), or nil.
    var pushdownUnavailable: String? { get }
    var dialect: any SQLDialect { get }
    /// From now on, reads only the rows where `passes` is not true, and counts the others:
    /// every row, the rows where `passes` is true, and among those the rows where each of
    /// `conditions` is true (``passingCounts()``). Called before the first chunk.
    func restrict(passing passes: String, counting conditions: [String]) throws
    /// The counts of ``restrict(passing:counting:)``, in that order; asked once the read has
    /// ended (a reader may count while it reads).
    func passingCounts() throws -> [Int]
    /// From now on, reads only `fields` and the location, every other field as missing: the
    /// pass that takes a pushed-down entity's referenced keys first. Called before the first
    /// chunk, instead of ``restrict(passing:counting:)``.
    /// - Returns: false when the reader cannot; it then reads as before (the default).
    func readOnly(_ fields: Set<String>) throws -> Bool
}

extension PushdownReader {
    package func readOnly(_ fields: Set<String>) throws -> Bool { false }
}
