/// The keys of one key shape for the rows of a chunk that have a complete, valid key.
/// A row's key is an `Int64` (`starts[k] < 0`) or encoded bytes `bytes[starts[k]..<ends[k]]`.
package struct KeyColumn: Sendable {
    public var rows: [Int32] = []
    public var ints: [Int64] = []
    public var starts: [Int32] = []
    public var ends: [Int32] = []
    public var bytes: [UInt8] = []

    /// Calls `body` with each row and its key.
    func forEach(_ body: (Int32, KeyValue) -> Void) {
        bytes.withUnsafeBufferPointer { b in
            for k in 0 ..< rows.count {
                if starts[k] < 0 {
                    body(rows[k], .integer(ints[k]))
                } else {
                    body(rows[k], .bytes(UnsafeBufferPointer(rebasing: b[Int(starts[k]) ..< Int(ends[k])])))
                }
            }
        }
    }
}

enum KeyValue {
    case integer(Int64)
    case bytes(UnsafeBufferPointer<UInt8>)
}

extension KeyTable {
    func insert(_ key: KeyValue, location: Int64) -> (index: Int, first: Int64?) {
        switch key {
        case .integer(let v): return insert(v, location: location)
        case .bytes(let b): return insert(b, location: location)
        }
    }

    func index(of key: KeyValue) -> Int? {
        switch key {
        case .integer(let v): return index(of: v)
        case .bytes(let b): return index(of: b)
        }
    }
}

extension UniqueKeys {
    mutating func insert(_ key: KeyValue, location: Int64) -> Int64? {
        switch key {
        case .integer(let v): return insert(v, location: location)
        case .bytes(let b): return insert(b, location: location)
        }
    }
}

/// Typed values of one attribute in a chunk, as ``ChunkEvaluator/classify`` left them
/// (see ``ChunkColumns``, which computes each once per chunk).
struct TypedColumn: Sendable {
    /// The attribute's declared type.
    var type: ValueType
    var state: [UInt8]
    var numbers: [Double]
    var ints: [Int64]
    var cells: [Cell]
}

/// Encodes keys canonically by declared type, so equal values give equal keys whatever the
/// source format (`7` in a CSV and INTEGER 7 in SQLite).
enum KeyEncoder {
    static func column(_ shape: KeyShape, _ typed: [Int: TypedColumn], _ chunk: RecordChunk,
                       _ bytes: UnsafeBufferPointer<UInt8>) -> KeyColumn {
        var out = KeyColumn()
        let components = shape.attributes.compactMap { typed[$0] }
        guard components.count == shape.attributes.count, let first = components.first else { return out }
        let n = first.state.count
        if shape.isSingleInteger, let integers = singleIntegers(first, n) { return integers }
        rows: for r in 0 ..< n {
            for c in components where c.state[r] != TypedParse.Classified.valid { continue rows }
            out.rows.append(Int32(r))
            if shape.isSingleInteger, abs(first.ints[r]) != Int64.max {
                out.ints.append(first.ints[r])
                out.starts.append(-1)
                out.ends.append(-1)
                continue
            }
            out.ints.append(0)
            out.starts.append(Int32(out.bytes.count))
            for (c, type) in zip(components, shape.types) { encode(c, r, type, chunk, bytes, &out.bytes) }
            out.ends.append(Int32(out.bytes.count))
        }
        return out
    }

    /// The keys of a single integer attribute, one tight loop per array (no per-row appends),
    /// or `nil` when a valid value saturated (beyond 64 bits: encoded as text by the general
    /// loop). Equal to what the general loop builds.
    private static func singleIntegers(_ column: TypedColumn, _ n: Int) -> KeyColumn? {
        let valid = TypedParse.Classified.valid
        guard column.state.count == n, column.ints.count >= n else { return nil }
        var out = KeyColumn()
        out.rows = column.state.withUnsafeBufferPointer { state in
            [Int32](unsafeUninitializedCapacity: n) { buffer, count in
                var k = 0
                for r in 0 ..< n where state[r] == valid {
                    buffer[k] = Int32(truncatingIfNeeded: r)
                    k &+= 1
                }
                count = k
            }
        }
        let m = out.rows.count
        var saturated = false
        out.ints = column.ints.withUnsafeBufferPointer { ints in
            out.rows.withUnsafeBufferPointer { rows in
                [Int64](unsafeUninitializedCapacity: m) { buffer, count in
                    for k in 0 ..< m {
                        let v = ints[Int(rows[k])]
                        if v == Int64.max || v == -Int64.max { saturated = true }
                        buffer[k] = v
                    }
                    count = m
                }
            }
        }
        if saturated { return nil }
        out.starts = [Int32](repeating: -1, count: m)
        out.ends = out.starts
        return out
    }

    private static func encode(_ c: TypedColumn, _ r: Int, _ type: ValueType, _ chunk: RecordChunk,
                               _ bytes: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) {
        func int64(_ tag: UInt8, _ v: Int64) {
            out.append(tag)
            withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
        }
        func text(_ tag: UInt8, _ t: UnsafeBufferPointer<UInt8>) {
            out.append(tag)
            withUnsafeBytes(of: UInt32(t.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: t)
        }
        switch type {
        case .string:
            TextAccess.withText(c.cells[r], chunk, bytes) { text(0x73, $0) }
        case .integer:
            if abs(c.ints[r]) != Int64.max {
                int64(0x69, c.ints[r])
            } else {
                // Beyond 64 bits: compare the digits without leading zeros.
                TextAccess.withText(c.cells[r], chunk, bytes) { t in
                    var digits = Array(t)
                    let negative = digits.first == UInt8(ascii: "-")
                    if negative { digits.removeFirst() }
                    while digits.count > 1, digits.first == UInt8(ascii: "0") { digits.removeFirst() }
                    if negative { digits.insert(UInt8(ascii: "-"), at: 0) }
                    digits.withUnsafeBufferPointer { text(0x49, $0) }
                }
            }
        case .decimal:
            // Numerically equal values are equal keys (`1.0` and `1.00`). A value with at most
            // 15 significant digits is keyed by its correctly rounded double (no other value
            // has it); a longer one by its exact digits.
            var v = c.numbers[r]
            let cell = c.cells[r]
            if v.isNaN || cell.tag == .real {
                guard case .number(let exact)? = ChunkEvaluator.exactValue(.decimal, cell, bytes) else {
                    int64(0x64, Int64(bitPattern: v.bitPattern))    // ±infinity
                    return
                }
                guard let short = exact.shortDouble else {
                    out.append(0x44)
                    exact.appendKey(to: &out)
                    return
                }
                v = short
            }
            if v == 0 { v = 0 }
            int64(0x64, Int64(bitPattern: v.bitPattern))
        case .date:
            int64(0x74, Int64(c.numbers[r]))
        case .datetime:
            // The whole second, then the fraction's digits when it has any (`ints` is 1).
            guard c.ints[r] != 0, let instant = ExactInstant(text: TypedParse.text(c.cells[r], bytes)) else {
                int64(0x74, Int64(c.numbers[r]))
                return
            }
            int64(0x75, instant.seconds)
            withUnsafeBytes(of: UInt32(instant.fraction.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: instant.fraction)
        case .boolean:
            let cell = c.cells[r]
            let value: Bool
            if cell.tag == .integer {
                value = cell.integerValue == 1
            } else {
                value = TextAccess.withText(cell, chunk, bytes) { ByteParsers.boolean($0) } ?? false
            }
            out.append(0x62)
            out.append(value ? 1 : 0)
        }
    }
}
