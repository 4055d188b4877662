/// Parquet's value and level encodings over raw page bytes: bit packing, the RLE/bit-packed
/// hybrid, DELTA_BINARY_PACKED and the byte-array delta forms, BYTE_STREAM_SPLIT and PLAIN.
/// Every read is bounds-checked against the page; a lying length throws ``ParquetFailure``.
enum ParquetEncodings {
    /// Reads an unsigned LEB128 varint at `pos`.
    static func varint(_ src: UnsafeRawBufferPointer, _ pos: inout Int) throws(ParquetFailure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard pos < src.count else { throw ParquetFailure("a varint runs past the end of the page") }
            let b = src[pos]
            pos += 1
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            guard shift < 64 else { throw ParquetFailure("a varint is longer than 10 bytes") }
        }
    }

    static func zigzag(_ src: UnsafeRawBufferPointer, _ pos: inout Int) throws(ParquetFailure) -> Int64 {
        let v = try varint(src, &pos)
        return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }

    /// Unpacks `count` values of `width` bits (LSB first) starting at byte `start`; the caller
    /// has checked that `start + ceil(count × width / 8) <= src.count`.
    @inline(__always)
    static func unpack<T: FixedWidthInteger>(_ src: UnsafeRawBufferPointer, _ start: Int, _ count: Int, _ width: Int,
                                             _ out: UnsafeMutablePointer<T>) {
        if width == 0 {
            for i in 0 ..< count { out[i] = 0 }
            return
        }
        let mask: UInt64 = width >= 64 ? ~0 : (1 << UInt64(width)) &- 1
        let end = src.count
        var bit = 0
        for i in 0 ..< count {
            let byte = start &+ (bit >> 3)
            let shift = bit & 7
            var v: UInt64
            if byte &+ 8 <= end && shift &+ width <= 64 {
                v = src.loadUnaligned(fromByteOffset: byte, as: UInt64.self) >> UInt64(shift)
            } else {
                v = 0
                var got = 0, b = byte, sh = shift
                while got < width && b < end {
                    let take = min(8 - sh, width - got)
                    v |= UInt64((src[b] >> UInt8(sh)) & UInt8(truncatingIfNeeded: (1 << take) - 1)) << UInt64(got)
                    got += take
                    sh = 0
                    b += 1
                }
            }
            out[i] = T(truncatingIfNeeded: v & mask)
            bit &+= width
        }
    }

    /// Decodes `count` values of the RLE/bit-packed hybrid in `src[pos..<end]`.
    static func hybrid<T: FixedWidthInteger>(_ src: UnsafeRawBufferPointer, _ pos: inout Int, end: Int, width: Int,
                                             count: Int, into out: UnsafeMutablePointer<T>) throws(ParquetFailure) {
        guard width <= 32 else { throw ParquetFailure("a bit width of \(width) in RLE data (at most 32)") }
        let region = UnsafeRawBufferPointer(rebasing: src[..<end])
        var produced = 0
        let valueBytes = (width + 7) / 8
        while produced < count {
            guard pos < end else { throw ParquetFailure("RLE data ends after \(produced) of \(count) values") }
            let header = try varint(region, &pos)
            if header & 1 == 1 {
                let groups = header >> 1
                guard groups <= UInt64(end) else { throw ParquetFailure("an RLE bit-packed run is longer than its page") }
                let n = Int(groups) * 8
                let take = min(n, count - produced)
                let needed = (take * width + 7) / 8
                guard pos + needed <= end else { throw ParquetFailure("an RLE bit-packed run is cut short") }
                unpack(region, pos, take, width, out + produced)
                produced += take
                pos = min(end, pos + Int(groups) * width)
            } else {
                let run = header >> 1
                guard pos + valueBytes <= end else { throw ParquetFailure("an RLE run's value is cut short") }
                var v: UInt64 = 0
                for k in 0 ..< valueBytes { v |= UInt64(region[pos + k]) << UInt64(8 * k) }
                pos += valueBytes
                let take = Int(min(run, UInt64(count - produced)))
                let value = T(truncatingIfNeeded: v)
                for k in 0 ..< take { out[produced + k] = value }
                produced += take
            }
        }
    }

    /// The number of bits needed for values up to `max`.
    static func bitWidth(_ max: Int) -> Int { max == 0 ? 0 : Int.bitWidth - max.leadingZeroBitCount }

    /// Decodes a DELTA_BINARY_PACKED stream of exactly `expected` values.
    /// - Returns: The values (wrapping 64-bit arithmetic; truncate for INT32).
    static func deltaBinaryPacked(_ src: UnsafeRawBufferPointer, _ pos: inout Int, expected: Int) throws(ParquetFailure) -> [Int64] {
        let blockSize = try varint(src, &pos)
        let miniblocks = try varint(src, &pos)
        let total = try varint(src, &pos)
        var previous = try zigzag(src, &pos)
        guard blockSize > 0, blockSize % 128 == 0, blockSize <= 1 << 20, miniblocks > 0, blockSize % miniblocks == 0,
              (blockSize / miniblocks) % 32 == 0 else {
            throw ParquetFailure("a DELTA_BINARY_PACKED header is invalid (block \(blockSize), miniblocks \(miniblocks))")
        }
        guard total == UInt64(expected) else {
            throw ParquetFailure("a DELTA_BINARY_PACKED stream holds \(total) values where the page has \(expected)")
        }
        // Every block of at most 2^20 values takes at least 2 bytes: a count that lies allocates nothing.
        guard expected <= 1 + (src.count - pos) * Int(blockSize) / 2 else {
            throw ParquetFailure("a DELTA_BINARY_PACKED stream claims more values than its bytes can hold")
        }
        var out = [Int64](repeating: 0, count: expected)
        guard expected > 0 else { return out }
        out[0] = previous
        var filled = 1
        let perMini = Int(blockSize / miniblocks)
        let m = Int(miniblocks)
        var deltas = [UInt64](repeating: 0, count: perMini)
        while filled < expected {
            let minDelta = try zigzag(src, &pos)
            guard pos + m <= src.count else { throw ParquetFailure("a DELTA_BINARY_PACKED block is cut short") }
            let widthsAt = pos
            pos += m
            for i in 0 ..< m where filled < expected {
                let width = Int(src[widthsAt + i])
                guard width <= 64 else { throw ParquetFailure("a DELTA_BINARY_PACKED bit width of \(width)") }
                let take = min(perMini, expected - filled)
                let needed = (take * width + 7) / 8
                guard pos + needed <= src.count else { throw ParquetFailure("a DELTA_BINARY_PACKED miniblock is cut short") }
                deltas.withUnsafeMutableBufferPointer { d in
                    // Non-empty: perMini >= 32.
                    if let base = d.baseAddress { unpack(src, pos, take, width, base) }
                }
                for k in 0 ..< take {
                    previous = previous &+ minDelta &+ Int64(bitPattern: deltas[k])
                    out[filled + k] = previous
                }
                filled += take
                pos = min(src.count, pos + perMini * width / 8)
            }
        }
        return out
    }

    /// Lengths, each checked to be 0...remaining bytes.
    static func checkedLengths(_ lengths: [Int64], available: Int) throws(ParquetFailure) -> Int {
        var sum = 0
        for l in lengths {
            guard l >= 0, l <= Int64(available - sum) else {
                throw ParquetFailure("a byte array length of \(l) runs past the end of the page")
            }
            sum += Int(l)
        }
        return sum
    }
}
