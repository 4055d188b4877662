import Auditor

/// Decides which unquoted field texts are missing values: absent (`nullValues`) or explicit
/// nulls (`explicitNullValues`).
struct CSVNullMatcher {
    /// What an unquoted empty field is: `nil` (the empty text), `.missing` or `.null`.
    private let empty: Cell?
    /// The non-empty texts, each with its cell.
    private let others: [([UInt8], Cell)]
    private let longest: Int

    init(_ nullValues: [String], explicit explicitNullValues: [String] = []) {
        empty = nullValues.contains("") ? .missing : explicitNullValues.contains("") ? .null : nil
        var others = [([UInt8], Cell)]()
        for (values, cell) in [(nullValues, Cell.missing), (explicitNullValues, Cell.null)] {
            for value in values where !value.isEmpty {
                let bytes = Array(value.utf8)
                if !others.contains(where: { $0.0 == bytes }) { others.append((bytes, cell)) }
            }
        }
        self.others = others
        longest = others.map(\.0.count).max() ?? 0
    }

    /// The missing cell the unquoted field `[start, start + length)` stands for (``Cell/missing``
    /// or ``Cell/null``), or `nil` when it is text.
    /// - Complexity: O(1) for the default `[""]`; O(k·m) for k other values of length ≤ m.
    @inline(__always)
    func match(_ start: UnsafePointer<UInt8>, length: Int) -> Cell? {
        if length == 0 { return empty }
        guard length <= longest else { return nil }
        for (value, cell) in others where value.count == length {
            if value.withUnsafeBufferPointer({ memcmpEqual($0.baseAddress, start, length) }) { return cell }
        }
        return nil
    }

    private func memcmpEqual(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard let a else { return n == 0 }
        for k in 0 ..< n where a[k] != b[k] { return false }
        return true
    }
}

/// Builds one ``RecordChunk`` from scanned records.
///
/// The chunk's `bytes` are the raw input bytes of its records, block-copied one buffer
/// segment at a time (``append(_:from:to:)``); `.text` cells point at offsets in them, so a
/// field costs no copy. Quoted fields with doubled quotes are unescaped in place in the input
/// buffer before the segment is copied (the value only shrinks, and a record is committed only
/// once it is complete, so it is never scanned again).
struct CSVChunkAssembler {
    let width: Int
    /// Records the cell scratch holds per column.
    let capacity: Int
    /// Column-major scratch: cell `c` of record `r` is `cells[c * capacity + r]`.
    let cells: UnsafeMutablePointer<Cell>
    let nulls: CSVNullMatcher
    let quote: UInt8
    /// The columns whose text is rewritten as it is read (`decimalComma:`, `dateFormat:`).
    let rewrites: [CSVColumnRewrite]
    private(set) var count = 0
    private(set) var bytes: [UInt8]
    private var locations: [Int64]
    private var issues: [RecordIssue] = []
    /// `chunk.bytes` offset = `bias` + buffer position, for the segment being scanned.
    private var bias = 0
    /// Dates and date-times that grow as they are read (`1/2/2024` → `2024-01-02`), placed after
    /// the segments when the chunk is built, and the cells (column, record) that read them.
    private var grown: [UInt8] = []
    private var grownCells: [(column: Int, row: Int, offset: Int, length: Int)] = []

    init(width: Int, capacity: Int, cells: UnsafeMutablePointer<Cell>, nulls: CSVNullMatcher,
         quote: UInt8, rewrites: [CSVColumnRewrite] = [], records: Int, expectedBytes: Int) {
        self.width = width
        self.capacity = capacity
        self.cells = cells
        self.nulls = nulls
        self.quote = quote
        self.rewrites = rewrites
        bytes = []
        bytes.reserveCapacity(expectedBytes)
        locations = []
        locations.reserveCapacity(records)
    }

    /// Starts a buffer segment at `start`: the next bytes appended are the buffer's from there.
    mutating func beginSegment(at start: Int) {
        bias = bytes.count - start
    }

    /// Block-copies the buffer bytes `[from, to)` of committed records into the chunk.
    /// - Complexity: O(`to - from`), one `memcpy`.
    mutating func append(_ base: UnsafePointer<UInt8>, from: Int, to: Int) {
        guard to > from else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + from, count: to - from))
    }

    /// Adds a complete record: its cells, location and structural issues.
    ///
    /// - Parameters:
    ///   - base: The input buffer (quoted fields with doubled quotes are unescaped in it).
    ///   - spans: The record's fields, `fieldCount` of them.
    ///   - recordStart: The record's first byte; `recordEnd`: one past its terminator.
    ///   - maybeNonASCII: False when the scanner saw only ASCII (no UTF-8 check needed).
    ///   - line: The physical line where the record starts.
    ///   - names: The schema's field names (for issue parameters).
    /// - Complexity: O(fields) plus O(bytes) for records that are not pure ASCII or hold `""`.
    mutating func commit(_ base: UnsafeMutablePointer<UInt8>, spans: UnsafePointer<CSVFieldSpan>,
                         fieldCount: Int, recordStart: Int, recordEnd: Int, maybeNonASCII: Bool,
                         line: Int64, names: [String]) {
        let row = count
        let kept = min(fieldCount, width)
        // UTF-8 before unescaping (which leaves stale bytes behind each shortened value). The
        // bytes between fields are ASCII, so the record is valid exactly when every field is:
        // check it whole, and look for the field only when it is not.
        var badColumn = -1
        if maybeNonASCII, !CSVUTF8.isValid(base, from: recordStart, to: recordEnd) {
            for c in 0 ..< kept where !CSVUTF8.isValid(base, from: spans[c].start, to: spans[c].end) {
                badColumn = c
                break
            }
        }
        // Hot loop (every field of the file): walk the column-major slots with a pointer and
        // wrapping arithmetic (positions are buffer offsets, far from overflowing), and read
        // `Cell.missing` once. This took the loop from ~33 to ~20 instructions per field.
        let missing = Cell.missing
        let bias = self.bias
        let stride = capacity
        var slot = cells + row
        var c = 0
        while c < kept {
            let span = spans[c]
            var length = span.end &- span.start
            let cell: Cell
            switch span.form {
            case .unquoted:
                cell = nulls.match(base + span.start, length: length) ?? .text(offset: bias &+ span.start, length: length)
            case .quoted:
                cell = .text(offset: bias &+ span.start, length: length)
            case .escaped:
                length = unescape(base, from: span.start, to: span.end)
                cell = .text(offset: bias &+ span.start, length: length)
            }
            slot.pointee = cell
            slot += stride
            c &+= 1
        }
        while c < width {
            slot.pointee = missing
            slot += stride
            c &+= 1
        }
        locations.append(line)
        if fieldCount == width {
            for r in rewrites { rewrite(base, r, row: row, name: names[r.column]) }
        }
        if fieldCount != width {
            issues.append(RecordIssue(row: row, ruleID: CSVMessages.raggedRule.id,
                                      parameters: ["fields": String(fieldCount), "expected": String(width)],
                                      excludesRecord: true))
        }
        if badColumn >= 0 {
            let span = spans[badColumn]
            let value = String(decoding: UnsafeBufferPointer(start: base + span.start,
                                                             count: Int(cells[badColumn * capacity + row].length)),
                               as: UTF8.self)
            issues.append(RecordIssue(row: row, ruleID: CSVMessages.encodingRule.id, value: value,
                                      parameters: ["column": names[badColumn]], excludesRecord: false))
        }
        count += 1
    }

    /// A `decimalComma:` column's number or a `dateFormat:` column's date rewritten in place in
    /// the buffer (before its segment is copied; a shorter date, `1/2/2024`, into ``grown``), or a
    /// number written with a decimal point reported.
    private mutating func rewrite(_ base: UnsafeMutablePointer<UInt8>, _ r: CSVColumnRewrite, row: Int, name: String) {
        let slot = cells + r.column * capacity + row
        let cell = slot.pointee
        guard cell.tag == .text else { return }
        let start = Int(cell.payload) - bias
        if let date = r.date {
            let length = Int(cell.length)
            if length == 10, date.time == nil {
                _ = date.read(base + start, length: 10, into: base + start)
            } else if length < 10 || date.time != nil {
                let at = grown.count, most = date.maxOutput
                grown.append(contentsOf: repeatElement(0, count: most))
                let n = grown.withUnsafeMutableBufferPointer { date.read(base + start, length: length, into: $0.baseAddress! + at) }
                grown.removeLast(most - n)
                if n > 0 { grownCells.append((r.column, row, at, n)) }
            }
            return
        }
        switch CSVDecimalComma.rewrite(base + start, length: Int(cell.length), style: r.numbers) {
        case .unchanged: break
        case .rewritten(let length): slot.pointee = .text(offset: Int(cell.payload), length: length)
        case .decimalPoint:
            let value = String(decoding: UnsafeBufferPointer(start: base + start, count: Int(cell.length)), as: UTF8.self)
            issues.append(RecordIssue(row: row, ruleID: CSVMessages.decimalPointRule.id, value: value,
                                      parameters: ["column": name], excludesRecord: false))
        }
    }

    /// Replaces each `""` in `[from, to)` with `"`, in place.
    /// - Returns: The new length.
    private func unescape(_ base: UnsafeMutablePointer<UInt8>, from: Int, to end: Int) -> Int {
        let quote = self.quote
        var read = from
        var write = from
        while read < end {
            let byte = base[read]
            base[write] = byte
            write += 1
            // Inside a quoted value every quote is doubled (the scanner guarantees it).
            read += byte == quote ? 2 : 1
        }
        return write - from
    }

    /// The finished chunk.
    /// - Complexity: O(records × width) to copy the cells out of the scratch.
    func build(firstRecord: Int) -> RecordChunk {
        var columns = [[Cell]]()
        columns.reserveCapacity(width)
        for c in 0 ..< width {
            columns.append(Array(UnsafeBufferPointer(start: cells + c * capacity, count: count)))
        }
        guard !grownCells.isEmpty else {
            return RecordChunk(firstRecord: firstRecord, count: count, bytes: bytes, columns: columns,
                               locations: locations, issues: issues)
        }
        for cell in grownCells { columns[cell.column][cell.row] = .text(offset: bytes.count + cell.offset, length: cell.length) }
        return RecordChunk(firstRecord: firstRecord, count: count, bytes: bytes + grown, columns: columns,
                           locations: locations, issues: issues)
    }
}
