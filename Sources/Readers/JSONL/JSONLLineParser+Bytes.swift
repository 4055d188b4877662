import Auditor

/// Byte helpers of ``JSONLLineParser``: UTF-8 checks and encoding, and bytes described for messages.
extension JSONLLineParser {
    /// The length of the valid UTF-8 sequence that starts at `i` (a non-ASCII lead byte), or 0
    /// when it is not valid (overlong forms, surrogates and code points above U+10FFFF included).
    @inline(__always)
    static func utf8Length(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        let b0 = p[i]
        @inline(__always) func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            i + k < end && p[i + k] >= low && p[i + k] <= high
        }
        switch b0 {
        case 0xC2 ... 0xDF: return cont(1) ? 2 : 0
        case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : 0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0
        case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
        case 0xF1 ... 0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }

    /// Appends a Unicode scalar (never a surrogate: the scanner refused lone ones) as UTF-8.
    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0 ..< 0x80:
            out.append(UInt8(scalar))
        case 0x80 ..< 0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18 & 0x07))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// A byte quoted for a message: `'x'`, or its name when it is not printable.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 9: return "a TAB"
        case 0x20: return "a space"
        case 0x21 ..< 0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "the byte \(hex(byte))"
        }
    }

    /// What a line holds instead of an object, from its first byte.
    static func describeValue(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return "a literal"
        case 0xEF: return "a byte order mark (one is allowed only at the start of the file)"
        default: return describe(byte)
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return "0x" + (text.count == 1 ? "0" + text : text)
    }

    static func hex4Text(_ unit: UInt32) -> String {
        let text = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
