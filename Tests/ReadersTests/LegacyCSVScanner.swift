/// The CSV record scanner as it was before unquoted fields were found from one bitmask per
/// word (commit bdae7ae, `CSVScanner.scanRecord`), kept as the specification that
/// ``CSVScannerCrossCheckTests`` holds the current scanner to. Logic verbatim; only the
/// outcome is returned as the text `CSVReader.scannerTrace` describes.
struct LegacyCSVScanner {
    enum Form: String { case unquoted, quoted, escaped }
    struct Span { var start: Int; var end: Int; var form: Form }

    let delimiter: UInt8
    let quote: UInt8
    private let delimiterPattern: UInt64
    private let quotePattern: UInt64
    private static let newline: UInt8 = 10
    private static let carriageReturn: UInt8 = 13
    private static let newlinePattern = LegacyCSVScanner.broadcast(10)

    init(delimiter: UInt8, quote: UInt8) {
        self.delimiter = delimiter
        self.quote = quote
        delimiterPattern = LegacyCSVScanner.broadcast(delimiter)
        quotePattern = LegacyCSVScanner.broadcast(quote)
    }

    /// The trace of `CSVReader.scannerTrace` for `bytes[0 ..< end]`.
    func trace(_ bytes: [UInt8], end: Int, atEOF: Bool) -> [(record: String, maybeNonASCII: Bool)] {
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(end, 1))
        defer { base.deallocate() }
        base.initialize(from: bytes, count: end)
        var trace = [(record: String, maybeNonASCII: Bool)]()
        var position = 0
        while position < end {
            var spans = [Span]()
            let (outcome, next, newlines, nonASCII) = scanRecord(base, from: position, end: end, atEOF: atEOF, into: &spans)
            guard outcome == "record" else {
                trace.append((outcome, false))
                break
            }
            let described = spans.map { "\($0.start)-\($0.end)\($0.form)" }
            trace.append(("record next \(next) newlines \(newlines) fields \(described)", nonASCII))
            position = next
        }
        return trace
    }

    /// `(outcome text, next, newlines, maybeNonASCII)`; the outcome text is "record" or the
    /// description `CSVScanOutcome` prints for the other cases.
    func scanRecord(_ base: UnsafePointer<UInt8>, from start: Int, end: Int, atEOF: Bool,
                    into out: inout [Span]) -> (String, Int, Int, Bool) {
        let delimiter = self.delimiter
        let quote = self.quote
        let lf = LegacyCSVScanner.newline
        let cr = LegacyCSVScanner.carriageReturn
        var newlines = 0
        var seen: UInt64 = 0
        var i = start
        func complete(_ next: Int) -> (String, Int, Int, Bool) {
            ("record", next, newlines, seen & 0x8080_8080_8080_8080 != 0)
        }
        while true {
            if i < end, base[i] == quote {
                let open = i
                var escaped = false
                i += 1
                while true {
                    i = LegacyCSVScanner.first(quote, quotePattern, or: lf, LegacyCSVScanner.newlinePattern,
                                               in: base, from: i, to: end, seen: &seen)
                    if i == end {
                        return (atEOF ? "unterminatedQuote(openQuote: \(open))" : "incomplete(openQuote: Optional(\(open)))", 0, 0, false)
                    }
                    if base[i] == lf {
                        newlines += 1
                        i += 1
                        continue
                    }
                    let close = i
                    i += 1
                    if i == end {
                        guard atEOF else { return ("incomplete(openQuote: Optional(\(open)))", 0, 0, false) }
                        out.append(Span(start: open + 1, end: close, form: escaped ? .escaped : .quoted))
                        return complete(end)
                    }
                    let next = base[i]
                    if next == quote {
                        escaped = true
                        i += 1
                        continue
                    }
                    out.append(Span(start: open + 1, end: close, form: escaped ? .escaped : .quoted))
                    if next == delimiter {
                        i += 1
                        break
                    }
                    if next == lf {
                        return complete(i + 1)
                    }
                    if next == cr {
                        if i + 1 < end {
                            if base[i + 1] == lf { return complete(i + 2) }
                        } else if atEOF {
                            return complete(i + 1)
                        } else {
                            return ("incomplete(openQuote: nil)", 0, 0, false)
                        }
                    }
                    return ("unexpectedAfterQuote(position: \(i))", 0, 0, false)
                }
            } else {
                let fieldStart = i
                i = LegacyCSVScanner.first(delimiter, delimiterPattern, or: lf, LegacyCSVScanner.newlinePattern,
                                           in: base, from: i, to: end, seen: &seen)
                if i < end, base[i] == delimiter {
                    out.append(Span(start: fieldStart, end: i, form: .unquoted))
                    i += 1
                    continue
                }
                guard i < end || atEOF else { return ("incomplete(openQuote: nil)", 0, 0, false) }
                var fieldEnd = i
                if fieldEnd > fieldStart, base[fieldEnd - 1] == cr { fieldEnd -= 1 }
                out.append(Span(start: fieldStart, end: fieldEnd, form: .unquoted))
                return complete(i < end ? i + 1 : end)
            }
        }
    }

    static func broadcast(_ byte: UInt8) -> UInt64 {
        UInt64(byte) &* 0x0101_0101_0101_0101
    }

    private static func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let x = word ^ pattern
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }

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
