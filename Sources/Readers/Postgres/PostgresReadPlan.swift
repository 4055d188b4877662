import Auditor

/// What a ``PostgresReader`` will stream: the SELECT inside its COPY, the schema, the column
/// kinds and how records are located. Made inside the read-only transaction, from the catalog.
struct PostgresReadPlan {
    /// The SELECT that `COPY (…) TO STDOUT` streams.
    var select: String
    var fields: [String]
    var kinds: [PostgresColumnKind]
    /// Result columns before the first schema field (the key column when it is not requested).
    var leading: Int = 0
    var keyField: Int?
    var locationStyle: LocationStyle = .ordinal
    /// "table 'public.people'" or "the query", for messages.
    var what: String
    var available: [String] = []
    /// For a table: what pushdown needs to read it again with a condition.
    var pushdown: (from: String, select: [String], columns: [String: (column: String, kind: PostgresColumnKind)])? = nil
    /// The oid of a table or materialized view stored in a heap (access method `heap`): every
    /// row has a `ctid`, and a scan reads a block's rows in their order (``PostgresPositions``).
    /// Nil for another access method, a partitioned or foreign table, a view or a query.
    var heap: String?

    // MARK: - table:

    /// Plans `SELECT "a", "b" FROM "schema"."table"` for the requested fields that exist.
    static func table(_ requested: String, options: PostgresOptions, fields: [String],
                      connection: PostgresConnection, displayPath: String) throws(AuditError) -> PostgresReadPlan {
        func schemaError(_ failure: PostgresFailure, _ what: String) -> AuditError {
            PostgresErrors.auditError(failure, stage: .schema(what: what), displayPath: displayPath, target: connection.target)
        }
        // Exact names first (as written, quoted), then a unique match ignoring case.
        let relations: [[String?]]
        do {
            relations = try connection.execute("""
                SELECT c.oid::text, n.nspname, c.relname, c.relkind::text, pg_catalog.pg_table_is_visible(c.oid)::text, am.amname::text
                FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam
                WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f')
                  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
                  AND ($1 = '' OR n.nspname = $1 OR lower(n.nspname) = lower($1))
                ORDER BY n.nspname, c.relname
                """, [options.schema ?? ""])
        } catch {
            throw schemaError(error, "the tables")
        }
        let visible = relations.filter { options.schema != nil || $0[4] == "true" }
        func pick(_ match: (String, String) -> Bool) -> [[String?]] {
            visible.filter { row in
                guard let schema = row[1], let name = row[2] else { return false }
                return match(schema, name)
            }
        }
        let wantedSchema = options.schema
        var candidates = pick { schema, name in name == requested && (wantedSchema == nil || schema == wantedSchema) }
        if candidates.isEmpty {
            candidates = pick { _, name in name.lowercased() == requested.lowercased() }
        }
        // search_path order: pg_table_is_visible picks the first; several visible ones of the
        // same name cannot happen, a case-insensitive tie can.
        guard candidates.count == 1, let row = candidates.first, let oid = row[0], let schema = row[1], let name = row[2] else {
            throw unknownTable(requested, schema: options.schema, names: visible.compactMap { $0[2] },
                               ambiguous: candidates.count > 1, mark: options.mark, displayPath: displayPath,
                               target: connection.target)
        }
        let qualified = "\(connection.database).\(schema).\(name)"
        let what = "\(row[3] == "v" || row[3] == "m" ? "view" : "table") '\(schema).\(name)'"

        let columns: [[String?]]
        do {
            columns = try connection.execute("""
                SELECT attname, atttypid::text FROM pg_catalog.pg_attribute
                WHERE attrelid = $1::oid AND attnum > 0 AND NOT attisdropped ORDER BY attnum
                """, [oid])
        } catch {
            throw schemaError(error, what)
        }
        let readable = columns.compactMap { $0[0] }
        var chosen = [String]()
        var chosenFields = [String]()
        if fields.isEmpty {
            chosen = readable
            chosenFields = readable
        } else {
            for field in fields where !chosenFields.contains(field) {
                // A requested field that is not a column is left out: the engine reports it
                // against the rules file with a did-you-mean. It never reaches SQL.
                if let column = readable.first(where: { $0 == field }) ?? readable.first(where: { $0.lowercased() == field.lowercased() }) {
                    chosen.append(column)
                    chosenFields.append(field)
                }
            }
        }

        // The key: `locate:`, else a one-column integer primary key.
        var keyColumn: String?
        var container = qualified
        if let locator = options.locator {
            guard let column = readable.first(where: { $0 == locator.column }),
                  let type = columns.first(where: { $0[0] == column })?[1].flatMap({ UInt32($0) }),
                  PostgresColumnKind.isIntegerKey(type) else {
                throw AuditError(.invalidRules, "'locate: \(locator.column)' must name an integer column (smallint, "
                                     + "integer, bigint) of \(what); its columns: \(readable.joined(separator: ", "))",
                                 location: options.mark?.description ?? displayPath)
            }
            keyColumn = column
            if let name = locator.container { container = name }
        } else {
            do {
                let key = try connection.execute("""
                    SELECT a.attname FROM pg_catalog.pg_index i
                    JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                    WHERE i.indrelid = $1::oid AND i.indisprimary AND i.indnatts = 1 AND a.atttypid IN (20, 21, 23)
                    """, [oid])
                keyColumn = key.first?.first ?? nil
            } catch {
                throw schemaError(error, what)
            }
        }
        var selectList = chosen.map(PostgresConnection.quoted)
        var leading = 0
        var keyField: Int?
        if let keyColumn {
            if let index = chosen.firstIndex(of: keyColumn) {
                keyField = index
            } else {
                selectList.insert(PostgresConnection.quoted(keyColumn), at: 0)
                leading = 1
                keyField = 0
            }
        }
        if selectList.isEmpty {
            selectList = ["NULL"]     // no requested column exists: count the rows, read nothing
            leading = 1
        }
        let from = "\(PostgresConnection.quoted(schema)).\(PostgresConnection.quoted(name))"
        let select = "SELECT \(selectList.joined(separator: ", ")) FROM \(from)"
        let described: [(name: String, type: UInt32)]
        do {
            described = try connection.describe(select)
        } catch {
            throw schemaError(error, what)
        }
        var plan = PostgresReadPlan(select: select, fields: chosenFields, kinds: described.map { PostgresColumnKind(oid: $0.type) },
                                    leading: leading, keyField: keyField, what: what, available: readable)
        if let keyColumn { plan.locationStyle = .key(container: container, name: keyColumn) }
        var mapping = [String: (column: String, kind: PostgresColumnKind)]()
        for (i, field) in chosenFields.enumerated() where leading + i < plan.kinds.count {
            mapping[field] = (PostgresConnection.quoted(chosen[i]), plan.kinds[leading + i])
        }
        plan.pushdown = (from, selectList, mapping)
        plan.heap = (row[3] == "r" || row[3] == "m") && row[5] == "heap" ? oid : nil
        return plan
    }

    /// A database without the table the rules read is a data problem (exit 65, as for SQLite).
    static func unknownTable(_ requested: String, schema: String?, names: [String], ambiguous: Bool,
                             mark: ConfigMark?, displayPath: String, target: String) -> AuditError {
        let shownName = schema.map { "\($0).\(requested)" } ?? requested
        var message = ambiguous
            ? "PostgreSQL at \(target) has several tables named like '\(shownName)' (ignoring case); write the exact name"
            : "PostgreSQL at \(target) has no table or view '\(shownName)'\(schema == nil ? " on the search_path" : "")"
        if let mark { message += " (rules: \(mark))" }
        if !ambiguous, let suggestion = Suggest.closest(to: requested, in: names) {
            message += "; did you mean '\(suggestion)'?"
        }
        if names.isEmpty {
            message += ". It has no tables there"
        } else {
            let shown = Array(Set(names)).sorted().prefix(20).map { "'\($0)'" }.joined(separator: ", ")
            message += ". Its tables and views: \(shown)\(names.count > 20 ? ", ..." : "")"
        }
        message += ". Check the database in the URL, the schema, or the source's table in the rules file"
        return AuditError(.malformedInput, message, location: displayPath)
    }

    // MARK: - query:

    /// Plans a rules-file query: checked again (one SELECT/WITH/VALUES/TABLE, balanced
    /// parentheses so it cannot close the COPY's), then described by the server.
    static func query(_ sql: String, options: PostgresOptions, connection: PostgresConnection,
                      displayPath: String) throws(AuditError) -> PostgresReadPlan {
        let location = options.mark?.description ?? displayPath
        if let problem = PostgresQueryCheck.problem(sql) {
            throw AuditError(.invalidRules, "the postgres query is refused: \(problem)", location: location)
        }
        let described: [(name: String, type: UInt32)]
        do {
            described = try connection.describe(sql)
        } catch {
            throw PostgresErrors.auditError(error, stage: .query(mark: options.mark), displayPath: displayPath,
                                            target: connection.target)
        }
        guard !described.isEmpty else {
            throw AuditError(.invalidRules, "the postgres query returns no columns; write a SELECT", location: location)
        }
        var fields = [String]()
        for column in described {
            if fields.contains(column.name) {
                throw AuditError(.invalidRules, "the postgres query returns two columns named '\(column.name)'; give them "
                                     + "distinct names with AS", location: location)
            }
            fields.append(column.name)
        }
        var plan = PostgresReadPlan(select: sql, fields: fields, kinds: described.map { PostgresColumnKind(oid: $0.type) },
                                    what: "the query", available: fields)
        if let locator = options.locator {
            guard let index = fields.firstIndex(of: locator.column), PostgresColumnKind.isIntegerKey(described[index].type) else {
                throw AuditError(.invalidRules, "'locate: \(locator.column)' must name an integer column that the query "
                                     + "returns (it returns \(fields.joined(separator: ", ")))", location: location)
            }
            plan.keyField = index
            plan.locationStyle = .key(container: locator.container ?? "\(connection.database).query", name: locator.column)
        }
        return plan
    }
}
