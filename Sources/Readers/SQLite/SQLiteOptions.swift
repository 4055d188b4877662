import Auditor

/// The `sqlite:` block of a source: what to read from the database.
///
/// ```yaml
/// sources:
///   people:
///     path: app.sqlite
///     sqlite:
///       table: people          # or: query: SELECT id, name FROM people WHERE active = 1
/// ```
///
/// Exactly one of `table:` and `query:`. With `query:`, `locate: Person[Z_PK]` locates each
/// record by an integer column of the query in the model's terms (`Shop.sqlite:Person[Z_PK=42]`,
/// what the Core Data import writes) instead of its ordinal. A source without a `sqlite:` block reads the table
/// named like the source (`people`).
package struct SQLiteOptions: Sendable, Equatable {
    /// What the reader reads.
    public enum Source: Sendable, Equatable {
        /// A table or view, by name; its columns are checked against `pragma_table_xinfo`.
        case table(String)
        /// A single read-only `SELECT` (or `WITH … SELECT`, `VALUES`) from the rules file.
        case query(String)
    }

    public var source: Source
    /// Where `table:` or `query:` was written in the rules file, for errors about it.
    public var mark: ConfigMark?
    /// `locate: Person[Z_PK]`: the name records are located in, and the query's integer column
    /// that is their key.
    public var locator: Locator?

    /// `locate: Person[Z_PK]`.
    public struct Locator: Sendable, Equatable {
        public var container: String
        public var column: String
    }

    public init(source: Source, mark: ConfigMark? = nil, locator: Locator? = nil) {
        self.source = source
        self.mark = mark
        self.locator = locator
    }

    /// The keys a `sqlite:` block may hold.
    public static let keys = ["table", "query", "locate"]

    /// Decodes a `sqlite:` block.
    /// - Parameters:
    ///   - node: The block, or `nil` when the source has none.
    ///   - sourceName: The source's name, the table read when there is no block.
    /// - Throws: ``AuditError`` `.invalidRules` with every located problem.
    public static func decode(_ node: ConfigNode?, sourceName: String) throws(AuditError) -> SQLiteOptions {
        guard let node, !node.isNull else { return SQLiteOptions(source: .table(sourceName)) }
        let (options, diagnostics) = parse(node)
        if let options, diagnostics.isEmpty { return options }
        throw AuditError.invalidRules(diagnostics)
    }

    /// Every problem of a `sqlite:` block, without opening any database (`auditor check`).
    public static func diagnostics(for node: ConfigNode) -> [Diagnostic] {
        parse(node).1
    }

    static func parse(_ node: ConfigNode) -> (SQLiteOptions?, [Diagnostic]) {
        let mapping: ConfigMapping
        do {
            mapping = try node.mapping("the sqlite block")
        } catch {
            return (nil, [error])
        }
        var diagnostics = mapping.unknownKeys(allowed: keys, context: "the sqlite block")
        var options: SQLiteOptions?
        switch TableOrQuery.decode(mapping, node: node, block: "the sqlite block", check: { sql in
            sql.allSatisfy({ $0.isWhitespace || $0 == ";" }) ? "'query:' must be a SELECT statement" : nil
        }, into: &diagnostics) {
        case .table(let name, let mark)?: options = SQLiteOptions(source: .table(name), mark: mark)
        case .query(let sql, let mark)?: options = SQLiteOptions(source: .query(sql), mark: mark)
        case nil: break
        }
        if let locate = mapping["locate"] {
            do {
                let text = try locate.string("'locate:'")
                if case .table? = options?.source {
                    diagnostics.append(locate.error("'locate:' goes with 'query:'; a table's records are located by their rowid"))
                } else if let open = text.firstIndex(of: "["), text.hasSuffix("]"), open != text.startIndex,
                          text.index(after: open) < text.index(before: text.endIndex) {
                    options?.locator = Locator(container: String(text[..<open]),
                                               column: String(text[text.index(after: open) ..< text.index(before: text.endIndex)]))
                } else {
                    diagnostics.append(locate.error("'locate:' reads NAME[COLUMN], for example locate: Person[Z_PK]; got '\(text)'"))
                }
            } catch {
                diagnostics.append(error)
            }
        }
        return (options, diagnostics)
    }
}

extension SQLiteOptions: ReaderOptions {}
