import Auditor

/// Every message of the CSV reader, in one place (STYLE.md "Wording lives in one place").
enum CSVMessages {
    /// `path:line:column`.
    static func location(_ path: String, _ line: Int64, _ column: Int) -> String {
        "\(path):\(line):\(column)"
    }

    /// A byte quoted for a message: `'x'`, or its name when it is not printable.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 9: return "a TAB"
        case 13: return "a carriage return"
        case 0x20: return "a space"
        case 0x21 ..< 0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "the byte 0x\(hex.count == 1 ? "0" + hex : hex)"
        }
    }

    // MARK: Opening and reading

    static func cannotOpen(_ path: String, cause: String) -> AuditError {
        AuditError(.missingInput, "cannot open '\(path)'; check that the path names a readable file",
                   location: path, cause: cause)
    }

    /// A corrupt or truncated compressed stream, located at the line of the record it cut
    /// (the records before it were read and checked); any other error as it is.
    static func streamError(_ error: AuditError, displayPath: String, line: Int64) -> AuditError {
        guard error.code == .malformedInput, error.location == displayPath else { return error }
        var located = error
        located.location = "\(displayPath):\(line)"
        located.message += "; the records before line \(line) of the decompressed text were read and checked"
        return located
    }

    static func separatorLineDisagrees(_ path: String, hint: UInt8, delimiter: UInt8, quote: UInt8) -> AuditError {
        let why = hint == quote ? "the quote is \(describe(quote))" : "the csv options say \(describe(delimiter))"
        return AuditError(.malformedInput,
                          "the first line 'sep=\(Character(Unicode.Scalar(hint)))' says that fields are separated by \(describe(hint)), but "
                              + "\(why); remove that line from the file, or set delimiter: to it",
                          location: "\(path):1:1")
    }

    static func emptyFile(_ path: String) -> AuditError {
        AuditError(.malformedInput,
                   "empty file: no header; a CSV source needs a header line, or set header: false and list columns:",
                   location: "\(path):1:1")
    }

    // MARK: Header

    static func emptyHeaderName(_ path: String, line: Int64, column: Int, field: Int) -> AuditError {
        AuditError(.malformedInput,
                   "field \(field) of the header has no name; name every column in the header, "
                       + "or give the names with columns: in the csv options",
                   location: location(path, line, column))
    }

    static func duplicateHeaderName(_ path: String, line: Int64, column: Int, name: String, first: Int, field: Int) -> AuditError {
        AuditError(.malformedInput,
                   "the header names '\(name)' twice (fields \(first) and \(field)); rename one, "
                       + "or give the names with columns: in the csv options",
                   location: location(path, line, column))
    }

    static func headerNotUTF8(_ path: String, line: Int64, column: Int, field: Int, compressed: Bool = false) -> AuditError {
        AuditError(.malformedInput,
                   compressed
                       ? "field \(field) of the header of the decompressed text is not valid UTF-8; convert the "
                           + "decompressed text to UTF-8 (for example with iconv -t utf-8) and compress it again"
                       : "field \(field) of the header is not valid UTF-8; save the file as UTF-8 "
                           + "(for example with iconv -t utf-8)",
                   location: location(path, line, column))
    }

    static func unknownRewrittenColumn(_ path: String, option: String, name: String, columns: [String], mark: ConfigMark?) -> AuditError {
        var message = "\(option) names '\(name)', which is no column of '\(path)'"
        if let near = Suggest.closest(to: name, in: columns) { message += "; did you mean '\(near)'?" }
        message += " (its columns: \(columns.joined(separator: ", ")))"
        if let mark { return AuditError.invalidRules([Diagnostic(mark: mark, message: message)]) }
        return AuditError(.invalidRules, message, location: "\(path):1:1")
    }

    static func columnCountMismatch(_ path: String, columns: Int, headerFields: Int,
                                    mark: ConfigMark?) -> AuditError {
        let message = "columns lists \(columns) name\(columns == 1 ? "" : "s") but the header of '\(path)' "
            + "has \(headerFields) field\(headerFields == 1 ? "" : "s"); list one name per header field"
        if let mark {
            return AuditError.invalidRules([Diagnostic(mark: mark, message: message)])
        }
        return AuditError(.invalidRules, message, location: "\(path):1:1")
    }

    // MARK: Framing

    static func unterminatedQuote(_ path: String, line: Int64, column: Int) -> AuditError {
        AuditError(.malformedInput,
                   "the quoted field that starts here is never closed: the file ends inside it; "
                       + "add the closing quote, and double every quote inside the field (\"\")",
                   location: location(path, line, column))
    }

    static func characterAfterQuote(_ path: String, line: Int64, column: Int, byte: UInt8,
                                    delimiter: UInt8) -> AuditError {
        AuditError(.malformedInput,
                   "unexpected \(describe(byte)) after the closing quote of a quoted field; a quoted field must "
                       + "end at \(describe(delimiter)) or a line break. If the quote is part of the value, "
                       + "double it (\"\")",
                   location: location(path, line, column))
    }

    static func recordTooLong(_ path: String, line: Int64, column: Int, quoted: Bool, limit: Int) -> AuditError {
        let size = sizeText(limit)
        let what = quoted
            ? "a quoted field that starts here runs past \(size); its closing quote is probably missing"
            : "the record that starts here is longer than \(size); check the delimiter and line breaks"
        return AuditError(.malformedInput, what, location: location(path, line, column))
    }

    // MARK: Structural rules

    static let raggedRule = StructuralRule(
        id: "csv.row.ragged", code: 2101, severity: .error,
        summary: "every record has as many fields as the header",
        message: "Record has {fields, plural, one {# field} other {# fields}}; the header has {expected}.")

    static let encodingRule = StructuralRule(
        id: "csv.encoding", code: 2102, severity: .error,
        summary: "every record is valid UTF-8",
        message: "Record contains bytes that are not valid UTF-8 at column {column}.")

    /// Only for a source with `decimalComma:` columns.
    static let decimalPointRule = StructuralRule(
        id: "csv.decimal.point", code: 2103, severity: .error,
        summary: "every number of a decimalComma column is written with a decimal comma",
        message: "{column} holds a number written with a decimal point; its numbers are read with a decimal comma (decimalComma).")
}

/// Sizes that bound the reader's memory.
@_spi(Testing) public enum CSVLimits {
    /// The longest record the reader accepts (256 MiB). A longer one is almost always an
    /// unterminated quote; the bound also keeps every field length within `Cell.length` (Int32).
    public static let maxRecordBytes = 256 << 20
    /// The most records in one chunk, whatever `maxRecords` asks for (bounds the cell scratch).
    public static let maxChunkRecords = 1 << 16
    /// Bytes per morsel when reading with several threads (512 KiB): the engine keeps at most
    /// `2 × jobs` morsels cut and not merged, so memory grows with the thread count, never with
    /// the file. Measured with the earlier block reader: 512 KiB, 1 MiB and 2 MiB segments
    /// execute the same instructions (callgrind, 200k rows), but bigger ones peak higher in RSS.
    public static let segmentBytes = 512 << 10
}
