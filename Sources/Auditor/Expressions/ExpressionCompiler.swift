/// An attribute an expression may read: its name and declared type.
@_spi(Testing) public struct ExpressionAttribute: Sendable, Equatable {
    public var name: String
    public var type: ValueType

    public init(name: String, type: ValueType) {
        self.name = name
        self.type = type
    }
}

/// The type of an expression or sub-expression, checked at compile time.
@_spi(Testing) public indirect enum ExpressionType: Sendable, Equatable, CustomStringConvertible {
    case boolean
    /// Integers and decimals alike (64-bit floating point; integers exact up to 2^53).
    case number
    case string
    case date
    case datetime
    /// The literal `null` before its context gives it a type.
    case null
    /// A `[…]` list after `in`, of the given element type.
    case list(ExpressionType)

    /// `number`, `list of string`: the words diagnostics use.
    public var description: String {
        switch self {
        case .boolean: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .date: return "date"
        case .datetime: return "datetime"
        case .null: return "null"
        case .list(let e): return "list of \(e)"
        }
    }

    /// `a number`, `null`.
    var phrase: String {
        self == .null ? "null" : "a \(self)"
    }
}

/// The result of an expression for one row.
@_spi(Testing) public enum ExpressionOutcome: UInt8, Sendable {
    case `false` = 0
    case `true` = 1
    /// The expression is null for this row (three-valued logic: `age >= 16` with a null age).
    case unknown = 2
    /// Not evaluated: the row was excluded by the caller, or an input is missing (outside
    /// null-aware functions) or type-invalid.
    case skipped = 3
}

/// A compiled expression: names bound to input slots, types checked, constants folded,
/// turned into a tree of vector operations that evaluates a whole chunk at once.
///
/// Immutable and `Sendable`: one compiled expression is shared by all threads of an audit.
@_spi(Testing) public struct CompiledExpression: Sendable {
    /// The expression text as given.
    public let source: String
    /// The type of the result (`.boolean` for `when:` and `assert:`).
    public let resultType: ExpressionType
    /// The attribute names the expression reads, in order of first use in the text.
    public let inputs: [String]
    /// The declared type of each input.
    let inputTypes: [ValueType]
    /// Per input: true when a missing value is a null (every use is inside `isNull`,
    /// `present`, `isEmpty` or `coalesce`), false when it makes the row skipped.
    public let missingIsNull: [Bool]
    let root: TypedNode
    /// The syntax tree the node was checked from (SQL pushdown lowers it).
    var syntax: ExpressionSyntax?

    /// Evaluates the expression for rows `0..<chunk.count`.
    /// - Parameters:
    ///   - chunk: The records.
    ///   - columns: `columns[i]` is the chunk column of `inputs[i]`.
    ///   - skip: Per row; true means do not evaluate the row (its outcome is `.skipped`).
    /// - Returns: One outcome per row. For a non-boolean expression (compiled with
    ///   `expecting: nil`), `.true` means the row has a value and `.unknown` that it is null.
    /// - Complexity: O(rows × nodes), one tight loop per node; allocates per column, not per row.
    public func evaluate(_ chunk: RecordChunk, columns: [Int], skip: [Bool]) -> [ExpressionOutcome] {
        evaluate(chunk, skip: skip, load: loader(chunk, columns: columns))
    }

    /// Evaluates the expression for rows `0..<chunk.count` on inputs someone else loads (the
    /// engine: from the columns it classified once for the chunk, ``ChunkColumns``).
    /// - Parameters:
    ///   - load: Loads input `i` for a batch of rows (see ``InputLoader``).
    func evaluate(_ chunk: RecordChunk, skip: [Bool], load: InputLoader) -> [ExpressionOutcome] {
        var outcomes = [ExpressionOutcome]()
        outcomes.reserveCapacity(chunk.count)
        forEachBatch(chunk, skip: skip, load: load) { context, skipped in
            let values: [UInt8]
            if case .boolean(let node) = root {
                values = node.evaluate(context).values
            } else {
                values = root.anyNode?.evaluate(context).presence(nonEmpty: false).map { $0 == 1 ? 1 : 2 }
                    ?? [UInt8](repeating: BoolColumn.unknown, count: context.count)
            }
            for r in 0 ..< context.count {
                outcomes.append(skipped[r] ? .skipped : ExpressionOutcome(rawValue: values[r]) ?? .unknown)
            }
        }
        return outcomes
    }

    /// The result of every row as text (`nil` for null and skipped rows), for messages and tests.
    /// - Parameters: as for ``evaluate(_:columns:skip:)``.
    public func values(_ chunk: RecordChunk, columns: [Int], skip: [Bool]) -> [String?] {
        var texts = [String?]()
        forEachBatch(chunk, skip: skip, load: loader(chunk, columns: columns)) { context, skipped in
            let column = root.anyNode?.evaluate(context)
            for r in 0 ..< context.count { texts.append(skipped[r] ? nil : column?.text(r)) }
        }
        return texts
    }

    /// The text of each input in one row, `nil` when missing: for findings (`age=14, has_licence=true`).
    /// - Parameters: `columns` as for ``evaluate(_:columns:skip:)``; `row` the row in the chunk.
    public func inputValues(_ chunk: RecordChunk, columns: [Int], row: Int) -> [(name: String, value: String?)] {
        inputs.indices.map { i in (inputs[i], chunk.string(chunk.columns[columns[i]][row])) }
    }

    /// Rows per batch, bounding the memory of intermediate columns for very large chunks.
    /// Measured on the benchmark rules, whole chunks of 8,192 rows beat batches of 256–2,048
    /// (41 against 45–53 ns/record): the per-batch work outweighs the better cache locality.
    static let batchSize = 8192

    /// Loads input `i` (an index into ``inputs``) for the chunk rows `rows`: the typed column of
    /// those rows, with `skipped` (one entry per row of the batch, the batch's `excluded` rows
    /// already set) set for the rows the input makes skip. The arguments are `(i, rows,
    /// excluded, skipped, bytes)`, `bytes` the chunk's bytes.
    typealias InputLoader = (Int, Range<Int>, [Bool], inout [Bool], UnsafeBufferPointer<UInt8>) -> any ExpressionColumn

    /// Loads inputs by classifying the chunk's columns (an expression evaluated on its own).
    private func loader(_ chunk: RecordChunk, columns: [Int]) -> InputLoader {
        precondition(columns.count == inputs.count, "one chunk column per input is required")
        return { i, rows, excluded, skipped, bytes in
            let column = chunk.columns[columns[i]]
            return ExpressionInputs.load(inputTypes[i], column: rows.count == column.count ? column : Array(column[rows]),
                                         chunk: chunk, bytes: bytes, skip: excluded, missingIsNull: missingIsNull[i],
                                         skipped: &skipped)
        }
    }

    /// Loads the inputs of each batch of rows and calls `body` with the evaluation context and
    /// the rows to skip.
    private func forEachBatch(_ chunk: RecordChunk, skip: [Bool], load: InputLoader,
                              _ body: (EvaluationContext, [Bool]) -> Void) {
        let n = chunk.count
        chunk.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < n {
                let end = min(n, start + Self.batchSize)
                let excluded = skip.count != n ? (start ..< end).map { $0 < skip.count && skip[$0] }
                    : end - start == n ? skip : Array(skip[start ..< end])
                var skipped = excluded
                let loaded = inputs.indices.map { i in load(i, start ..< end, excluded, &skipped, bytes) }
                body(EvaluationContext(count: end - start, inputs: loaded), skipped)
                start = end
            }
        }
    }
}

/// Compiles expression text into a ``CompiledExpression``.
@_spi(Testing) public enum ExpressionCompiler {
    /// Parses, binds and type-checks an expression.
    /// - Parameters:
    ///   - source: The expression text.
    ///   - mark: Where the text starts in the rules file (its first character). An error at
    ///     line `k` (0-based), column `c` (0-based, in Unicode scalars) of the text is reported at
    ///     `mark.line + k`, `mark.column + c`: exact for one-line scalars, and for block scalars
    ///     when `mark` is the first character of the block's first line.
    ///   - attributes: The attributes the expression may read.
    ///   - now: The instant `today()` and `now()` return, in seconds since 1970 UTC (`--as-of`).
    ///   - expecting: The required result type; `.boolean` for `when:`/`assert:`, `nil` for any.
    /// - Returns: The compiled expression.
    /// - Throws: A ``Diagnostic`` at the offending token for a syntax error, an unknown
    ///   attribute or function, a wrong argument count or a type error.
    public static func compile(_ source: String, mark: ConfigMark, attributes: [ExpressionAttribute], now: Int64,
                               expecting: ExpressionType? = .boolean) throws(Diagnostic) -> CompiledExpression {
        do throws(ExpressionLexer.Failure) {
            var lexer = ExpressionLexer(source)
            var parser = ExpressionParser(tokens: try lexer.tokenize(), source: source)
            let syntax = try parser.parse()
            var checker = ExpressionChecker(attributes: attributes, now: now)
            var typed = try checker.check(syntax).node
            if let expecting, typed.type != expecting {
                guard let coerced = typed.coerced(to: expecting) else {
                    throw ExpressionLexer.Failure(offset: syntax.start,
                                                  message: "expected \(expecting.phrase) expression, got \(typed.type.phrase)" + (expecting == .boolean ? "; a condition must be true or false, e.g. 'age >= 16'" : ""))
                }
                typed = coerced
            }
            return CompiledExpression(source: source, resultType: typed.type,
                                      inputs: checker.inputs.map { attributes[$0].name },
                                      inputTypes: checker.inputs.map { attributes[$0].type },
                                      missingIsNull: checker.readOutsideNullAware.map { !$0 }, root: typed,
                                      syntax: syntax)
        } catch {
            throw Diagnostic(mark: position(of: error.offset, in: source, from: mark), message: error.message)
        }
    }

    /// The rules-file position of byte `offset` of `source`.
    static func position(of offset: Int, in source: String, from mark: ConfigMark) -> ConfigMark {
        var line = 0
        var column = 0
        for (i, b) in source.utf8.enumerated() {
            if i >= offset { break }
            if b == 0x0A {
                line += 1
                column = 0
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return ConfigMark(file: mark.file, line: mark.line + line, column: mark.column + column)
    }
}
