#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds record starts in a block of bytes without parsing it, so that the block can be cut
/// into segments that threads parse independently.
///
/// A plain quote-parity count is not enough for the grammar ``CSVScanner`` reads: a quote
/// inside an unquoted field (`ab"c`) is an ordinary character and does not open a quoted
/// field. So this pass follows the scanner's quote state exactly, visiting only quote bytes
/// (found with `memchr`): outside a quoted field, a quote opens one only at a field start
/// (the block's first byte, or after the delimiter or LF); inside one, `""` is an escaped
/// quote and any other quote closes it. Every LF met outside a quoted field then ends a
/// record, exactly as the scanner would end it.
///
/// The two agree up to the first framing error (a character after a closing quote); past one
/// the cuts may be wrong, but the segment holding the error stops there and later segments
/// are discarded, so no record after it is ever delivered.
struct CSVRecordSplitter: Sendable {
    let delimiter: UInt8
    let quote: UInt8
    private static let newline: UInt8 = 10

    /// The first record start at or after each target.
    ///
    /// - Parameters:
    ///   - base: The buffer.
    ///   - start: A record start (the block's first record).
    ///   - end: One past the block's last byte.
    ///   - targets: Ascending positions in `(start, end)` (where the cuts should fall).
    /// - Returns: Strictly ascending record starts in `(start, end)`, at most one per target
    ///   (fewer when targets share a record, or when no record starts after one before `end`).
    /// - Complexity: O(q + n/w): one `memchr` per quote byte up to the last cut, plus the
    ///   `memchr` scans for line feeds after each target.
    func recordStarts(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, after targets: [Int]) -> [Int] {
        let quote = self.quote
        let delimiter = self.delimiter
        let lf = CSVRecordSplitter.newline
        var cuts = [Int]()
        var k = 0
        var position = start
        var inQuote = false
        while k < targets.count {
            let q = CSVRecordSplitter.find(quote, base, from: position, to: end)
            if inQuote {
                guard q < end else { break }       // the block ends inside a quoted field
                if q + 1 < end, base[q + 1] == quote {
                    position = q + 2               // an escaped quote
                } else {
                    inQuote = false                // the closing quote
                    position = q + 1
                }
                continue
            }
            // [position, q) is outside quoted fields: each LF in it ends a record.
            while k < targets.count {
                let from = max(targets[k], position, cuts.last ?? start)
                guard from < q else { break }
                let newline = CSVRecordSplitter.find(lf, base, from: from, to: q)
                guard newline < q else { break }  // none before the quote: look past the quoted field
                let cut = newline + 1
                guard cut < end else {
                    k = targets.count              // no record starts inside the block after it
                    break
                }
                if cut > (cuts.last ?? start) { cuts.append(cut) }
                k += 1
            }
            guard q < end else { break }
            if q == start || base[q - 1] == delimiter || base[q - 1] == lf { inQuote = true }
            position = q + 1
        }
        return cuts
    }

    /// The start of the last record that begins in `(start, end]`: one past the last LF
    /// outside quoted fields, so that `[start, cut)` holds only whole records (the record
    /// ``CSVScanner`` would end at that LF included). The pipeline cuts morsels there.
    ///
    /// A quote in the last byte inside a quoted field may be the first of an escaped `""`
    /// whose second half is not read yet; no LF after it is used, so the cut stays right.
    /// - Parameters:
    ///   - base: The buffer.
    ///   - start: A record start.
    ///   - end: One past the last byte read.
    /// - Returns: The cut, or nil when no record ends in `[start, end)`.
    /// - Complexity: O(q + n/w): one `memchr` per quote byte, then a backwards walk from the
    ///   end to the last LF outside quoted fields.
    func lastRecordStart(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let quote = self.quote
        let delimiter = self.delimiter
        let lf = CSVRecordSplitter.newline
        // The stretches outside quoted fields, in order; the cut is after the last LF in them.
        var outside = [(from: Int, to: Int)]()
        var position = start
        var inQuote = false
        while position < end {
            let q = CSVRecordSplitter.find(quote, base, from: position, to: end)
            if inQuote {
                guard q < end else { break }       // the block ends inside a quoted field
                if q + 1 < end, base[q + 1] == quote {
                    position = q + 2               // an escaped quote
                } else {
                    inQuote = false                // the closing quote (or the ambiguous last byte)
                    position = q + 1
                }
                continue
            }
            if q > position { outside.append((position, q)) }
            guard q < end else { break }
            if q == start || base[q - 1] == delimiter || base[q - 1] == lf { inQuote = true }
            position = q + 1
        }
        for stretch in outside.reversed() {
            var i = stretch.to
            while i > stretch.from {
                i -= 1
                if base[i] == lf { return i + 1 }
            }
        }
        return nil
    }

    /// The position of the first `byte` in `[from, to)`, or `to`.
    @inline(__always)
    private static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }
}

@_spi(Testing)
extension CSVReader {
    /// For tests: the record starts ``CSVRecordSplitter`` finds in `bytes` (a record starts at
    /// 0) at or after each target.
    public static func splitterRecordStarts(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","),
                                            quote: UInt8 = UInt8(ascii: "\""), after targets: [Int]) -> [Int] {
        let splitter = CSVRecordSplitter(delimiter: delimiter, quote: quote)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            return splitter.recordStarts(base, from: 0, to: buffer.count, after: targets)
        }
    }

    /// For tests: where ``CSVRecordSplitter/lastRecordStart(_:from:to:)`` cuts `bytes[0..<end]`
    /// (a record starts at 0), or nil.
    public static func splitterLastRecordStart(_ bytes: [UInt8], end: Int, delimiter: UInt8 = UInt8(ascii: ","),
                                               quote: UInt8 = UInt8(ascii: "\"")) -> Int? {
        let splitter = CSVRecordSplitter(delimiter: delimiter, quote: quote)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return splitter.lastRecordStart(base, from: 0, to: min(end, buffer.count))
        }
    }

    /// For tests: the record starts ``CSVScanner`` finds in `bytes` read as a whole file, after
    /// 0 and before the end, and whether it reached the end without a framing error.
    public static func scannedRecordStarts(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","),
                                           quote: UInt8 = UInt8(ascii: "\"")) -> (starts: [Int], clean: Bool) {
        let scanner = CSVScanner(delimiter: delimiter, quote: quote)
        var spans = CSVFieldSpans()
        defer { spans.deallocate() }
        var starts = [Int]()
        var copy = bytes
        let clean = copy.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var position = 0
            while position < buffer.count {
                guard case .record(let next, _, _, _) = scanner.scanRecord(base, from: position, end: buffer.count,
                                                                           atEOF: true, into: &spans) else { return false }
                position = next
                if position < buffer.count { starts.append(position) }
            }
            return true
        }
        return (starts, clean)
    }
}
