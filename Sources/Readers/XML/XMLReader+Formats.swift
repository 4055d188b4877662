import Auditor

/// `decimalComma:`, `thousandsComma:` and `dateFormat:` in an `xml:` block: a field's text read
/// as the same options read a CSV column (``ValueFormats``).
extension XMLReader {
    /// A number written with a decimal point in a `decimalComma:` field (only for such a source).
    public static let decimalPointRule = StructuralRule(
        id: "xml.decimal.point", code: 3102, severity: .error,
        summary: "every number of a decimalComma field is written with a decimal comma",
        message: "{column} holds a number written with a decimal point; its numbers are read with a decimal comma (decimalComma).")

    /// Rewrites one field's text cells of a chunk: a number in place (it only gets shorter), a
    /// date in place when it has ten bytes, else into ten bytes appended to `bytes`; a number
    /// written with a decimal point is reported and left as it is.
    func rewrite(_ column: inout [Cell], _ r: CSVColumnRewrite, _ bytes: inout [UInt8], _ issues: inout [RecordIssue]) {
        let name = schema.fields[r.column]
        for row in column.indices where column[row].tag == .text {
            let start = Int(column[row].payload), length = Int(column[row].length)
            if let date = r.date {
                if length == 10 {
                    _ = bytes.withUnsafeMutableBufferPointer { date.read($0.baseAddress! + start, length: 10, into: $0.baseAddress! + start) }
                } else if length < 10 {
                    let at = bytes.count
                    bytes.append(contentsOf: repeatElement(0, count: 10))
                    if bytes.withUnsafeMutableBufferPointer({ date.read($0.baseAddress! + start, length: length, into: $0.baseAddress! + at) }) {
                        column[row] = .text(offset: at, length: 10)
                    } else {
                        bytes.removeLast(10)
                    }
                }
                continue
            }
            switch bytes.withUnsafeMutableBufferPointer({ CSVDecimalComma.rewrite($0.baseAddress! + start, length: length, style: r.numbers) }) {
            case .unchanged: break
            case .rewritten(let length): column[row] = .text(offset: start, length: length)
            case .decimalPoint:
                issues.append(RecordIssue(row: row, ruleID: Self.decimalPointRule.id,
                                          value: String(decoding: bytes[start ..< start + length], as: UTF8.self),
                                          parameters: ["column": name], excludesRecord: false))
            }
        }
    }

    /// A name in `decimalComma:`, `thousandsComma:` or `dateFormat:` that the rules read from no field.
    static func unknownFormatField(_ path: String, option: String, name: String, fields: [String], mark: ConfigMark?) -> AuditError {
        var message = "\(option) names '\(name)', which is no field that the rules read from '\(path)'"
        if let near = Suggest.closest(to: name, in: fields) { message += "; did you mean '\(near)'?" }
        message += " (the fields read: \(fields.joined(separator: ", ")))"
        if let mark { return AuditError.invalidRules([Diagnostic(mark: mark, message: message)]) }
        return AuditError(.invalidRules, message, location: path)
    }
}
