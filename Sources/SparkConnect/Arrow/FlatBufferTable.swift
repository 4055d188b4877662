#if Spark
/// A read-only view of one table in a FlatBuffers buffer, enough to read Arrow's IPC metadata
/// (`Message.fbs`, `Schema.fbs`): scalars, strings, sub-tables, unions and vectors of tables or
/// structs. Every read is bounds-checked, because the bytes come from the network: a malformed
/// buffer throws ``ArrowError``, it never traps.
///
/// Layout (flatbuffers.dev, "Internals"): a table starts with a signed 32-bit offset back to its
/// vtable; the vtable holds its own size, the table's size, then one 16-bit offset per field
/// (0 or beyond the vtable: the field is absent and takes its default). Reference fields hold an
/// unsigned 32-bit offset relative to where it is stored. All integers are little-endian.
struct FlatBufferTable {
    /// The whole FlatBuffers buffer (one Arrow message's metadata).
    let bytes: [UInt8]
    /// Where this table starts in `bytes`.
    let position: Int
    private let vtable: Int
    private let vtableSize: Int

    /// The root table of a buffer.
    /// - Throws: ``ArrowError`` when the buffer is too short or its offsets point outside it.
    init(root bytes: [UInt8]) throws {
        let root = try Self.readUInt32(bytes, at: 0)
        try self.init(bytes, at: Int(root))
    }

    private init(_ bytes: [UInt8], at position: Int) throws {
        self.bytes = bytes
        self.position = position
        let back = Int(try Self.readInt32(bytes, at: position))
        let vtable = position - back
        let size = Int(try Self.readUInt16(bytes, at: vtable))
        guard size >= 4, vtable + size <= bytes.count else {
            throw ArrowError.malformed("a FlatBuffers vtable at byte \(vtable) has size \(size)")
        }
        self.vtable = vtable
        self.vtableSize = size
    }

    /// Where field `id` is stored, or nil when it is absent (it then has its default value).
    private func fieldPosition(_ id: Int) throws -> Int? {
        let entry = 4 + 2 * id
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(try Self.readUInt16(bytes, at: vtable + entry))
        return offset == 0 ? nil : position + offset
    }

    func int8(_ id: Int, default value: Int8 = 0) throws -> Int8 {
        guard let p = try fieldPosition(id) else { return value }
        try Self.check(bytes, p, 1)
        return Int8(bitPattern: bytes[p])
    }

    func uint8(_ id: Int, default value: UInt8 = 0) throws -> UInt8 {
        guard let p = try fieldPosition(id) else { return value }
        try Self.check(bytes, p, 1)
        return bytes[p]
    }

    func bool(_ id: Int, default value: Bool = false) throws -> Bool {
        try uint8(id, default: value ? 1 : 0) != 0
    }

    func int16(_ id: Int, default value: Int16 = 0) throws -> Int16 {
        guard let p = try fieldPosition(id) else { return value }
        return Int16(bitPattern: try Self.readUInt16(bytes, at: p))
    }

    func int32(_ id: Int, default value: Int32 = 0) throws -> Int32 {
        guard let p = try fieldPosition(id) else { return value }
        return try Self.readInt32(bytes, at: p)
    }

    func int64(_ id: Int, default value: Int64 = 0) throws -> Int64 {
        guard let p = try fieldPosition(id) else { return value }
        return try Self.readInt64(bytes, at: p)
    }

    /// The target of the reference stored in field `id`, or nil when the field is absent.
    private func reference(_ id: Int) throws -> Int? {
        guard let p = try fieldPosition(id) else { return nil }
        return p + Int(try Self.readUInt32(bytes, at: p))
    }

    /// A sub-table (or the value of a union, whose type is the field just before it).
    func table(_ id: Int) throws -> FlatBufferTable? {
        guard let target = try reference(id) else { return nil }
        return try FlatBufferTable(bytes, at: target)
    }

    /// A UTF-8 string field; invalid UTF-8 is repaired (it is only ever a name).
    func string(_ id: Int) throws -> String? {
        guard let target = try reference(id) else { return nil }
        let count = Int(try Self.readUInt32(bytes, at: target))
        try Self.check(bytes, target + 4, count)
        return String(decoding: bytes[(target + 4)..<(target + 4 + count)], as: UTF8.self)
    }

    /// The start and element count of a vector field; (0, 0) when the field is absent.
    private func vector(_ id: Int, elementSize: Int) throws -> (start: Int, count: Int) {
        guard let target = try reference(id) else { return (0, 0) }
        let count = Int(try Self.readUInt32(bytes, at: target))
        try Self.check(bytes, target + 4, count * elementSize)
        return (target + 4, count)
    }

    /// A vector of tables.
    func tables(_ id: Int) throws -> [FlatBufferTable] {
        let (start, count) = try vector(id, elementSize: 4)
        return try (0..<count).map { i in
            let p = start + 4 * i
            return try FlatBufferTable(bytes, at: p + Int(try Self.readUInt32(bytes, at: p)))
        }
    }

    /// A vector of structs made of two 64-bit integers (Arrow's `FieldNode` and `Buffer`).
    func int64Pairs(_ id: Int) throws -> [(Int64, Int64)] {
        let (start, count) = try vector(id, elementSize: 16)
        return try (0..<count).map { i in
            let p = start + 16 * i
            return (try Self.readInt64(bytes, at: p), try Self.readInt64(bytes, at: p + 8))
        }
    }

    // MARK: - Little-endian reads with bounds checks

    static func check(_ bytes: [UInt8], _ position: Int, _ count: Int) throws {
        guard position >= 0, count >= 0, position <= bytes.count - count else {
            throw ArrowError.malformed("a FlatBuffers offset points outside its \(bytes.count)-byte buffer")
        }
    }

    static func readUInt16(_ bytes: [UInt8], at p: Int) throws -> UInt16 {
        try check(bytes, p, 2)
        return UInt16(bytes[p]) | UInt16(bytes[p + 1]) << 8
    }

    static func readUInt32(_ bytes: [UInt8], at p: Int) throws -> UInt32 {
        try check(bytes, p, 4)
        var v: UInt32 = 0
        for i in (0..<4).reversed() { v = v << 8 | UInt32(bytes[p + i]) }
        return v
    }

    static func readInt32(_ bytes: [UInt8], at p: Int) throws -> Int32 {
        Int32(bitPattern: try readUInt32(bytes, at: p))
    }

    static func readInt64(_ bytes: [UInt8], at p: Int) throws -> Int64 {
        try check(bytes, p, 8)
        var v: UInt64 = 0
        for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[p + i]) }
        return Int64(bitPattern: v)
    }
}
#endif
