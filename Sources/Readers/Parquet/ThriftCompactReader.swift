import Auditor

/// A reader of the Thrift compact protocol over a byte buffer: just what Parquet's footer and
/// page headers need (structs, lists, integers, binary, booleans), with every length and
/// nesting depth checked, so that a hostile footer ends in an error, never a trap.
struct ThriftCompactReader {
    /// Compact-protocol type ids.
    enum Kind: UInt8 {
        case stop = 0, boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7
        case binary = 8, list = 9, set = 10, map = 11, structure = 12
    }

    /// Why decoding stopped.
    struct Failure: Error {
        var message: String
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    private var depth = 0
    private static let maxDepth = 64

    init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    mutating func byte() throws(Failure) -> UInt8 {
        guard position < bytes.count else { throw Failure(message: "the Thrift structure ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            guard shift < 64 else { throw Failure(message: "a Thrift varint is longer than 10 bytes") }
        }
    }

    mutating func zigzag() throws(Failure) -> Int64 {
        let v = try varint()
        return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }

    mutating func i32() throws(Failure) -> Int32 {
        let v = try zigzag()
        guard let r = Int32(exactly: v) else { throw Failure(message: "a Thrift i32 is out of range (\(v))") }
        return r
    }

    mutating func i64() throws(Failure) -> Int64 { try zigzag() }

    mutating func binary() throws(Failure) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(bytes.count - position) else {
            throw Failure(message: "a Thrift string claims \(length) bytes, more than remain")
        }
        let start = position
        position += Int(length)
        return UnsafeRawBufferPointer(rebasing: bytes[start ..< position])
    }

    mutating func string() throws(Failure) -> String {
        String(decoding: try binary(), as: UTF8.self)
    }

    /// Reads a field header; returns nil at the struct's stop byte.
    mutating func fieldHeader(last: inout Int16) throws(Failure) -> (id: Int16, kind: Kind)? {
        let b = try byte()
        guard b != 0 else { return nil }
        guard let kind = Kind(rawValue: b & 0x0F) else { throw Failure(message: "unknown Thrift type \(b & 0x0F)") }
        let delta = Int16(b >> 4)
        if delta == 0 {
            let v = try zigzag()
            guard let id = Int16(exactly: v) else { throw Failure(message: "a Thrift field id is out of range") }
            last = id
        } else {
            last &+= delta
        }
        return (last, kind)
    }

    /// Reads a list header: element kind and count (checked against the bytes left: every
    /// element takes at least one byte, booleans aside).
    mutating func listHeader() throws(Failure) -> (kind: Kind, count: Int) {
        let b = try byte()
        guard let kind = Kind(rawValue: b & 0x0F) else { throw Failure(message: "unknown Thrift list element type") }
        var count = UInt64(b >> 4)
        if count == 15 { count = try varint() }
        guard count <= UInt64(bytes.count - position) else {
            throw Failure(message: "a Thrift list claims \(count) elements, more than the bytes left")
        }
        return (kind, Int(count))
    }

    /// A boolean field's value (in a struct the value is in the type nibble).
    func bool(_ kind: Kind) -> Bool { kind == .boolTrue }

    /// Enters a nested struct (depth-checked); pair with ``leave()``.
    mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maxDepth else { throw Failure(message: "Thrift structures nested deeper than \(Self.maxDepth)") }
    }

    mutating func leave() { depth -= 1 }

    /// Skips a value of the given kind.
    mutating func skip(_ kind: Kind) throws(Failure) {
        switch kind {
        case .stop: throw Failure(message: "unexpected Thrift stop")
        case .boolTrue, .boolFalse: return
        case .byte: _ = try byte()
        case .i16, .i32, .i64: _ = try varint()
        case .double:
            guard bytes.count - position >= 8 else { throw Failure(message: "the Thrift structure ends early") }
            position += 8
        case .binary: _ = try binary()
        case .list, .set:
            let (element, count) = try listHeader()
            try enter()
            for _ in 0 ..< count {
                if element == .boolTrue || element == .boolFalse { _ = try byte() } else { try skip(element) }
            }
            leave()
        case .map:
            let count = try varint()
            guard count <= UInt64(bytes.count - position) else { throw Failure(message: "a Thrift map claims too many entries") }
            if count == 0 { return }
            let kinds = try byte()
            guard let k = Kind(rawValue: kinds >> 4), let v = Kind(rawValue: kinds & 0x0F) else {
                throw Failure(message: "unknown Thrift map types")
            }
            try enter()
            for _ in 0 ..< count {
                if k == .boolTrue || k == .boolFalse { _ = try byte() } else { try skip(k) }
                if v == .boolTrue || v == .boolFalse { _ = try byte() } else { try skip(v) }
            }
            leave()
        case .structure:
            try enter()
            var last: Int16 = 0
            while let (_, k) = try fieldHeader(last: &last) { try skip(k) }
            leave()
        }
    }

    /// Reads a struct: calls `field` for each field header; `field` must consume or skip the value.
    mutating func readStruct(_ field: (inout ThriftCompactReader, Int16, Kind) throws(Failure) -> Void) throws(Failure) {
        try enter()
        var last: Int16 = 0
        while let (id, kind) = try fieldHeader(last: &last) { try field(&self, id, kind) }
        leave()
    }

    /// Reads a list of structs or values with `element`.
    mutating func readList<T>(_ element: (inout ThriftCompactReader, Kind) throws(Failure) -> T) throws(Failure) -> [T] {
        let (kind, count) = try listHeader()
        var result = [T]()
        result.reserveCapacity(min(count, 4096))
        for _ in 0 ..< count { result.append(try element(&self, kind)) }
        return result
    }
}
