import Auditor

/// Root causes found before any record is read: a file in another encoding or with another
/// delimiter is reported once, with the fix, instead of as one finding per record (or as
/// "no column 'id'" for a header read as a single field).
extension CSVReader {
    /// Encodings recognised at the start of a file that is not UTF-8.
    enum ForeignEncoding: Equatable {
        case utf16LE, utf16BE, utf32LE, utf32BE
        /// ISO-8859-1 (or Windows-1252): invalid UTF-8, and no valid multi-byte sequence at all.
        case latin1

        /// The name `iconv -f` takes.
        var iconvName: String {
            switch self {
            case .utf16LE: return "UTF-16LE"
            case .utf16BE: return "UTF-16BE"
            case .utf32LE: return "UTF-32LE"
            case .utf32BE: return "UTF-32BE"
            case .latin1: return "LATIN1"
            }
        }
    }

    /// How much of the file's start is sniffed (the first buffer holds at least this much of
    /// a regular file, unless the file is shorter).
    static let sniffBytes = 1 << 20

    /// Fails when the start of the file (the bytes of the first read, at most 1 MiB) is UTF-16
    /// or UTF-32 (a byte order mark, or NUL bytes in every other position) or Latin-1 (bytes
    /// that are not UTF-8, at least one of them an accented letter, and no valid multi-byte
    /// UTF-8 sequence at all). A UTF-8 file with a few stray bytes is not Latin-1: its records
    /// are read, and flagged `csv.encoding`.
    /// - Throws: ``AuditError`` `.malformedInput` (exit 65) that names the likely encoding and
    ///   the `iconv` command that converts the file.
    func checkEncoding() throws {
        let start = position           // after a UTF-8 byte order mark, if any
        let count = min(input.end, Self.sniffBytes) - start
        guard count > 0 else { return }
        let bytes = UnsafeBufferPointer(start: input.base + start, count: count)
        let completeInput = input.atEOF && input.end - start == count
        guard let (encoding, offset) = Self.sniff(bytes, complete: completeInput) else { return }
        var at: (line: Int64, column: Int) = (1, 1)
        if encoding == .latin1 {
            at = CSVReader.locate(in: input.base, start + offset, recordStart: start, recordLine: 1)
        }
        throw CSVMessages.foreignEncoding(input.displayPath, encoding, line: at.line, column: at.column,
                                          byte: encoding == .latin1 ? bytes[offset] : nil,
                                          compression: input.source.compression)
    }

    /// The encoding that `bytes` (the start of a file) are likely in, when they are not UTF-8,
    /// and the offset of the first byte that shows it (the first non-UTF-8 byte for Latin-1).
    /// - Parameter complete: Whether `bytes` is the whole file (else a sequence cut at the end
    ///   is not judged).
    /// - Complexity: O(n).
    static func sniff(_ bytes: UnsafeBufferPointer<UInt8>, complete: Bool) -> (ForeignEncoding, Int)? {
        let n = bytes.count
        if n >= 4, bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0, bytes[3] == 0 { return (.utf32LE, 0) }
        if n >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 0xFE, bytes[3] == 0xFF { return (.utf32BE, 0) }
        if n >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 0) }
        if n >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 0) }
        // No byte order mark: ASCII text in UTF-16 has a NUL in every other byte. Judged on the
        // first 256 bytes (at least 8): a UTF-8 CSV holds no NUL there.
        let window = min(n, 256) & ~1
        if window >= 8 {
            var evenNUL = 0, oddNUL = 0
            for i in 0 ..< window where bytes[i] == 0 {
                if i & 1 == 0 { evenNUL += 1 } else { oddNUL += 1 }
            }
            let pairs = window / 2
            if oddNUL * 4 >= pairs * 3, evenNUL * 8 <= pairs { return (.utf16LE, 0) }
            if evenNUL * 4 >= pairs * 3, oddNUL * 8 <= pairs { return (.utf16BE, 0) }
        }
        // Latin-1: invalid UTF-8 with accented letters, and not one valid multi-byte sequence.
        var firstInvalid: Int?
        var letters = 0
        var i = 0
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length = utf8SequenceLength(bytes, at: i)
            if length > 1 { return nil }           // real UTF-8 text: stray bytes are findings
            if length == 0 {                        // cut by the end of the sniffed bytes
                if !complete { break }
            }
            if firstInvalid == nil { firstInvalid = i }
            if b >= 0xC0, b != 0xD7, b != 0xF7 { letters += 1 }
            i += 1
        }
        guard let firstInvalid, letters > 0 else { return nil }
        return (.latin1, firstInvalid)
    }

    /// The length of the well-formed UTF-8 sequence at `i` (2...4), 1 when the byte cannot start
    /// one, or 0 when the bytes end inside what could still be one.
    static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = bytes[i]
        var length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1 ... 0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 1
        }
        var k = 1
        while k < length {
            guard i + k < bytes.count else { return 0 }
            let c = bytes[i + k]
            if k == 1 ? (c < low || c > high) : (c & 0xC0 != 0x80) { return 1 }
            k += 1
        }
        return length
    }

    /// Fails when the header lacks fields the rules expect, but splitting it on another
    /// delimiter (`,` `;` TAB `|`) gives more of them: the file is in another CSV dialect.
    /// Nothing is checked when `columns:` names the fields.
    /// - Parameters:
    ///   - expected: The attributes the rules read from this input.
    ///   - source: The source's name in the rules file, for the fix.
    /// - Throws: ``AuditError`` `.malformedInput` (exit 65) at `file:1:1` with the delimiter the
    ///   file likely uses and the `csv:` option to set.
    public func checkDelimiter(expecting expected: [String], source: String) throws {
        guard options.header, options.columns == nil, !expected.isEmpty else { return }
        let header = schema.fields
        let present = expected.filter(header.contains).count
        guard present < expected.count else { return }
        let line = header.joined(separator: String(UnicodeScalar(options.delimiter)))
        var best: (delimiter: UInt8, found: Int)?
        for candidate in Self.candidateDelimiters where candidate != options.delimiter {
            let names = line.split(separator: Character(UnicodeScalar(candidate)), omittingEmptySubsequences: false)
                .map { Self.unquoted($0) }
            guard names.count >= 2 else { continue }
            let found = expected.filter(names.contains).count
            if found > present, found * 2 >= expected.count, found > best?.found ?? 0 { best = (candidate, found) }
        }
        guard let best else { return }
        throw CSVMessages.otherDelimiter(input.displayPath, found: best.delimiter, configured: options.delimiter,
                                         source: source, matched: best.found, expected: expected.count)
    }

    /// A header name without surrounding blanks and quotes.
    private static func unquoted(_ s: Substring) -> String {
        var t = s.drop { $0 == " " }
        while t.last == " " { t = t.dropLast() }
        if t.count >= 2, t.first == "\"", t.last == "\"" { t = t.dropFirst().dropLast() }
        return String(t)
    }
}

extension CSVMessages {
    /// `"\t"` for TAB, else the character.
    static func shown(_ delimiter: UInt8) -> String {
        delimiter == 9 ? "\\t" : String(UnicodeScalar(delimiter))
    }

    static func otherDelimiter(_ path: String, found: UInt8, configured: UInt8, source: String,
                               matched: Int, expected: Int) -> AuditError {
        let d = shown(found)
        let name = found == 9 ? "TAB" : "'\(d)'"
        return AuditError(.malformedInput,
                          "\(path) looks \(name)-delimited, not '\(shown(configured))'-delimited: its header split on "
                              + "\(name) gives \(matched) of the \(expected) declared columns. Set "
                              + "`csv: { delimiter: \"\(d)\" }` on source '\(source)' in the rules file; "
                              + "no record was audited",
                          location: "\(path):1:1")
    }

    static func foreignEncoding(_ path: String, _ encoding: CSVReader.ForeignEncoding, line: Int64, column: Int,
                                byte: UInt8?, compression: InputCompression = .none) -> AuditError {
        let iconv = "iconv -f \(encoding.iconvName) -t UTF-8"
        // The text of a compressed file is what was sniffed: convert the decompressed text.
        let convert = switch compression {
        case .none: "\(iconv) '\(path)' > converted.csv"
        case .gzip: "gzip -dc '\(path)' | \(iconv) | gzip > converted.csv.gz"
        case .zstd: "zstd -dc '\(path)' | \(iconv) | zstd > converted.csv.zst"
        }
        let what: String
        switch encoding {
        case .utf16LE, .utf16BE, .utf32LE, .utf32BE:
            what = "\(path) looks \(encoding.iconvName)-encoded, not UTF-8"
        case .latin1:
            let hex = byte.map { String($0, radix: 16, uppercase: true) } ?? "?"
            let char = byte.map { String(UnicodeScalar($0)) } ?? "?"
            what = "\(path) looks Latin-1 (ISO-8859-1) encoded, not UTF-8: byte 0x\(hex) here is '\(char)' in "
                + "Latin-1, and the file has no UTF-8 multi-byte character"
            return AuditError(.malformedInput, what + ". Read it so: add 'encoding: windows-1252' (as Excel on Windows saves CSV) "
                                  + "or 'encoding: latin-1' to the source's csv options, or convert it (\(convert)); no record was audited",
                              location: "\(path):\(line):\(column)")
        }
        return AuditError(.malformedInput, what + ". Convert it (\(convert)) and audit the converted file; "
                              + "no record was audited",
                          location: "\(path):\(line):\(column)")
    }
}
