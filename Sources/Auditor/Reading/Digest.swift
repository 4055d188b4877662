#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CLibCrypto
import Foundation

/// SHA-256 digests, by OpenSSL's libcrypto (its assembly with SHA-NI, about 1.4 GB/s on this
/// project's machine): the history's hashes of rules files and inputs, the HTML report's
/// Content-Security-Policy hashes and SARIF fingerprints. Every digest of the package goes
/// through here.
package enum Digest {
    /// Lower-case hexadecimal SHA-256 of the UTF-8 bytes of `text`.
    public static func sha256Hex(_ text: String) -> String {
        hex(sha256(text))
    }

    /// Padded Base64 (RFC 4648) SHA-256 of the UTF-8 bytes of `text`: the form CSP hashes use.
    public static func sha256Base64(_ text: String) -> String {
        Data(sha256(text)).base64EncodedString()
    }

    /// One call, no context kept (CSP hashes and SARIF fingerprints hash many short texts).
    private static func sha256(_ text: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = Array(text.utf8).withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &out, &length, EVP_sha256(), nil) }
        guard done == 1 else { fatalError("OpenSSL cannot compute a SHA-256") }
        return Array(out[0 ..< Int(length)])
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
        var hasher = SHA256Stream()
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
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0 ..< n]))
        }
        return hasher.hex()
    }

    /// A SHA-256 fed piece by piece; a value, so that a copy is a snapshot of the bytes so far.
    ///
    /// OpenSSL's context is a heap object: a copy shares it until either side is fed again
    /// (copy on write, `EVP_MD_CTX_copy_ex`), so publishing a snapshot costs a reference.
    struct SHA256Stream {
        private final class Context {
            let pointer: OpaquePointer

            init() {
                pointer = Context.make()
                guard EVP_DigestInit_ex(pointer, EVP_sha256(), nil) == 1 else { fatalError("OpenSSL cannot start a SHA-256") }
            }

            init(copying other: Context) {
                pointer = Context.make()
                guard EVP_MD_CTX_copy_ex(pointer, other.pointer) == 1 else { fatalError("OpenSSL cannot copy a SHA-256") }
            }

            deinit { EVP_MD_CTX_free(pointer) }

            private static func make() -> OpaquePointer {
                guard let made = EVP_MD_CTX_new() else { fatalError("out of memory for a SHA-256 context") }
                return made
            }
        }

        private var context = Context()

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            if !isKnownUniquelyReferenced(&context) { context = Context(copying: context) }
            _ = EVP_DigestUpdate(context.pointer, base, bytes.count)   // cannot fail for SHA-256
        }

        /// The 32 bytes of the digest of the bytes so far (the stream can go on).
        func finalize() -> [UInt8] {
            let done = Context(copying: context)
            var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_DigestFinal_ex(done.pointer, &out, &length) == 1 else { fatalError("OpenSSL cannot end a SHA-256") }
            return Array(out[0 ..< Int(length)])
        }

        /// The lower-case hexadecimal digest of the bytes so far.
        func hex() -> String { Digest.hex(finalize()) }
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
