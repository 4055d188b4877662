/// The raw Snappy block format (google/snappy's `format_description.txt`), decoded in Swift so
/// that Parquet's SNAPPY pages need no C library: Debian's libsnappy is not on a fresh machine.
///
/// A block is the uncompressed length as a little-endian base-128 varint, then elements, each
/// opened by a tag byte whose two low bits say what follows:
/// - `00` a literal: `tag >> 2` is length − 1 when below 60; 60...63 mean that 1...4 little-endian
///   bytes follow with length − 1;
/// - `01` a copy with a 1-byte offset: length 4 + ((tag >> 2) & 7), offset ((tag >> 5) << 8) | next byte;
/// - `10` a copy with a 2-byte offset: length 1 + (tag >> 2), offset in the next 2 bytes (LE);
/// - `11` a copy with a 4-byte offset: length 1 + (tag >> 2), offset in the next 4 bytes (LE).
/// A copy repeats bytes already written `offset` back; it may overlap what it writes (offset <
/// length repeats a pattern). Every length and offset is checked against the input and the
/// declared output: a hostile block throws, never reads or writes out of bounds.
enum Snappy {
    /// Decodes one block that must expand to exactly `size` bytes.
    /// - Parameters:
    ///   - src: The compressed block.
    ///   - size: The uncompressed size the page header declares.
    /// - Returns: The `size` decoded bytes.
    /// - Throws: ``ParquetFailure`` naming what is wrong with the block.
    /// - Complexity: O(`src.count` + `size`).
    static func decompress(_ src: UnsafeRawBufferPointer, size: Int) throws(ParquetFailure) -> [UInt8] {
        var i = 0
        // The preamble: at most 5 bytes for a 32-bit length.
        var declared = 0
        var shift = 0
        while true {
            guard i < src.count, shift <= 28 else { throw ParquetFailure("a SNAPPY page is corrupt (bad length preamble)") }
            let b = Int(src[i])
            i += 1
            declared |= (b & 0x7f) << shift
            if b < 0x80 { break }
            shift += 7
        }
        guard declared == size else {
            throw ParquetFailure("a SNAPPY page is corrupt (its stream declares \(declared) bytes, the page \(size))")
        }
        var failure: ParquetFailure?
        let out = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
            count = 0
            do throws(ParquetFailure) {
                count = try decode(src, from: i, into: buffer, size: size)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return out
    }

    /// Decodes the elements after the preamble into `out`; returns the bytes written (== size).
    private static func decode(_ src: UnsafeRawBufferPointer, from start: Int, into out: UnsafeMutableBufferPointer<UInt8>,
                               size: Int) throws(ParquetFailure) -> Int {
        var i = start
        var o = 0
        func corrupt(_ why: String) -> ParquetFailure { ParquetFailure("a SNAPPY page is corrupt (\(why))") }
        /// `n` little-endian bytes at `i`.
        func little(_ n: Int) throws(ParquetFailure) -> Int {
            guard n <= src.count - i else { throw corrupt("an element is cut off") }
            var v = 0
            for k in 0 ..< n { v |= Int(src[i + k]) << (8 * k) }
            i += n
            return v
        }
        while i < src.count {
            let tag = Int(src[i])
            i += 1
            switch tag & 3 {
            case 0:
                var length = tag >> 2
                if length >= 60 { length = try little(length - 59) }
                length += 1
                guard length <= src.count - i else { throw corrupt("a literal runs past the end of the page") }
                guard length <= size - o else { throw corrupt("a literal runs past the declared size") }
                for k in 0 ..< length { out[o + k] = src[i + k] }
                i += length
                o += length
            default:
                let length: Int
                let offset: Int
                switch tag & 3 {
                case 1:
                    length = 4 + ((tag >> 2) & 7)
                    offset = ((tag >> 5) << 8) | (try little(1))
                case 2:
                    length = 1 + (tag >> 2)
                    offset = try little(2)
                default:
                    length = 1 + (tag >> 2)
                    offset = try little(4)
                }
                guard offset > 0, offset <= o else { throw corrupt("a copy refers to \(offset) bytes back, before the start") }
                guard length <= size - o else { throw corrupt("a copy runs past the declared size") }
                // Byte by byte: an offset below the length repeats the bytes being written.
                for k in 0 ..< length { out[o + k] = out[o + k - offset] }
                o += length
            }
        }
        guard o == size else { throw corrupt("it decodes to \(o) bytes, not \(size)") }
        return o
    }
}
