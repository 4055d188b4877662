import Auditor

/// `decimalComma:`, `thousandsComma:` and `dateFormat:` in an `xml:` block: a field's text read
/// as the same options read a CSV column (``ValueFormats``).
extension XMLReader {
    /// A number written with a decimal point in a `decimalComma:` field (only for such a source).
    public static let decimalPointRule = StructuralRule(
        id: "xml.decimal.point", code: 3102, severity: .error,
        summary: "every number of a decimalComma field is written with a decimal comma",
        message: "{column} holds a number written with a decimal point; its numbers are read with a decimal comma (decimalComma).")

    /// Rewrites one field's text cells of a chunk into bytes appended to `bytes`, never in
    /// place: another field may read the same bytes (two fields of one element, or an element
    /// and its parent's text). A number written with a decimal point is reported and left as it is.
    func rewrite(_ column: inout [Cell], _ r: CSVColumnRewrite, _ bytes: inout [UInt8], _ issues: inout [RecordIssue]) {
        let name = schema.fields[r.column]
        for row in column.indices where column[row].tag == .text {
            let start = Int(column[row].payload), length = Int(column[row].length)
            let at = bytes.count
            if let date = r.date {
                let most = date.maxOutput
                bytes.append(contentsOf: repeatElement(0, count: most))
                let n = bytes.withUnsafeMutableBufferPointer { date.read($0.baseAddress! + start, length: length, into: $0.baseAddress! + at) }
                bytes.removeLast(most - n)
                if n > 0 { column[row] = .text(offset: at, length: n) }
                continue
            }
            bytes.append(contentsOf: repeatElement(0, count: length))
            let outcome = bytes.withUnsafeMutableBufferPointer { p in
                (p.baseAddress! + at).update(from: p.baseAddress! + start, count: length)
                return CSVDecimalComma.rewrite(p.baseAddress! + at, length: length, style: r.numbers)
            }
            switch outcome {
            case .rewritten(let shorter):
                column[row] = .text(offset: at, length: shorter)
                bytes.removeLast(length - shorter)
            case .unchanged:
                bytes.removeLast(length)
            case .decimalPoint:
                bytes.removeLast(length)
                issues.append(RecordIssue(row: row, ruleID: Self.decimalPointRule.id,
                                          value: String(decoding: bytes[start ..< start + length], as: UTF8.self),
                                          parameters: ["column": name], excludesRecord: false))
            }
        }
    }

}

extension XMLReaderOptions {
    /// How `decimalComma:`, `thousandsComma:` or `dateFormat:` say the field is written.
    public func typeName(of field: String, as type: ValueType) -> String? { formats.typeName(of: field, as: type) }

    /// A name in `decimalComma:`, `thousandsComma:` or `dateFormat:` that no entity reading
    /// the source reads, located at its option (`auditor check` finds it without the file).
    public func problems(reading fields: Set<String>, displayPath: String) -> [Diagnostic] {
        let read = fields.sorted()
        var problems = [Diagnostic]()
        _ = try? formats.rewrites(of: read) { option, name, mark in
            var message = "\(option) names '\(name)', which is no field that the rules read from '\(displayPath)'"
            if let near = Suggest.closest(to: name, in: read) { message += "; did you mean '\(near)'?" }
            message += " (the fields read: \(read.joined(separator: ", ")))"
            problems.append(Diagnostic(mark: mark ?? ConfigMark(file: displayPath, line: 1, column: 1), message: message))
            return AuditError(.invalidRules, message)
        }
        return problems
    }
}
