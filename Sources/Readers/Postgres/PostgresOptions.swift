import Auditor

/// The `postgres:` block of a source: what to read from the database.
///
/// ```yaml
/// sources:
///   people:
///     path: postgresql://auditor@db.example.com/crm?sslmode=verify-full
///     postgres:
///       table: people          # or: query: SELECT id, name FROM people WHERE active
///       schema: public         # optional: default, the first schema of the search_path that has it
///       locate: id             # optional: an integer column that locates findings
///       timeout: 3600          # optional: the statement_timeout in seconds (default 3600)
/// ```
///
/// Exactly one of `table:` and `query:`. A source without a `postgres:` block reads the table
/// named like the source. The connection (host, port, user, database, TLS) is the source's
/// path, a libpq URL; a password never is (PGPASSWORD, ~/.pgpass or PGSERVICE).
package struct PostgresOptions: Sendable, Equatable {
    /// What the reader reads.
    public enum Source: Sendable, Equatable {
        /// A table or view, by name; its columns are checked in the catalog.
        case table(String)
        /// A single read-only `SELECT` (or `WITH … SELECT`, `VALUES`, `TABLE`).
        case query(String)
    }

    public var source: Source
    /// `schema:`: the table's schema; nil for the search_path's first match.
    public var schema: String?
    /// Where `table:` or `query:` was written in the rules file, for errors about it.
    public var mark: ConfigMark?
    /// `locate: id` or `locate: Person[id]`: an integer column that locates each record.
    public var locator: Locator?
    /// `timeout:`: the statement_timeout in seconds (0: none).
    public var timeoutSeconds: Int = 3600

    /// `locate: Person[id]` (container nil for `locate: id`: the table's `db.schema.table`).
    public struct Locator: Sendable, Equatable {
        public var container: String?
        public var column: String

        public init(container: String?, column: String) {
            self.container = container
            self.column = column
        }
    }

    public init(source: Source, schema: String? = nil, mark: ConfigMark? = nil, locator: Locator? = nil) {
        self.source = source
        self.schema = schema
        self.mark = mark
        self.locator = locator
    }

    /// The keys a `postgres:` block may hold.
    public static let keys = ["table", "schema", "query", "locate", "timeout"]

    /// Decodes a `postgres:` block.
    /// - Throws: ``AuditError`` `.invalidRules` with every located problem.
    public static func decode(_ node: ConfigNode?, sourceName: String) throws(AuditError) -> PostgresOptions {
        guard let node, !node.isNull else { return PostgresOptions(source: .table(sourceName)) }
        let (options, diagnostics) = parse(node)
        if let options, diagnostics.isEmpty { return options }
        throw AuditError.invalidRules(diagnostics)
    }

    static func parse(_ node: ConfigNode) -> (PostgresOptions?, [Diagnostic]) {
        let mapping: ConfigMapping
        do {
            mapping = try node.mapping("the postgres block")
        } catch {
            return (nil, [error])
        }
        var diagnostics = mapping.unknownKeys(allowed: keys, context: "the postgres block")
        var options: PostgresOptions?
        switch TableOrQuery.decode(mapping, node: node, block: "the postgres block", check: PostgresQueryCheck.problem,
                                   into: &diagnostics) {
        case .table(let name, let mark)?: options = PostgresOptions(source: .table(name), mark: mark)
        case .query(let sql, let mark)?: options = PostgresOptions(source: .query(sql), mark: mark)
        case nil: break
        }
        if let schema = mapping["schema"] {
            do {
                let name = try schema.string("'schema:'")
                if case .query? = options?.source {
                    diagnostics.append(schema.error("'schema:' goes with 'table:'; a query names its own tables"))
                } else if name.isEmpty {
                    diagnostics.append(schema.error("'schema:' must name a schema, e.g. schema: public"))
                } else {
                    options?.schema = name
                }
            } catch {
                diagnostics.append(error)
            }
        }
        if let timeout = mapping["timeout"] {
            if let seconds = timeout.scalar.flatMap({ Int($0) }), seconds >= 0, seconds <= 86_400 * 7 {
                options?.timeoutSeconds = seconds
            } else {
                diagnostics.append(timeout.error("'timeout:' is the statement timeout in seconds (0 for none), e.g. timeout: 3600"))
            }
        }
        if let locate = mapping["locate"] {
            do {
                let text = try locate.string("'locate:'")
                if let open = text.firstIndex(of: "["), text.hasSuffix("]"), open != text.startIndex,
                   text.index(after: open) < text.index(before: text.endIndex) {
                    options?.locator = Locator(container: String(text[..<open]),
                                               column: String(text[text.index(after: open) ..< text.index(before: text.endIndex)]))
                } else if !text.isEmpty, !text.contains("["), !text.contains("]") {
                    options?.locator = Locator(container: nil, column: text)
                } else {
                    diagnostics.append(locate.error("'locate:' reads COLUMN or NAME[COLUMN], for example locate: id; got '\(text)'"))
                }
            } catch {
                diagnostics.append(error)
            }
        }
        return (options, diagnostics)
    }
}

extension PostgresOptions: ReaderOptions {}

/// The conservative check of a rules-file query, before any connection: one statement that
/// starts with SELECT, WITH, VALUES or TABLE. The real guard is the server's READ ONLY
/// transaction, which also refuses a data-modifying `WITH x AS (DELETE …)`.
package enum PostgresQueryCheck {
    /// - Returns: Why the query is refused, or nil.
    package static func problem(_ sql: String) -> String? {
        let bytes = Array(sql.utf8)
        var i = 0
        var firstWord: [UInt8] = []
        var seenStatementEnd = false
        var depth = 0
        while i < bytes.count {
            let b = bytes[i]
            let next: UInt8 = i + 1 < bytes.count ? bytes[i + 1] : 0
            if b == UInt8(ascii: "-"), next == UInt8(ascii: "-") {                 // -- comment
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            }
            if b == UInt8(ascii: "/"), next == UInt8(ascii: "*") {                 // /* nested */ comment
                var depth = 1
                i += 2
                while i < bytes.count, depth > 0 {
                    if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") { depth += 1; i += 2; continue }
                    if bytes[i] == UInt8(ascii: "*"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") { depth -= 1; i += 2; continue }
                    i += 1
                }
                if depth > 0 { return "'query:' has an unterminated /* comment" }
                continue
            }
            if b == UInt8(ascii: "$") {                                              // $tag$ ... $tag$
                var j = i + 1
                while j < bytes.count, bytes[j] == UInt8(ascii: "_") || (bytes[j] | 0x20 >= 0x61 && bytes[j] | 0x20 <= 0x7A)
                    || (bytes[j] >= 0x30 && bytes[j] <= 0x39 && j > i + 1) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "$") {
                    let tag = Array(bytes[i ... j])
                    var k = j + 1
                    var closed = false
                    while k + tag.count <= bytes.count {
                        if Array(bytes[k ..< k + tag.count]) == tag { closed = true; break }
                        k += 1
                    }
                    guard closed else { return "'query:' has an unterminated dollar-quoted string" }
                    if seenStatementEnd { return multiple }
                    i = k + tag.count
                    continue
                }
            }
            if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {                 // 'string', "identifier"
                var j = i + 1
                while j < bytes.count {
                    if bytes[j] == b {
                        if j + 1 < bytes.count, bytes[j + 1] == b { j += 2; continue }
                        break
                    }
                    // E'...' strings may escape a quote with a backslash: treat \' as escaped.
                    if b == UInt8(ascii: "'"), bytes[j] == UInt8(ascii: "\\"), i > 0, bytes[i - 1] | 0x20 == UInt8(ascii: "e") { j += 2; continue }
                    j += 1
                }
                guard j < bytes.count else { return "'query:' has an unterminated quoted string or identifier" }
                if seenStatementEnd { return multiple }
                i = j + 1
                continue
            }
            if b == UInt8(ascii: "(") { depth += 1 }
            if b == UInt8(ascii: ")") {
                depth -= 1
                // The query runs inside COPY ( … ): it must never close that parenthesis.
                if depth < 0 { return "'query:' has a ')' without its '('" }
            }
            if b == UInt8(ascii: ";") {
                seenStatementEnd = true
                i += 1
                continue
            }
            let isSpace = b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C
            if !isSpace {
                if seenStatementEnd { return multiple }
                let isLetter = b | 0x20 >= 0x61 && b | 0x20 <= 0x7A
                if firstWord.isEmpty || firstWord.last != 0 {
                    if isLetter { firstWord.append(b | 0x20) } else if firstWord.isEmpty { firstWord.append(0) } else { firstWord.append(0) }
                }
            } else if !firstWord.isEmpty, firstWord.last != 0 {
                firstWord.append(0)
            }
            i += 1
        }
        if depth != 0 { return "'query:' has an unclosed '('" }
        let word = String(decoding: firstWord.prefix { $0 != 0 }, as: UTF8.self)
        if word.isEmpty { return "'query:' must be a SELECT statement" }
        guard ["select", "with", "values", "table"].contains(word) else {
            return "'query:' must be a single read-only SELECT (or WITH, VALUES, TABLE); it starts with '\(word.uppercased())'"
        }
        return nil
    }

    private static let multiple = "'query:' holds more than one statement; write a single SELECT"
}
