import Auditor

/// Turns decoded Parquet values into cells: integers and reals as typed cells, every
/// logical type whose rules read text (DATE, TIMESTAMP, TIME, DECIMAL, UUID, BOOLEAN) as its
/// canonical text, so that `type: date`, `datetime` and `decimal` judge the exact value.
enum ParquetCells {
    /// The cell for value `j` of `v`, appending any text to `bytes`.
    @inline(__always)
    static func cell(_ kind: ParquetValueKind, _ v: ParquetValues, _ j: Int, _ bytes: inout [UInt8]) -> Cell {
        switch kind {
        case .integer: return .integer(v.ints[j])
        case .real:
            // NaN and the infinities as text, which no numeric type accepts (as PostgreSQL
            // and Spark read them): the same file read by Spark gives the same report.
            let d = v.doubles[j]
            if d.isFinite { return .real(d) }
            let start = bytes.count
            appendASCII(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity", &bytes)
            return .text(offset: start, length: bytes.count - start)
        case .string:
            let start = bytes.count
            let a = v.offsets[j], b = v.offsets[j + 1]
            v.data.withUnsafeBufferPointer { d in
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: d[a ..< b]))
            }
            return .text(offset: start, length: b - a)
        case .binary:
            let start = bytes.count
            let a = v.offsets[j], b = v.offsets[j + 1]
            v.data.withUnsafeBufferPointer { d in
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: d[a ..< b]))
            }
            return Cell(tag: .blob, payload: Int64(start), length: Int32(truncatingIfNeeded: b - a))
        case .boolean:
            let start = bytes.count
            if v.ints[j] != 0 { appendASCII("true", &bytes) } else { appendASCII("false", &bytes) }
            return .text(offset: start, length: bytes.count - start)
        case .uint32: return .integer(Int64(UInt32(truncatingIfNeeded: v.ints[j])))
        case .uint64:
            let x = v.ints[j]
            if x >= 0 { return .integer(x) }
            let start = bytes.count
            appendASCII(String(UInt64(bitPattern: x)), &bytes)
            return .text(offset: start, length: bytes.count - start)
        case .date:
            let start = bytes.count
            appendDate(v.ints[j], &bytes)
            return .text(offset: start, length: bytes.count - start)
        case .timestamp(let unit):
            let start = bytes.count
            let perSecond = unitsPerSecond(unit)
            let (seconds, fraction) = floorDivide(v.ints[j], perSecond)
            let (days, secondOfDay) = floorDivide(seconds, 86_400)
            appendDate(days, &bytes)
            bytes.append(UInt8(ascii: "T"))
            appendTime(secondOfDay, fraction: fraction, digits: fractionDigits(unit), &bytes)
            // A local timestamp (not adjusted to UTC) is its wall time read as UTC, as Spark
            // reads it (TIMESTAMP_NTZ) and the PostgreSQL reader reads a `timestamp`.
            bytes.append(UInt8(ascii: "Z"))
            return .text(offset: start, length: bytes.count - start)
        case .time(let unit):
            let start = bytes.count
            let (seconds, fraction) = floorDivide(v.ints[j], unitsPerSecond(unit))
            appendTime(seconds, fraction: fraction, digits: fractionDigits(unit), &bytes)
            return .text(offset: start, length: bytes.count - start)
        case .decimal(let scale):
            let start = bytes.count
            if v.offsets.isEmpty {
                let x = v.ints[j]
                appendDecimal(negative: x < 0, digits: Array(String(x.magnitude).utf8), scale: scale, &bytes)
            } else {
                let a = v.offsets[j], b = v.offsets[j + 1]
                let (negative, digits) = bigEndianDecimalDigits(v.data[a ..< b])
                appendDecimal(negative: negative, digits: digits, scale: scale, &bytes)
            }
            return .text(offset: start, length: bytes.count - start)
        case .uuid:
            let start = bytes.count
            let a = v.offsets[j]
            let hex = Array("0123456789abcdef".utf8)
            for k in 0 ..< 16 {
                if k == 4 || k == 6 || k == 8 || k == 10 { bytes.append(UInt8(ascii: "-")) }
                let byte = v.data[a + k]
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
            }
            return .text(offset: start, length: bytes.count - start)
        }
    }

    static func appendASCII(_ s: String, _ bytes: inout [UInt8]) { bytes.append(contentsOf: s.utf8) }

    static func unitsPerSecond(_ unit: Int16) -> Int64 { unit == 1 ? 1_000 : unit == 3 ? 1_000_000_000 : 1_000_000 }
    static func fractionDigits(_ unit: Int16) -> Int { unit == 1 ? 3 : unit == 3 ? 9 : 6 }

    /// Floor division with a non-negative remainder.
    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// `YYYY-MM-DD` for days since 1970-01-01 (proleptic Gregorian; H. Hinnant's civil_from_days).
    static func appendDate(_ days: Int64, _ bytes: inout [UInt8]) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        if y >= 0 && y <= 9999 { appendPadded(y, 4, &bytes) } else { appendASCII(String(y), &bytes) }
        bytes.append(UInt8(ascii: "-"))
        appendPadded(m, 2, &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(d, 2, &bytes)
    }

    /// `HH:MM:SS` plus `.fraction` (trailing zeros dropped) when the fraction is not zero.
    static func appendTime(_ seconds: Int64, fraction: Int64, digits: Int, _ bytes: inout [UInt8]) {
        appendPadded(seconds / 3600, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(seconds / 60 % 60, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(seconds % 60, 2, &bytes)
        guard fraction != 0 else { return }
        var f = fraction, n = digits
        while f % 10 == 0 { f /= 10; n -= 1 }
        bytes.append(UInt8(ascii: "."))
        appendPadded(f, n, &bytes)
    }

    static func appendPadded(_ value: Int64, _ width: Int, _ bytes: inout [UInt8]) {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var v = value, i = width - 1
        while v > 0 && i >= 0 {
            digits[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        }
        bytes.append(contentsOf: digits)
    }

    /// The canonical text of `digits` (magnitude, no leading zeros) × 10^-scale.
    static func appendDecimal(negative: Bool, digits: [UInt8], scale: Int, _ bytes: inout [UInt8]) {
        let isZero = digits.allSatisfy { $0 == UInt8(ascii: "0") }
        if negative && !isZero { bytes.append(UInt8(ascii: "-")) }
        if scale <= 0 {
            bytes.append(contentsOf: digits)
            if !isZero && scale < 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -scale)) }
            return
        }
        if digits.count <= scale {
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: scale - digits.count))
            bytes.append(contentsOf: digits)
        } else {
            bytes.append(contentsOf: digits[..<(digits.count - scale)])
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: digits[(digits.count - scale)...])
        }
    }

    /// The sign and decimal digits of a big-endian two's-complement integer of any length.
    static func bigEndianDecimalDigits(_ raw: ArraySlice<UInt8>) -> (Bool, [UInt8]) {
        guard let first = raw.first else { return (false, [UInt8(ascii: "0")]) }
        let negative = first & 0x80 != 0
        var magnitude = Array(raw)
        if negative {   // two's complement: invert and add one
            for i in magnitude.indices { magnitude[i] = ~magnitude[i] }
            var i = magnitude.count - 1
            while i >= 0 {
                magnitude[i] &+= 1
                if magnitude[i] != 0 { break }
                i -= 1
            }
        }
        // Repeated division by 10^9 of the big-endian byte string.
        var chunks = [UInt32]()
        var number = magnitude.drop { $0 == 0 }.map { $0 }
        while !number.isEmpty {
            var remainder: UInt64 = 0
            var quotient = [UInt8]()
            quotient.reserveCapacity(number.count)
            for byte in number {
                let acc = remainder << 8 | UInt64(byte)
                let q = acc / 1_000_000_000
                remainder = acc % 1_000_000_000
                if !(quotient.isEmpty && q == 0) { quotient.append(UInt8(q)) }
            }
            chunks.append(UInt32(remainder))
            number = quotient
        }
        guard let top = chunks.last else { return (false, [UInt8(ascii: "0")]) }
        var text = String(top)
        for c in chunks.dropLast().reversed() {
            let s = String(c)
            text += String(repeating: "0", count: 9 - s.count) + s
        }
        return (negative, Array(text.utf8))
    }
}
