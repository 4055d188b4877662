import Auditor

/// How a result column's COPY text becomes a cell, chosen once from its type OID
/// (`PQftype`, PostgreSQL's built-in `pg_type` OIDs; a domain reports its base type).
///
/// The chunk is read without SQLite's storage-class restriction: a typed column gives typed
/// cells (an `int4` column is `.integer`, so it fails `type: date`; a `float8` is `.real`, so it
/// fails `type: integer`, like SQLite's REAL), and a text column is judged as the same text
/// in a CSV would be (a `text` column holding `42` passes `type: integer`).
enum PostgresColumnKind: Equatable {
    /// int2, int4, int8, oid: `.integer`.
    case integer
    /// float4, float8: `.real`; `NaN` and `±Infinity` stay text, which no numeric type accepts.
    case real
    /// numeric: its exact text (never a Double), judged like a CSV decimal: `type: decimal`
    /// passes, `type: integer` passes only an integral value written without a fraction
    /// (`numeric(10,0)`); `NaN` and `Infinity` fail both.
    case numeric
    /// bool: `true` / `false` text (passes `type: boolean`, fails `type: integer`).
    case boolean
    /// date: ISO `YYYY-MM-DD` text; `infinity` and BC dates stay as they are (not dates).
    case date
    /// timestamp: `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` (read as UTC).
    case timestamp
    /// timestamptz: the session is in UTC, so `…+00` becomes `…Z`.
    case timestamptz
    /// bytea: the decoded bytes, `.blob`.
    case bytea
    /// Everything else (text, varchar, char, json, jsonb, uuid, arrays, intervals, …): text.
    case text

    init(oid: UInt32) {
        switch oid {
        case 20, 21, 23, 26: self = .integer          // int8, int2, int4, oid
        case 700, 701: self = .real                    // float4, float8
        case 1700: self = .numeric
        case 16: self = .boolean
        case 1082: self = .date
        case 1114: self = .timestamp
        case 1184: self = .timestamptz
        case 17: self = .bytea
        default: self = .text
        }
    }

    /// The OIDs that a `locate:` column may have (integer keys).
    static func isIntegerKey(_ oid: UInt32) -> Bool { oid == 20 || oid == 21 || oid == 23 }
}

/// Decodes one row of `COPY … TO STDOUT` text format into a chunk.
///
/// Fields are separated by tab and the row ends with a newline; `\N` alone is NULL; a
/// backslash escapes `\b \f \n \r \t \v \\`, an octal byte `\ooo` (1–3 digits), a hex byte
/// `\xhh` (1–2 digits), and any other character stands for itself.
struct PostgresCopyDecoder {
    let kinds: [PostgresColumnKind]
    /// The index, among the row's fields, of the column that locates records; nil for ordinals.
    let keyField: Int?
    /// Fields before the schema's first column (the key column when it is not requested).
    let leading: Int
    /// The field that holds the record's ordinal (a pushed-down read, which skips records).
    let ordinalField: Int?
    private var scratch: [UInt8] = []

    init(kinds: [PostgresColumnKind], keyField: Int?, leading: Int, ordinalField: Int? = nil) {
        self.kinds = kinds
        self.keyField = keyField
        self.leading = leading
        self.ordinalField = ordinalField
    }

    /// Appends one row to `chunk`.
    /// - Returns: false when the row does not have the expected number of fields (a protocol
    ///   surprise, reported as malformed by the caller).
    mutating func append(_ row: UnsafeBufferPointer<UInt8>, ordinal: Int64, to chunk: inout RecordChunk) -> Bool {
        var end = row.count
        if end > 0, row[end - 1] == 0x0A { end -= 1 }
        let width = kinds.count - leading
        var location = ordinal
        var field = 0
        var start = 0
        var ok = true
        while start <= end {
            var stop = start
            while stop < end, row[stop] != 0x09 { stop += 1 }
            guard field < kinds.count else { ok = false; break }
            let raw = UnsafeBufferPointer(rebasing: row[start ..< stop])
            let isNull = raw.count == 2 && raw[0] == 0x5C && raw[1] == 0x4E
            if field == keyField, !isNull, let key = Self.integer(raw) { location = key }
            if field == ordinalField, let n = Self.integer(raw) {
                if keyField == nil { location = n }
                chunk.ordinals?.append(Int(n))
            }
            if field >= leading {
                chunk.columns[field - leading].append(isNull ? .missing : cell(raw, kind: kinds[field], chunk: &chunk))
            }
            field += 1
            start = stop + 1
        }
        if field != kinds.count { ok = false }
        for c in max(0, field - leading) ..< max(width, 0) { chunk.columns[c].append(.missing) }
        chunk.locations.append(location)
        chunk.count += 1
        return ok
    }

    private mutating func cell(_ raw: UnsafeBufferPointer<UInt8>, kind: PostgresColumnKind, chunk: inout RecordChunk) -> Cell {
        switch kind {
        case .integer:
            if let value = Self.integer(raw) { return .integer(value) }
            return appendText(raw, to: &chunk)
        case .real:
            if let value = Self.double(raw) { return .real(value) }
            return appendText(raw, to: &chunk)
        case .boolean:
            if raw.count == 1, raw[0] == UInt8(ascii: "t") { return append(Array("true".utf8), to: &chunk) }
            if raw.count == 1, raw[0] == UInt8(ascii: "f") { return append(Array("false".utf8), to: &chunk) }
            return appendText(raw, to: &chunk)
        case .timestamp, .timestamptz:
            // "2024-01-02 03:04:05.123456" (+ "+00" with a zone) → "2024-01-02T03:04:05.123456Z".
            var n = raw.count
            if kind == .timestamptz, n >= 3, raw[n - 3] == UInt8(ascii: "+"), raw[n - 2] == 0x30, raw[n - 1] == 0x30 { n -= 3 }
            else if kind == .timestamptz { return appendText(raw, to: &chunk) }
            guard n >= 19, raw[10] == 0x20, raw[4] == UInt8(ascii: "-"), !raw[11 ..< n].contains(0x20) else {
                return appendText(raw, to: &chunk)
            }
            let offset = chunk.bytes.count
            chunk.bytes.append(contentsOf: raw[0 ..< 10])
            chunk.bytes.append(UInt8(ascii: "T"))
            chunk.bytes.append(contentsOf: raw[11 ..< n])
            chunk.bytes.append(UInt8(ascii: "Z"))
            return .text(offset: offset, length: chunk.bytes.count - offset)
        case .bytea:
            scratch.removeAll(keepingCapacity: true)
            Self.unescape(raw, into: &scratch)
            // "\x0a0b…": the hex format (bytea_output = hex, the default since 9.0).
            guard scratch.count >= 2, scratch[0] == 0x5C, scratch[1] == UInt8(ascii: "x"), scratch.count % 2 == 0 else {
                return append(scratch, to: &chunk)
            }
            let offset = chunk.bytes.count
            var i = 2
            while i + 1 < scratch.count {
                guard let high = Self.hexDigit(scratch[i]), let low = Self.hexDigit(scratch[i + 1]) else {
                    chunk.bytes.removeSubrange(offset...)
                    return append(scratch, to: &chunk)
                }
                chunk.bytes.append(high << 4 | low)
                i += 2
            }
            return Cell(tag: .blob, payload: Int64(offset), length: Int32(truncatingIfNeeded: chunk.bytes.count - offset))
        case .numeric, .date, .text:
            return appendText(raw, to: &chunk)
        }
    }

    /// The field's text, unescaped, as a `.text` cell.
    private func appendText(_ raw: UnsafeBufferPointer<UInt8>, to chunk: inout RecordChunk) -> Cell {
        let offset = chunk.bytes.count
        if raw.contains(0x5C) {
            Self.unescape(raw, into: &chunk.bytes)
        } else {
            chunk.bytes.append(contentsOf: raw)
        }
        return .text(offset: offset, length: chunk.bytes.count - offset)
    }

    private func append(_ bytes: [UInt8], to chunk: inout RecordChunk) -> Cell {
        let offset = chunk.bytes.count
        chunk.bytes.append(contentsOf: bytes)
        return .text(offset: offset, length: bytes.count)
    }

    /// COPY text-format unescaping.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var i = 0
        let n = raw.count
        while i < n {
            let b = raw[i]
            guard b == 0x5C, i + 1 < n else {
                out.append(b)
                i += 1
                continue
            }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "0") ... UInt8(ascii: "7"):
                var value = Int(e - 0x30)
                var digits = 1
                while digits < 3, i < n, raw[i] >= 0x30, raw[i] <= 0x37 {
                    value = value * 8 + Int(raw[i] - 0x30)
                    i += 1
                    digits += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "x"):
                if i < n, let high = hexDigit(raw[i]) {
                    var value = high
                    i += 1
                    if i < n, let low = hexDigit(raw[i]) {
                        value = value << 4 | low
                        i += 1
                    }
                    out.append(value)
                } else {
                    out.append(e)
                }
            default:
                out.append(e)
            }
        }
    }

    static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30 ... 0x39: return b - 0x30
        case 0x61 ... 0x66: return b - 0x61 + 10
        case 0x41 ... 0x46: return b - 0x41 + 10
        default: return nil
        }
    }

    /// A decimal integer (optional `-`), or nil on anything else or overflow.
    static func integer(_ raw: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if raw.count > 0, raw[0] == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        guard i < raw.count else { return nil }
        var value: Int64 = 0
        while i < raw.count {
            let d = raw[i] &- 0x30
            guard d <= 9 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            value = s
            i += 1
        }
        return value
    }

    /// A finite double, or nil (`NaN`, `Infinity`, junk).
    static func double(_ raw: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let value = Double(String(decoding: raw, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
