#if Spark
/// Decodes an Arrow IPC stream (arrow.apache.org, "Columnar format", "IPC Streaming Format"):
/// a schema message, then record batch messages, then an optional end-of-stream marker.
///
/// Each message is framed as `0xFFFFFFFF`, a 32-bit metadata length, the FlatBuffers `Message`
/// (padded to 8 bytes), then `bodyLength` bytes of buffers. Streams written before Arrow 0.15
/// lack the `0xFFFFFFFF` marker; both framings are read. Only flat columns of the types in
/// ``ArrowType`` are decoded; anything else throws ``ArrowError/unsupported(_:)`` naming the
/// column, never a wrong value.
public struct ArrowStreamReader {
    /// The columns, known once the schema message has been read.
    public private(set) var fields: [ArrowField]?
    /// Decoded rows, in stream order.
    public private(set) var rows: [[SparkValue]] = []
    /// How many record batch messages were read.
    public private(set) var batchCount = 0

    /// The most rows a batch whose columns all have the null type may have (such a batch has
    /// no body that would bound it).
    static let maxNullOnlyRows = 1 << 24

    public init() {}

    /// Reads one complete IPC stream and appends its rows. Spark Connect sends every
    /// `ArrowBatch` as a stream of its own (schema included); later schemas must match the first.
    /// - Throws: ``ArrowError`` for malformed or unsupported data.
    /// - Complexity: O(bytes + rows × columns).
    public mutating func read(stream data: [UInt8]) throws {
        var cursor = 0
        while cursor < data.count {
            guard data.count - cursor >= 4 else { throw ArrowError.malformed("a message frame is truncated") }
            var length = try FlatBufferTable.readInt32(data, at: cursor)
            cursor += 4
            if length == -1 {  // the continuation marker 0xFFFFFFFF
                length = try FlatBufferTable.readInt32(data, at: cursor)
                cursor += 4
            }
            if length == 0 { return }  // end of stream
            guard length > 0, Int(length) <= data.count - cursor else {
                throw ArrowError.malformed("a message claims \(length) metadata bytes, \(data.count - cursor) remain")
            }
            let metadata = Array(data[cursor..<(cursor + Int(length))])
            cursor += Int(length)
            let message = try FlatBufferTable(root: metadata)
            let bodyLength = try message.int64(3)
            guard bodyLength >= 0, bodyLength <= Int64(data.count - cursor) else {
                throw ArrowError.malformed("a message body of \(bodyLength) bytes overruns the stream")
            }
            let body = cursor..<(cursor + Int(bodyLength))
            cursor = body.upperBound
            guard let header = try message.table(2) else { throw ArrowError.malformed("a message has no header") }
            switch try message.uint8(1) {
            case 1: try readSchema(header)
            case 2: throw ArrowError.unsupported("dictionary batches (dictionary-encoded columns)")
            case 3: try readRecordBatch(header, data: data, body: body)
            case let other: throw ArrowError.unsupported("message type \(other)")
            }
        }
    }

    private mutating func readSchema(_ schema: FlatBufferTable) throws {
        if try schema.int16(0) != 0 { throw ArrowError.unsupported("big-endian data") }
        let fields = try schema.tables(1).map { field -> ArrowField in
            let name = try field.string(0) ?? ""
            return ArrowField(name: name, type: try ArrowType.read(field: field, name: name),
                              nullable: try field.bool(1))
        }
        if let known = self.fields, known != fields {
            throw ArrowError.malformed("a later batch has a different schema")
        }
        self.fields = fields
    }

    private mutating func readRecordBatch(_ batch: FlatBufferTable, data: [UInt8], body: Range<Int>) throws {
        guard let fields else { throw ArrowError.malformed("a record batch comes before the schema") }
        if try batch.table(3) != nil { throw ArrowError.unsupported("compressed record batches") }
        let length = try batch.int64(0)
        let nodes = try batch.int64Pairs(1)
        let buffers = try batch.int64Pairs(2)
        // Every column but the null type needs at least one bit per row in the body, so a
        // row count beyond that is a lie; a batch of null-type columns only is capped, so that a
        // damaged count cannot make the reader allocate gigabytes before anything else fails.
        let allNull = fields.allSatisfy { $0.type == .null }
        let plausible = allNull ? Int64(Self.maxNullOnlyRows) : Int64(body.count) * 8
        guard length >= 0, length <= plausible else {
            throw ArrowError.malformed("a record batch claims \(length) rows in a body of \(body.count) bytes")
        }
        guard nodes.count == fields.count else {
            throw ArrowError.malformed("a record batch has \(nodes.count) columns, the schema \(fields.count)")
        }
        guard buffers.count == fields.reduce(0, { $0 + $1.type.bufferCount }) else {
            throw ArrowError.malformed("a record batch has \(buffers.count) buffers, which does not fit its schema")
        }
        let rowCount = Int(length)
        var columns: [[SparkValue]] = []
        columns.reserveCapacity(fields.count)
        var next = 0
        for (i, field) in fields.enumerated() {
            let (nodeLength, nullCount) = nodes[i]
            guard nodeLength == length else {
                throw ArrowError.malformed("column '\(field.name)' has \(nodeLength) values in a batch of \(length) rows")
            }
            let ranges = try buffers[next..<(next + field.type.bufferCount)].map { offset, size in
                guard offset >= 0, size >= 0, offset <= Int64(body.count), size <= Int64(body.count) - offset else {
                    throw ArrowError.malformed("a buffer of column '\(field.name)' lies outside the message body")
                }
                return (body.lowerBound + Int(offset))..<(body.lowerBound + Int(offset) + Int(size))
            }
            next += field.type.bufferCount
            let column = ArrowColumn(field: field, rowCount: rowCount, nullCount: Int(nullCount), buffers: ranges)
            columns.append(try data.withUnsafeBytes { try column.decode($0) })
        }
        rows.reserveCapacity(rows.count + rowCount)
        for r in 0..<rowCount {
            rows.append(columns.map { $0[r] })
        }
        batchCount += 1
    }
}

/// One column of one record batch: where its buffers are, and how to turn them into values.
private struct ArrowColumn {
    let field: ArrowField
    let rowCount: Int
    let nullCount: Int
    /// Byte ranges in the stream: validity, then values (or offsets, then data).
    let buffers: [Range<Int>]

    func decode(_ raw: UnsafeRawBufferPointer) throws -> [SparkValue] {
        if case .null = field.type { return Array(repeating: .null, count: rowCount) }
        let validity = buffers[0]
        if nullCount > 0, validity.count < (rowCount + 7) / 8 {
            throw ArrowError.malformed("column '\(field.name)' has a validity bitmap of \(validity.count) bytes for \(rowCount) rows")
        }
        func isValid(_ row: Int) -> Bool {
            nullCount == 0 || validity.isEmpty || raw[validity.lowerBound + row >> 3] >> (row & 7) & 1 == 1
        }
        let values = buffers[1]
        func need(_ bytes: Int, in range: Range<Int>) throws {
            guard range.count >= bytes else {
                throw ArrowError.malformed("column '\(field.name)' has \(range.count) bytes of values, \(bytes) are needed")
            }
        }
        func fixed<T: BitwiseCopyable>(_ type: T.Type, _ make: (T) throws -> SparkValue) throws -> [SparkValue] {
            try need(rowCount * MemoryLayout<T>.size, in: values)
            return try (0..<rowCount).map { r in
                isValid(r) ? try make(raw.loadUnaligned(fromByteOffset: values.lowerBound + r * MemoryLayout<T>.size, as: T.self)) : .null
            }
        }
        switch field.type {
        case .null:
            return Array(repeating: .null, count: rowCount)
        case .bool:
            try need((rowCount + 7) / 8, in: values)
            return (0..<rowCount).map { r in
                isValid(r) ? .bool(raw[values.lowerBound + r >> 3] >> (r & 7) & 1 == 1) : .null
            }
        case .int(8, true): return try fixed(Int8.self) { .int(Int64($0)) }
        case .int(16, true): return try fixed(Int16.self) { .int(Int64($0)) }
        case .int(32, true): return try fixed(Int32.self) { .int(Int64($0)) }
        case .int(64, true): return try fixed(Int64.self) { .int($0) }
        case .int(8, false): return try fixed(UInt8.self) { .int(Int64($0)) }
        case .int(16, false): return try fixed(UInt16.self) { .int(Int64($0)) }
        case .int(32, false): return try fixed(UInt32.self) { .int(Int64($0)) }
        case .int(_, _):
            return try fixed(UInt64.self) { v in
                guard let i = Int64(exactly: v) else {
                    throw ArrowError.unsupported("column '\(field.name)' holds the unsigned value \(v), beyond Int64")
                }
                return .int(i)
            }
        case .float(32): return try fixed(Float.self) { .double(Double($0)) }
        case .float(_): return try fixed(Double.self) { .double($0) }
        case .date(false): return try fixed(Int32.self) { .date(days: $0) }
        case .date(true):
            return try fixed(Int64.self) { ms in
                let (days, _) = ms.floorDivided(by: 86_400_000)
                guard let d = Int32(exactly: days) else {
                    throw ArrowError.malformed("column '\(field.name)' holds a date out of range")
                }
                return .date(days: d)
            }
        case .timestamp(let unit, let zone):
            return try fixed(Int64.self) { v in
                let micros: Int64?
                switch unit {
                case .second: micros = v.multipliedReportingOverflow(by: 1_000_000).overflow ? nil : v * 1_000_000
                case .millisecond: micros = v.multipliedReportingOverflow(by: 1000).overflow ? nil : v * 1000
                case .microsecond: micros = v
                case .nanosecond: micros = v % 1000 == 0 ? v / 1000 : nil
                }
                guard let micros else {
                    throw ArrowError.unsupported("column '\(field.name)' holds a timestamp that microseconds cannot hold exactly")
                }
                return .timestamp(microseconds: micros, timeZone: zone)
            }
        case .decimal(_, let scale, _):
            try need(rowCount * 16, in: values)
            return (0..<rowCount).map { r in
                guard isValid(r) else { return .null }
                let p = values.lowerBound + r * 16
                let low = raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                let high = raw.loadUnaligned(fromByteOffset: p + 8, as: UInt64.self)
                return .decimal(DecimalText.format(low: low, high: high, scale: scale))
            }
        case .utf8, .binary:
            return try variable(raw, offsetSize: 4)
        case .largeUTF8, .largeBinary:
            return try variable(raw, offsetSize: 8)
        }
    }

    /// Strings and binaries: `rowCount + 1` offsets into the data buffer.
    private func variable(_ raw: UnsafeRawBufferPointer, offsetSize: Int) throws -> [SparkValue] {
        let offsets = buffers[1], bytes = buffers[2]
        if rowCount == 0 { return [] }
        guard offsets.count >= (rowCount + 1) * offsetSize else {
            throw ArrowError.malformed("column '\(field.name)' has too few offsets")
        }
        let validity = buffers[0]
        func offset(_ i: Int) -> Int64 {
            offsetSize == 4 ? Int64(raw.loadUnaligned(fromByteOffset: offsets.lowerBound + 4 * i, as: Int32.self))
                : raw.loadUnaligned(fromByteOffset: offsets.lowerBound + 8 * i, as: Int64.self)
        }
        var out: [SparkValue] = []
        out.reserveCapacity(rowCount)
        let isText: Bool
        switch field.type {
        case .utf8, .largeUTF8: isText = true
        default: isText = false
        }
        for r in 0..<rowCount {
            if nullCount > 0, !validity.isEmpty, raw[validity.lowerBound + r >> 3] >> (r & 7) & 1 == 0 {
                out.append(.null)
                continue
            }
            let start = offset(r), end = offset(r + 1)
            guard start >= 0, start <= end, end <= Int64(bytes.count) else {
                throw ArrowError.malformed("column '\(field.name)' row \(r) has offsets \(start)..<\(end) outside its \(bytes.count) data bytes")
            }
            let slice = UnsafeRawBufferPointer(rebasing: raw[(bytes.lowerBound + Int(start))..<(bytes.lowerBound + Int(end))])
            if isText {
                guard let s = String(validating: slice, as: UTF8.self) else {
                    throw ArrowError.malformed("column '\(field.name)' row \(r) is not valid UTF-8")
                }
                out.append(.string(s))
            } else {
                out.append(.binary(Array(slice)))
            }
        }
        return out
    }
}

/// Decimal128 values as exact text.
enum DecimalText {
    /// The text of a 128-bit two's complement unscaled value at `scale`: `-0.005` for -5 at
    /// scale 3, `700` for 7 at scale -2.
    static func format(low: UInt64, high: UInt64, scale: Int) -> String {
        let bits = UInt128(high) << 64 | UInt128(low)
        let negative = high >> 63 == 1
        let magnitude = negative ? ~bits &+ 1 : bits
        var digits = String(magnitude)
        if scale > 0 {
            if digits.count <= scale { digits = String(repeating: "0", count: scale + 1 - digits.count) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        } else if scale < 0, magnitude != 0 {
            digits += String(repeating: "0", count: -scale)
        }
        return negative ? "-" + digits : digits
    }
}
#endif
