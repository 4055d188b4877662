import Auditor

/// Every message of the JSON Lines reader, in one place (STYLE.md "Wording lives in one place").
enum JSONLMessages {
    static let malformedRule = StructuralRule(
        id: "jsonl.line.malformed", code: 4101, severity: .error,
        summary: "every non-blank line is one JSON object",
        message: "Line is not one JSON object: {reason} (column {column}).")

    static let encodingRule = StructuralRule(
        id: "jsonl.encoding", code: 4102, severity: .error,
        summary: "every line is valid UTF-8",
        message: "Line holds text that is not valid UTF-8 at column {column}: {reason}.")

    static let duplicateKeyRule = StructuralRule(
        id: "jsonl.key.duplicate", code: 4103, severity: .error,
        summary: "a key that the rules read occurs at most once per object",
        message: "Key '{key}' occurs more than once in one object (column {column}); its value is ambiguous.")

    /// The issue for a line's problem; `column` counts characters from 1.
    static func issue(_ problem: JSONLProblem, row: Int, column: Int) -> RecordIssue {
        switch problem {
        case .malformed(_, let reason):
            return RecordIssue(row: row, ruleID: malformedRule.id,
                               parameters: ["reason": reason, "column": String(column)])
        case .encoding(_, let reason):
            return RecordIssue(row: row, ruleID: encodingRule.id,
                               parameters: ["reason": reason, "column": String(column)])
        case .duplicate(_, let key):
            return RecordIssue(row: row, ruleID: duplicateKeyRule.id,
                               parameters: ["key": key, "column": String(column)])
        }
    }

    static func lineTooLong(_ path: String, line: Int64, limit: Int) -> AuditError {
        let size = sizeText(limit)
        return AuditError(.malformedInput,
                          "the line that starts here is longer than \(size); JSON Lines holds one object per line "
                              + "(for a pretty-printed JSON document, write one object per line, e.g. with jq -c '.[]')",
                          location: "\(path):\(line):1")
    }

    /// - Parameter firstKeys: The first line's keys, to suggest one and list them.
    static func fieldNeverSeen(_ path: String, field: String, keyPath: [String], firstKeys: [String]) -> AuditError {
        let shown = keyPath.joined(separator: ".")
        var message = "no line of '\(path)' has the key '\(shown)' that field '\(field)' reads"
        if let first = keyPath.first, !firstKeys.contains(first), let near = Suggest.closest(to: first, in: firstKeys) {
            message += "; did you mean '\(([near] + keyPath.dropFirst()).joined(separator: "."))'?"
        }
        if !firstKeys.isEmpty { message += " The first line has the keys: \(firstKeys.joined(separator: ", "))." }
        message += keyPath == [field]
            ? " Check the attribute's name, or map it with 'jsonl: { fields: { \(field): path.to.key } }'"
            : " Correct its path in 'jsonl: { fields: { \(field): { path: … } } }' (keys separated by dots)"
        return AuditError(.malformedInput, message, location: path)
    }
}

/// Sizes that bound the reader's memory.
@_spi(Testing) public enum JSONLLimits {
    /// The longest line accepted (256 MiB), as the CSV reader's longest record.
    public static let maxLineBytes = 256 << 20
    /// The most records in one chunk.
    public static let maxChunkRecords = 1 << 16
    /// Bytes per morsel (512 KiB), as CSV's.
    public static let segmentBytes = 512 << 10
}
