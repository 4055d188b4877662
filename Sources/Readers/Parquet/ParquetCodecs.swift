import CZlib
import CZstdShim

/// Page decompression: UNCOMPRESSED, SNAPPY, GZIP and ZSTD, into a buffer of exactly the
/// size the page header declares (allocated uninitialised, so a header that lies about a huge
/// size costs address space, not memory, until data really arrives).
enum ParquetCodecs {
    static func name(_ codec: Int32) -> String {
        switch codec {
        case 0: return "UNCOMPRESSED"
        case 1: return "SNAPPY"
        case 2: return "GZIP"
        case 3: return "LZO"
        case 4: return "BROTLI"
        case 5: return "LZ4"
        case 6: return "ZSTD"
        case 7: return "LZ4_RAW"
        default: return "codec #\(codec)"
        }
    }

    static func isSupported(_ codec: Int32) -> Bool { [0, 1, 2, 6].contains(codec) }

    /// Decompresses `src` into `size` bytes.
    static func decompress(_ codec: Int32, _ src: UnsafeRawBufferPointer, size: Int) throws(ParquetFailure) -> [UInt8] {
        guard size >= 0 else { throw ParquetFailure("a page declares a negative size") }
        switch codec {
        case 0:
            guard src.count == size else {
                throw ParquetFailure("an uncompressed page holds \(src.count) bytes but declares \(size)")
            }
            return Array(src)
        case 1: return try snappy(src, size: size)
        case 2: return try gzip(src, size: size)
        case 6: return try zstd(src, size: size)
        default: throw ParquetFailure("pages compressed with \(name(codec)) cannot be read (auditor reads UNCOMPRESSED, SNAPPY, GZIP and ZSTD)")
        }
    }

    private static func snappy(_ src: UnsafeRawBufferPointer, size: Int) throws(ParquetFailure) -> [UInt8] {
        try Snappy.decompress(src, size: size)
    }

    private static func zstd(_ src: UnsafeRawBufferPointer, size: Int) throws(ParquetFailure) -> [UInt8] {
        guard azstd_available() != 0 else {
            throw ParquetFailure("a page is ZSTD-compressed, but " + String(cString: azstd_load_error()))
        }
        var failure: String?
        let out = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
            let n = azstd_decompress(buffer.baseAddress, size, src.baseAddress, src.count)
            if azstd_is_error(n) != 0 {
                failure = String(cString: azstd_error_name(n))
                count = 0
            } else {
                count = n
            }
        }
        if let failure { throw ParquetFailure("a ZSTD page is corrupt (\(failure))") }
        guard out.count == size else { throw ParquetFailure("a ZSTD page holds \(out.count) bytes but declares \(size)") }
        return out
    }

    private static func gzip(_ src: UnsafeRawBufferPointer, size: Int) throws(ParquetFailure) -> [UInt8] {
        var stream = z_stream()
        // 15 + 32: a gzip or zlib header, detected.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ParquetFailure("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var rc = Z_OK
        var produced = 0
        let out = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
            stream.next_in = UnsafeMutablePointer(mutating: src.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(src.count)
            stream.next_out = buffer.baseAddress
            stream.avail_out = uInt(size)
            while true {
                rc = inflate(&stream, Z_FINISH)
                if rc == Z_STREAM_END, stream.avail_in > 0, stream.avail_out > 0 {
                    rc = inflateReset(&stream)   // another gzip member follows
                    if rc == Z_OK { continue }
                }
                break
            }
            produced = size - Int(stream.avail_out)
            count = produced
        }
        guard rc == Z_STREAM_END, produced == size, stream.avail_in == 0 else {
            throw ParquetFailure("a GZIP page is corrupt or does not hold its declared \(size) bytes")
        }
        return out
    }
}
