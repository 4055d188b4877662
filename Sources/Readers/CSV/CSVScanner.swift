/// One field of the record being scanned, as byte positions in the input buffer.
struct CSVFieldSpan {
    enum Form: UInt8 {
        /// An unquoted field (null values apply).
        case unquoted
        /// A quoted field without doubled quotes: the bytes are the value.
        case quoted
        /// A quoted field holding doubled quotes, to unescape before use.
        case escaped
    }

    /// The first byte of the value (after the opening quote of a quoted field).
    var start: Int
    /// One past the value (the closing quote of a quoted field; a CR before LF is excluded).
    var end: Int
    var form: Form
}

/// Growable storage for the fields of one record.
struct CSVFieldSpans {
    private(set) var pointer: UnsafeMutablePointer<CSVFieldSpan>
    private(set) var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        pointer = .allocate(capacity: capacity)
    }

    /// Doubles the capacity, keeping the spans.
    mutating func grow() {
        let grown = UnsafeMutablePointer<CSVFieldSpan>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: pointer, count: capacity)
        pointer.deallocate()
        pointer = grown
        capacity *= 2
    }

    /// Frees the storage; call once, from the owner's `deinit`.
    func deallocate() {
        pointer.deallocate()
    }
}

/// What scanning one record found.
enum CSVScanOutcome: Equatable {
    /// A complete record: `fields` spans were written; the next record starts at `next`;
    /// `newlines` LF bytes were inside quoted fields. `maybeNonASCII` is false only when every
    /// byte of the record is ASCII (it may be true for an ASCII record: the scan reads a few
    /// bytes past the record's end).
    case record(next: Int, fields: Int, newlines: Int, maybeNonASCII: Bool)
    /// The record runs past the buffer's end and the file has more: refill, then scan the
    /// record again from its start. `openQuote` is set when the end fell inside a quoted field.
    case incomplete(openQuote: Int?)
    /// The file ends inside the quoted field whose opening quote is at `openQuote`.
    case unterminatedQuote(openQuote: Int)
    /// The byte at `position` follows a closing quote but is neither the delimiter nor a line end.
    case unexpectedAfterQuote(position: Int)
}

/// Splits RFC 4180 records into field spans, 8 bytes at a time.
///
/// Unquoted fields, nearly all of a typical file, are found from one bitmask of delimiters
/// and line feeds per 8-byte word, consumed field by field, so each byte is loaded once
/// whatever the field lengths; quoted fields search for their closing quote from the field's
/// start.
///
/// Grammar, as read here: a record is fields separated by the delimiter and ends with LF or
/// CRLF (or the end of the file). A field that starts with the quote character is quoted: it
/// runs to the next quote not doubled (`""`), may hold delimiters, CR and LF, and must be
/// followed by the delimiter or a record end. Any other field is unquoted and runs to the next
/// delimiter or LF; a quote inside it is an ordinary character (lenient: `ab"c` reads as
/// `ab"c`), and so is a CR that is not followed by LF.
struct CSVScanner {
    let delimiter: UInt8
    let quote: UInt8
    private let delimiterPattern: UInt64
    private let quotePattern: UInt64
    private static let newline: UInt8 = 10
    private static let carriageReturn: UInt8 = 13
    private static let newlinePattern = CSVScanner.broadcast(10)

    init(delimiter: UInt8, quote: UInt8) {
        self.delimiter = delimiter
        self.quote = quote
        delimiterPattern = CSVScanner.broadcast(delimiter)
        quotePattern = CSVScanner.broadcast(quote)
    }

    /// Scans one record starting at `start`.
    ///
    /// - Parameters:
    ///   - base: The input buffer.
    ///   - start: The first byte of the record (a line start).
    ///   - end: One past the last valid byte.
    ///   - atEOF: True when no byte follows `end` in the file: the record then ends at `end`.
    ///   - spans: Receives the record's fields; grown when the record has more fields.
    /// - Returns: The record's extent, or why it could not be completed.
    /// - Complexity: O(record length), reading 8 bytes per step inside fields.
    func scanRecord(_ base: UnsafePointer<UInt8>, from start: Int, end: Int, atEOF: Bool,
                    into spans: inout CSVFieldSpans) -> CSVScanOutcome {
        let delimiter = self.delimiter
        let quote = self.quote
        let lf = CSVScanner.newline
        let cr = CSVScanner.carriageReturn
        var out = spans.pointer
        var capacity = spans.capacity
        var count = 0
        var newlines = 0
        var seen: UInt64 = 0  // OR of every byte read: its high bits flag non-ASCII bytes
        var i = start
        // Unquoted fields: the delimiters and LFs of the last word loaded that are not consumed
        // yet (bit 8k + 7 for byte `next - 8 + k`), and where the next word starts. No byte in
        // `[i, next)` outside `pending` is a delimiter or LF, so every byte is loaded once.
        var pending: UInt64 = 0
        var next = start
        while true {
            if count == capacity {
                spans.grow()
                out = spans.pointer
                capacity = spans.capacity
            }
            if i < end, base[i] == quote {
                // Quoted field: find its closing quote, counting line breaks on the way.
                let open = i
                var escaped = false
                i += 1
                while true {
                    i = CSVScanner.first(quote, quotePattern, or: lf, CSVScanner.newlinePattern,
                                         in: base, from: i, to: end, seen: &seen)
                    if i == end {
                        return atEOF ? .unterminatedQuote(openQuote: open) : .incomplete(openQuote: open)
                    }
                    if base[i] == lf {
                        newlines += 1
                        i += 1
                        continue
                    }
                    let close = i
                    i += 1
                    if i == end {
                        guard atEOF else { return .incomplete(openQuote: open) }
                        out[count] = CSVFieldSpan(start: open + 1, end: close, form: escaped ? .escaped : .quoted)
                        return CSVScanner.complete(end, count + 1, newlines, seen)
                    }
                    let after = base[i]
                    if after == quote {
                        escaped = true
                        i += 1
                        continue
                    }
                    out[count] = CSVFieldSpan(start: open + 1, end: close, form: escaped ? .escaped : .quoted)
                    count += 1
                    if after == delimiter {
                        i += 1
                        pending = 0
                        next = i
                        break
                    }
                    if after == lf {
                        return CSVScanner.complete(i + 1, count, newlines, seen)
                    }
                    if after == cr {
                        if i + 1 < end {
                            if base[i + 1] == lf { return CSVScanner.complete(i + 2, count, newlines, seen) }
                        } else if atEOF {
                            return CSVScanner.complete(i + 1, count, newlines, seen)
                        } else {
                            return .incomplete(openQuote: nil)
                        }
                    }
                    return .unexpectedAfterQuote(position: i)
                }
            } else {
                // Unquoted fields: each runs to the next delimiter or LF. Consecutive unquoted
                // fields stay in this loop; a full span buffer or a quote at a field start
                // goes back to the outer one.
                var fieldStart = i
                var recordEnds = false
                while true {
                    i = nextBreak(base, end: end, next: &next, pending: &pending, seen: &seen)
                    guard i < end, base[i] == delimiter else {
                        recordEnds = true
                        break
                    }
                    out[count] = CSVFieldSpan(start: fieldStart, end: i, form: .unquoted)
                    count &+= 1
                    i &+= 1
                    if count == capacity || (i < end && base[i] == quote) { break }
                    fieldStart = i
                }
                if !recordEnds { continue }
                guard i < end || atEOF else { return .incomplete(openQuote: nil) }
                // A record end: LF, or the end of the file. Drop the CR of a CRLF.
                var fieldEnd = i
                if fieldEnd > fieldStart, base[fieldEnd - 1] == cr { fieldEnd -= 1 }
                out[count] = CSVFieldSpan(start: fieldStart, end: fieldEnd, form: .unquoted)
                return CSVScanner.complete(i < end ? i + 1 : end, count + 1, newlines, seen)
            }
        }
    }

    /// A complete record's outcome.
    @inline(__always)
    private static func complete(_ next: Int, _ fields: Int, _ newlines: Int, _ seen: UInt64) -> CSVScanOutcome {
        .record(next: next, fields: fields, newlines: newlines, maybeNonASCII: seen & 0x8080_8080_8080_8080 != 0)
    }

    // MARK: - Eight bytes at a time

    /// A word with `byte` in each of its eight bytes.
    static func broadcast(_ byte: UInt8) -> UInt64 {
        UInt64(byte) &* 0x0101_0101_0101_0101
    }

    /// The high bit of each byte of `word` that equals the pattern's byte. Bits above the
    /// lowest match may be spurious (borrow), so only the lowest set bit is meaningful.
    @inline(__always)
    private static func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let x = word ^ pattern
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }

    /// The high bit of each byte of `word` that equals the byte of `a` or of `b`, exactly (no
    /// borrow between bytes: `(x & 0x7F) + 0x7F` sets a byte's high bit when its low seven
    /// bits are not all zero, and never carries out of the byte).
    @inline(__always)
    static func exactMatches(_ word: UInt64, _ a: UInt64, _ b: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = word ^ a
        let y = word ^ b
        let nonzeroX = ((x & low) &+ low) | x
        let nonzeroY = ((y & low) &+ low) | y
        return ~(nonzeroX & nonzeroY) & 0x8080_8080_8080_8080
    }

    /// The next delimiter or LF of an unquoted field, or `end`: from the matches of the word
    /// already loaded (`pending`), else from the next words, else byte by byte in the last
    /// bytes before `end`. Every byte loaded is ORed into `seen`.
    /// - Complexity: O(1) per match plus O(1) per word: each byte of the field is loaded once.
    @inline(__always)
    private func nextBreak(_ base: UnsafePointer<UInt8>, end: Int, next: inout Int, pending: inout UInt64,
                           seen: inout UInt64) -> Int {
        if pending != 0 {
            let found = next &- 8 &+ (pending.trailingZeroBitCount &>> 3)
            pending &= pending &- 1
            return found
        }
        var at = next
        while at &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            seen |= word
            let found = CSVScanner.exactMatches(word, delimiterPattern, CSVScanner.newlinePattern)
            at &+= 8
            if found != 0 {
                next = at
                pending = found & (found &- 1)
                return at &- 8 &+ (found.trailingZeroBitCount &>> 3)
            }
        }
        let delimiter = self.delimiter
        while at < end {
            let byte = base[at]
            seen |= UInt64(byte)
            at &+= 1
            if byte == delimiter || byte == CSVScanner.newline {
                next = at
                return at &- 1
            }
        }
        next = end
        return end
    }

    /// The position of the first byte in `[from, end)` equal to `a` or `b`, or `end`.
    /// - Complexity: O(n/8) word loads plus at most 7 single bytes.
    /// Every byte read is ORed into `seen` (so the caller learns, for free, whether the bytes
    /// up to the match were all ASCII).
    @inline(__always)
    static func first(_ a: UInt8, _ aPattern: UInt64, or b: UInt8, _ bPattern: UInt64,
                      in base: UnsafePointer<UInt8>, from: Int, to end: Int, seen: inout UInt64) -> Int {
        var i = from
        while i &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            seen |= word
            let found = matches(word, aPattern) | matches(word, bPattern)
            if found != 0 { return i &+ (found.trailingZeroBitCount &>> 3) }
            i &+= 8
        }
        while i < end {
            let byte = base[i]
            seen |= UInt64(byte)
            if byte == a || byte == b { return i }
            i &+= 1
        }
        return end
    }
}

@_spi(Testing)
extension CSVReader {
    /// For tests: what ``CSVScanner`` reads in `bytes[0 ..< end]`, record after record from 0,
    /// until a record is not complete or `end` is reached. Each record is described without
    /// its `maybeNonASCII` flag (which may be set for an ASCII record), given beside it.
    public static func scannerTrace(_ bytes: [UInt8], end: Int, atEOF: Bool, delimiter: UInt8 = UInt8(ascii: ","),
                                    quote: UInt8 = UInt8(ascii: "\"")) -> [(record: String, maybeNonASCII: Bool)] {
        let scanner = CSVScanner(delimiter: delimiter, quote: quote)
        var spans = CSVFieldSpans(capacity: 2)
        defer { spans.deallocate() }
        // An exact-size copy, so that a read past `end` is caught by the address sanitizer.
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(end, 1))
        defer { base.deallocate() }
        base.initialize(from: bytes, count: end)
        var trace = [(record: String, maybeNonASCII: Bool)]()
        var position = 0
        while position < end {
            let outcome = scanner.scanRecord(base, from: position, end: end, atEOF: atEOF, into: &spans)
            guard case .record(let next, let fields, let newlines, let maybeNonASCII) = outcome else {
                trace.append(("\(outcome)", false))
                break
            }
            let described = (0 ..< fields).map { k in
                let span = spans.pointer[k]
                return "\(span.start)-\(span.end)\(span.form)"
            }
            trace.append(("record next \(next) newlines \(newlines) fields \(described)", maybeNonASCII))
            position = next
        }
        return trace
    }
}
