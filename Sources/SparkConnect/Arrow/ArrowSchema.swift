#if Spark
/// Why an Arrow IPC stream could not be read.
public enum ArrowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not follow the Arrow IPC format (truncated, offsets out of range).
    case malformed(String)
    /// Valid Arrow that this reader does not decode (a nested type, compression, big-endian).
    case unsupported(String)

    public var description: String {
        switch self {
        case .malformed(let m): return "malformed Arrow data: \(m)"
        case .unsupported(let m): return "unsupported Arrow data: \(m)"
        }
    }
}

/// The Arrow types this reader decodes (Schema.fbs's `Type` union, the members Spark sends for
/// flat results).
public enum ArrowType: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool
    /// Signed or unsigned integer of 8, 16, 32 or 64 bits.
    case int(bitWidth: Int, signed: Bool)
    /// 32 or 64 bits (16-bit floats are not decoded).
    case float(bitWidth: Int)
    case utf8
    case largeUTF8
    case binary
    case largeBinary
    case decimal(precision: Int, scale: Int, bitWidth: Int)
    /// Days since 1970-01-01 (32 bits), or milliseconds (64 bits).
    case date(milliseconds: Bool)
    /// Elapsed time since the epoch in `unit`; `timeZone` nil is a zone-less timestamp.
    case timestamp(unit: TimeUnit, timeZone: String?)

    public enum TimeUnit: Int16, Sendable { case second = 0, millisecond, microsecond, nanosecond }

    public var description: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int(let bits, let signed): return signed ? "int\(bits)" : "uint\(bits)"
        case .float(let bits): return "float\(bits)"
        case .utf8: return "utf8"
        case .largeUTF8: return "large_utf8"
        case .binary: return "binary"
        case .largeBinary: return "large_binary"
        case .decimal(let p, let s, let bits): return "decimal\(bits)(\(p), \(s))"
        case .date(let ms): return ms ? "date64" : "date32"
        case .timestamp(let unit, let tz): return "timestamp[\(unit)\(tz.map { ", \($0)" } ?? "")]"
        }
    }

    /// How many buffers the type has in a record batch (validity first).
    var bufferCount: Int {
        switch self {
        case .null: return 0
        case .utf8, .largeUTF8, .binary, .largeBinary: return 3
        default: return 2
        }
    }
}

/// One column of a result.
public struct ArrowField: Sendable, Equatable {
    public var name: String
    public var type: ArrowType
    public var nullable: Bool
}

extension ArrowType {
    /// Reads a `Field`'s type from its union tag and table.
    /// - Throws: ``ArrowError/unsupported(_:)`` for nested, dictionary-encoded and other types.
    static func read(field: FlatBufferTable, name: String) throws -> ArrowType {
        let tag = try field.uint8(2)
        let table = try field.table(3)
        if try field.table(4) != nil {
            throw ArrowError.unsupported("column '\(name)' is dictionary-encoded")
        }
        func required() throws -> FlatBufferTable {
            guard let table else { throw ArrowError.malformed("column '\(name)' has no type table") }
            return table
        }
        switch tag {
        case 1: return .null
        case 2:
            let t = try required()
            let bits = Int(try t.int32(0))
            guard [8, 16, 32, 64].contains(bits) else {
                throw ArrowError.malformed("column '\(name)' is an integer of \(bits) bits")
            }
            return .int(bitWidth: bits, signed: try t.bool(1))
        case 3:
            switch try required().int16(0) {
            case 1: return .float(bitWidth: 32)
            case 2: return .float(bitWidth: 64)
            default: throw ArrowError.unsupported("column '\(name)' is a 16-bit float")
            }
        case 4: return .binary
        case 5: return .utf8
        case 6: return .bool
        case 7:
            let t = try required()
            let bits = Int(try t.int32(2, default: 128))
            guard bits == 128 else {
                throw ArrowError.unsupported("column '\(name)' is a \(bits)-bit decimal (only 128 bits are read)")
            }
            let precision = Int(try t.int32(0)), scale = Int(try t.int32(1))
            // 128 bits hold 38 digits. A scale beyond that is legal Arrow that no engine sends,
            // and would make a decimal's text absurdly long: refused.
            guard (1...38).contains(precision) else {
                throw ArrowError.malformed("column '\(name)' is a 128-bit decimal of precision \(precision)")
            }
            guard (-38...38).contains(scale) else {
                throw ArrowError.unsupported("column '\(name)' is a decimal of scale \(scale)")
            }
            return .decimal(precision: precision, scale: scale, bitWidth: bits)
        case 8:
            // DateUnit: DAY = 0, MILLISECOND = 1 (the default).
            return .date(milliseconds: try table?.int16(0, default: 1) ?? 1 != 0)
        case 10:
            let t = try required()
            guard let unit = TimeUnit(rawValue: try t.int16(0)) else {
                throw ArrowError.malformed("column '\(name)' has an unknown time unit")
            }
            let zone = try t.string(1)
            return .timestamp(unit: unit, timeZone: zone?.isEmpty == false ? zone : nil)
        case 19: return .largeBinary
        case 20: return .largeUTF8
        default:
            // Schema.fbs's `Type` union, in order from 1; the ones not handled above.
            let names = [9: "time", 11: "interval", 12: "list", 13: "struct", 14: "union", 15: "fixed-size binary",
                         16: "fixed-size list", 17: "map", 18: "duration", 21: "large list",
                         22: "run-end encoded", 23: "binary view", 24: "string view"]
            let type = names[Int(tag)].map { "Arrow type '\($0)'" } ?? "Arrow type number \(tag)"
            throw ArrowError.unsupported("column '\(name)' has \(type), which is not read yet")
        }
    }
}
#endif
