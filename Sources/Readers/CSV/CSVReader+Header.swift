import Auditor

extension CSVReader {
    /// Skips a UTF-8 byte order mark at the start of the file.
    /// - Throws: ``AuditError`` `.io` when reading fails.
    func skipByteOrderMark() throws {
        while input.end < 3, !input.atEOF {
            _ = try input.refill(keepingFrom: 0)
        }
        let base = input.base
        if input.end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
            position = 3
        }
    }

    /// The delimiter that a first line `sep=;` names (as spreadsheets write it for one another,
    /// after any byte order mark; `SEP=` too), and that line's length with its line break.
    /// - Throws: ``AuditError`` `.io` when reading fails.
    static func separatorLine(_ input: CSVInput) throws -> (delimiter: UInt8, length: Int)? {
        while input.end < 10, !input.atEOF {
            _ = try input.refill(keepingFrom: 0)
        }
        return separatorLine(UnsafeBufferPointer(start: input.base, count: input.end))
    }

    /// ``separatorLine(_:)-(CSVInput)`` of a file's first bytes.
    static func separatorLine(_ base: UnsafeBufferPointer<UInt8>) -> (delimiter: UInt8, length: Int)? {
        let start = base.count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF ? 3 : 0
        func at(_ i: Int) -> UInt8? { start + i < base.count ? base[start + i] : nil }
        guard let s = at(0), let e = at(1), let p = at(2), s | 0x20 == UInt8(ascii: "s"), e | 0x20 == UInt8(ascii: "e"),
              p | 0x20 == UInt8(ascii: "p"), at(3) == UInt8(ascii: "="), let delimiter = at(4),
              delimiter == 9 || (delimiter >= 0x20 && delimiter < 0x7F) else { return nil }
        switch (at(5), at(6)) {
        case (UInt8(ascii: "\n")?, _): return (delimiter, 6)
        case (UInt8(ascii: "\r")?, UInt8(ascii: "\n")?): return (delimiter, 7)
        case (nil, _): return (delimiter, 5)
        default: return nil
        }
    }

    /// Reads the first record as the field names.
    ///
    /// - Returns: The header's names (unchecked when ``CSVOptions/columns`` replaces them).
    /// - Throws: ``AuditError`` `.malformedInput` for an empty file, an empty, duplicate or
    ///   non-UTF-8 name, or a framing error; `.io` when reading fails.
    func readHeader() throws -> [String] {
        let path = input.displayPath
        while true {
            if position == input.end, input.atEOF { throw CSVMessages.emptyFile(path) }
            switch scanner.scanRecord(input.base, from: position, end: input.end, atEOF: input.atEOF,
                                      into: &spans) {
            case .record(let next, let fields, let newlines, _):
                let names = try headerNames(fieldCount: fields)
                position = next
                line += Int64(newlines) + 1
                return names
            case .incomplete(let openQuote):
                if input.end - position >= maxRecordBytes {
                    throw tooLong(recordStart: position, recordLine: line, openQuote: openQuote)
                }
                position -= try input.refill(keepingFrom: position)
            case .unterminatedQuote(let openQuote):
                let (at, column) = locate(openQuote, recordStart: position, recordLine: line)
                throw CSVMessages.unterminatedQuote(path, line: at, column: column)
            case .unexpectedAfterQuote(let offending):
                let (at, column) = locate(offending, recordStart: position, recordLine: line)
                throw CSVMessages.characterAfterQuote(path, line: at, column: column,
                                                      byte: input.base[offending], delimiter: options.delimiter)
            }
        }
    }

    /// Decodes and checks the names of the header record just scanned into `spans`.
    private func headerNames(fieldCount: Int) throws -> [String] {
        let base = input.base
        let checked = options.columns == nil
        var names = [String]()
        var seen = [String: Int]()
        for field in 0 ..< fieldCount {
            let span = spans.pointer[field]
            let fieldStart = span.form == .unquoted ? span.start : span.start - 1
            var length = span.end - span.start
            if span.form == .escaped {
                var write = span.start
                var read = span.start
                while read < span.end {
                    base[write] = base[read]
                    read += base[write] == options.quote ? 2 : 1
                    write += 1
                }
                length = write - span.start
            }
            if checked, !CSVUTF8.isValid(base, from: span.start, to: span.start + length) {
                let (at, column) = locate(fieldStart, recordStart: position, recordLine: line)
                throw CSVMessages.headerNotUTF8(input.displayPath, line: at, column: column, field: field + 1,
                                                compressed: input.source.compression != .none)
            }
            let name = String(decoding: UnsafeBufferPointer(start: base + span.start, count: length), as: UTF8.self)
            if checked, name.isEmpty {
                let (at, column) = locate(fieldStart, recordStart: position, recordLine: line)
                throw CSVMessages.emptyHeaderName(input.displayPath, line: at, column: column, field: field + 1)
            }
            if checked, let first = seen[name] {
                let (at, column) = locate(fieldStart, recordStart: position, recordLine: line)
                throw CSVMessages.duplicateHeaderName(input.displayPath, line: at, column: column, name: name,
                                                      first: first + 1, field: field + 1)
            }
            seen[name] = field
            names.append(name)
        }
        return names
    }

    /// The physical line and 1-based character column of a buffer position inside the record
    /// that starts at `recordStart` on line `recordLine` (records always start a line).
    /// - Complexity: O(position − recordStart); only used for messages.
    func locate(_ target: Int, recordStart: Int, recordLine: Int64) -> (line: Int64, column: Int) {
        CSVReader.locate(in: input.base, target, recordStart: recordStart, recordLine: recordLine)
    }

    /// ``locate(_:recordStart:recordLine:)`` in the buffer `base`.
    static func locate(in base: UnsafePointer<UInt8>, _ target: Int, recordStart: Int,
                       recordLine: Int64) -> (line: Int64, column: Int) {
        var line = recordLine
        var lineStart = recordStart
        var i = recordStart
        while i < target {
            if base[i] == 10 {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return (line, 1 + CSVUTF8.characterCount(base, from: lineStart, to: target))
    }

    /// The error for a record longer than ``maxRecordBytes``.
    func tooLong(recordStart: Int, recordLine: Int64, openQuote: Int?) -> AuditError {
        let (at, column) = locate(openQuote ?? recordStart, recordStart: recordStart, recordLine: recordLine)
        return CSVMessages.recordTooLong(input.displayPath, line: at, column: column, quoted: openQuote != nil,
                                         limit: maxRecordBytes)
    }
}
