#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation

/// SHA-256 digests, by apple/swift-crypto (BoringSSL's assembly on Linux, about 1.7 GB/s on
/// this project's machine): the history's hashes of rules files and inputs, the HTML report's
/// Content-Security-Policy hashes and SARIF fingerprints. Every digest of the package goes
/// through here.
package enum Digest {
    /// Lower-case hexadecimal SHA-256 of the UTF-8 bytes of `text`.
    public static func sha256Hex(_ text: String) -> String {
        hex(SHA256.hash(data: Array(text.utf8)))
    }

    /// Padded Base64 (RFC 4648) SHA-256 of the UTF-8 bytes of `text`: the form CSP hashes use.
    public static func sha256Base64(_ text: String) -> String {
        Data(SHA256.hash(data: Array(text.utf8))).base64EncodedString()
    }

    /// The lower-case hexadecimal SHA-256 of a file's bytes, read through a buffer of
    /// `chunkSize` bytes (memory stays at one buffer whatever the file's size).
    /// - Parameters:
    ///   - path: The file (symbolic links are followed; a FIFO or device is refused, never read).
    ///   - chunkSize: Bytes per `read(2)`; 32 KiB by default (the buffer stays in the core's
    ///     cache: with 1 MiB, copying out of the page cache cost more than hashing).
    /// - Throws: ``AuditError`` `.missingInput` when the file cannot be opened, `.io` when a
    ///   read fails.
    public static func sha256Hex(fileAtPath path: String, chunkSize: Int = 1 << 15) throws(AuditError) -> String {
        let fd = try InputFile.openForHashing(path)     // never blocks on a FIFO
        defer { close(fd) }
        var hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(64, chunkSize), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw AuditError(.io, "cannot read the file to hash it", location: path,
                                 cause: String(cString: strerror(errno)))
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0 ..< n]))
        }
        return hex(hasher.finalize())
    }

    /// A SHA-256 fed piece by piece; a value, so that a copy is a snapshot of the bytes so far.
    struct SHA256Stream {
        private var state = SHA256()

        mutating func update(_ bytes: UnsafeRawBufferPointer) { state.update(bufferPointer: bytes) }

        /// The lower-case hexadecimal digest of the bytes so far.
        func hex() -> String { Digest.hex(state.finalize()) }
    }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
