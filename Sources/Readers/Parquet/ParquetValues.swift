/// The decoded values of one page or dictionary, by physical type: integers (BOOLEAN as 0/1,
/// INT32 widened), doubles (FLOAT widened), or byte strings (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY)
/// as one buffer with start offsets.
struct ParquetValues {
    var ints: [Int64] = []
    var doubles: [Double] = []
    var data: [UInt8] = []
    /// Byte strings: value i is `data[offsets[i] ..< offsets[i + 1]]`.
    var offsets: [Int] = []
    var count = 0

    typealias E = ParquetEncodings

    /// Decodes `count` values encoded with `encoding` (a value encoding, not a dictionary one).
    static func decode(_ src: UnsafeRawBufferPointer, encoding: Int32, leaf: ParquetLeaf,
                       count: Int) throws(ParquetFailure) -> ParquetValues {
        var v = ParquetValues()
        v.count = count
        let physical = leaf.physical
        switch (physical, encoding) {
        case (0, 0):   // BOOLEAN PLAIN: bit-packed, LSB first
            guard (count + 7) / 8 <= src.count else { throw ParquetFailure("the page holds fewer booleans than it claims") }
            v.ints = [Int64](unsafeUninitializedCapacity: count) { buffer, n in
                for i in 0 ..< count { buffer[i] = Int64((src[i >> 3] >> UInt8(i & 7)) & 1) }
                n = count
            }
        case (0, 3):   // BOOLEAN RLE: 4-byte length, then the hybrid with width 1
            guard src.count >= 4 else { throw ParquetFailure("an RLE boolean page is cut short") }
            let length = Int(src.loadUnaligned(as: UInt32.self))
            guard length <= src.count - 4 else { throw ParquetFailure("an RLE boolean run claims more bytes than the page has") }
            var pos = 4
            v.ints = try hybridArray(src, &pos, end: 4 + length, width: 1, count: count)
        case (1, 0), (2, 0):
            let size = physical == 1 ? 4 : 8
            guard count <= src.count / size else { throw ParquetFailure("the page holds fewer values than it claims") }
            v.ints = [Int64](unsafeUninitializedCapacity: count) { buffer, n in
                if size == 4 {
                    for i in 0 ..< count { buffer[i] = Int64(src.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)) }
                } else {
                    for i in 0 ..< count { buffer[i] = src.loadUnaligned(fromByteOffset: 8 * i, as: Int64.self) }
                }
                n = count
            }
        case (1, 5), (2, 5):
            var pos = 0
            v.ints = try E.deltaBinaryPacked(src, &pos, expected: count)
            if physical == 1 { for i in 0 ..< v.ints.count { v.ints[i] = Int64(Int32(truncatingIfNeeded: v.ints[i])) } }
        case (4, 0), (5, 0):
            let size = physical == 4 ? 4 : 8
            guard count <= src.count / size else { throw ParquetFailure("the page holds fewer values than it claims") }
            v.doubles = [Double](unsafeUninitializedCapacity: count) { buffer, n in
                if size == 4 {
                    for i in 0 ..< count { buffer[i] = Double(src.loadUnaligned(fromByteOffset: 4 * i, as: Float.self)) }
                } else {
                    for i in 0 ..< count { buffer[i] = src.loadUnaligned(fromByteOffset: 8 * i, as: Double.self) }
                }
                n = count
            }
        case (1, 9), (2, 9), (4, 9), (5, 9), (7, 9):
            let size = physical == 1 || physical == 4 ? 4 : physical == 7 ? leaf.typeLength : 8
            guard size > 0, count <= src.count / size else { throw ParquetFailure("the page holds fewer values than it claims") }
            var raw = [UInt8](repeating: 0, count: count * size)
            for b in 0 ..< size {
                let stream = b * count
                for i in 0 ..< count { raw[i * size + b] = src[stream + i] }
            }
            raw.withUnsafeBytes { r in
                switch physical {
                case 1: v.ints = (0 ..< count).map { Int64(r.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) }
                case 2: v.ints = (0 ..< count).map { r.loadUnaligned(fromByteOffset: 8 * $0, as: Int64.self) }
                case 4: v.doubles = (0 ..< count).map { Double(r.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self)) }
                case 5: v.doubles = (0 ..< count).map { r.loadUnaligned(fromByteOffset: 8 * $0, as: Double.self) }
                default: break
                }
            }
            if physical == 7 {
                v.offsets = (0 ... count).map { $0 * size }
                v.data = raw
            }
        case (6, 0):
            // Each value takes at least its 4-byte length: a count that lies reserves nothing more.
            guard count <= src.count / 4 else { throw ParquetFailure("the page holds fewer byte arrays than it claims") }
            v.offsets.reserveCapacity(count + 1)
            v.offsets.append(0)
            v.data.reserveCapacity(src.count)
            var pos = 0
            for _ in 0 ..< count {
                guard pos + 4 <= src.count else { throw ParquetFailure("the page holds fewer byte arrays than it claims") }
                let length = Int(src.loadUnaligned(fromByteOffset: pos, as: UInt32.self))
                pos += 4
                guard length <= src.count - pos else {
                    throw ParquetFailure("a byte array claims \(length) bytes, more than the page has left")
                }
                v.data.append(contentsOf: UnsafeRawBufferPointer(rebasing: src[pos ..< pos + length]))
                pos += length
                v.offsets.append(v.data.count)
            }
        case (7, 0):
            let size = leaf.typeLength
            guard size > 0, count <= src.count / size else { throw ParquetFailure("the page holds fewer values than it claims") }
            v.data = Array(UnsafeRawBufferPointer(rebasing: src[0 ..< count * size]))
            v.offsets = (0 ... count).map { $0 * size }
        case (6, 6):
            var pos = 0
            let lengths = try E.deltaBinaryPacked(src, &pos, expected: count)
            let total = try E.checkedLengths(lengths, available: src.count - pos)
            v.data = Array(UnsafeRawBufferPointer(rebasing: src[pos ..< pos + total]))
            v.offsets.reserveCapacity(count + 1)
            v.offsets.append(0)
            var at = 0
            for l in lengths {
                at += Int(l)
                v.offsets.append(at)
            }
        case (6, 7), (7, 7):
            var pos = 0
            let prefixes = try E.deltaBinaryPacked(src, &pos, expected: count)
            let suffixes = try E.deltaBinaryPacked(src, &pos, expected: count)
            let total = try E.checkedLengths(suffixes, available: src.count - pos)
            v.offsets.reserveCapacity(count + 1)
            v.offsets.append(0)
            var previous = 0   // start of the previous value in v.data
            var suffixAt = pos
            for i in 0 ..< count {
                let prefix = prefixes[i]
                let previousLength = i == 0 ? 0 : v.offsets[i] - previous
                guard prefix >= 0, prefix <= Int64(previousLength) else {
                    throw ParquetFailure("a DELTA_BYTE_ARRAY prefix of \(prefix) is longer than the previous value")
                }
                let start = v.data.count
                if prefix > 0 { v.data.append(contentsOf: v.data[previous ..< previous + Int(prefix)]) }
                let length = Int(suffixes[i])
                v.data.append(contentsOf: UnsafeRawBufferPointer(rebasing: src[suffixAt ..< suffixAt + length]))
                suffixAt += length
                previous = start
                v.offsets.append(v.data.count)
            }
            _ = total
            if physical == 7 {
                for i in 0 ..< count where v.offsets[i + 1] - v.offsets[i] != leaf.typeLength {
                    throw ParquetFailure("a FIXED_LEN_BYTE_ARRAY value is not \(leaf.typeLength) bytes long")
                }
            }
        default:
            throw ParquetFailure("encoding \(encodingName(encoding)) is not valid for \(physicalName(physical)) values")
        }
        return v
    }

    static func hybridArray(_ src: UnsafeRawBufferPointer, _ pos: inout Int, end: Int, width: Int,
                            count: Int) throws(ParquetFailure) -> [Int64] {
        var out = [Int64](repeating: 0, count: count)
        try out.withUnsafeMutableBufferPointer { (b: inout UnsafeMutableBufferPointer<Int64>) throws(ParquetFailure) in
            guard let base = b.baseAddress else { return }
            try E.hybrid(src, &pos, end: end, width: width, count: count, into: base)
        }
        return out
    }

    static func encodingName(_ e: Int32) -> String {
        switch e {
        case 0: return "PLAIN"
        case 2: return "PLAIN_DICTIONARY"
        case 3: return "RLE"
        case 4: return "BIT_PACKED"
        case 5: return "DELTA_BINARY_PACKED"
        case 6: return "DELTA_LENGTH_BYTE_ARRAY"
        case 7: return "DELTA_BYTE_ARRAY"
        case 8: return "RLE_DICTIONARY"
        case 9: return "BYTE_STREAM_SPLIT"
        default: return "#\(e)"
        }
    }

    static func physicalName(_ p: Int32) -> String {
        let names = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"]
        return p >= 0 && Int(p) < names.count ? names[Int(p)] : "physical type \(p)"
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body with typed throws (the standard one rethrows `any Error`).
    func withParquetBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ParquetFailure) -> R) throws(ParquetFailure) -> R {
        let result: Result<R, ParquetFailure> = withUnsafeBytes { p in
            do throws(ParquetFailure) { return .success(try body(p)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
