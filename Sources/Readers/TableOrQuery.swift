import Auditor

/// The `table:` or `query:` of a database source block (`sqlite:`, `postgres:`): exactly one of
/// them, a non-empty table name, or SQL the dialect's `check` accepts.
enum TableOrQuery {
    case table(String, ConfigMark)
    case query(String, ConfigMark)

    /// Reads the choice from a block, appending every problem to `diagnostics`.
    /// - Parameters:
    ///   - mapping: The block's keys.
    ///   - node: The block (where a missing choice is reported).
    ///   - block: Its name in messages (`the sqlite block`).
    ///   - check: A problem with the query's SQL, or nil when it is acceptable.
    /// - Returns: The choice, or nil when there is none or it is wrong.
    static func decode(_ mapping: ConfigMapping, node: ConfigNode, block: String,
                       check: (String) -> String?, into diagnostics: inout [Diagnostic]) -> TableOrQuery? {
        switch (mapping["table"], mapping["query"]) {
        case (nil, nil):
            diagnostics.append(node.error("\(block) needs 'table:' (a table or view to audit) or 'query:' (a read-only SELECT)"))
        case (.some, .some(let query)):
            let at = mapping.keyNode("query") ?? query
            diagnostics.append(at.error("'table:' and 'query:' cannot be used together; keep one of them"))
        case (.some(let table), nil):
            do {
                let name = try table.string("'table:'")
                if !name.isEmpty { return .table(name, table.mark) }
                diagnostics.append(table.error("'table:' must name a table or view"))
            } catch {
                diagnostics.append(error)
            }
        case (nil, .some(let query)):
            do {
                let sql = try query.string("'query:'")
                if let problem = check(sql) {
                    diagnostics.append(query.error(problem))
                } else {
                    return .query(sql, query.mark)
                }
            } catch {
                diagnostics.append(error)
            }
        }
        return nil
    }
}
