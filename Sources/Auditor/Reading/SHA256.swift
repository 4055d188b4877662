#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 (FIPS 180-4): the history's hashes of rules files and inputs, the HTML report's
/// Content-Security-Policy hashes and SARIF fingerprints.
///
/// Written out because Foundation on Linux has no CryptoKit and a dependency on swift-crypto
/// would add minutes to a cold build. Streaming: feed any number of ``update(_:)`` calls, then
/// ``finalize()``; ``file(atPath:)`` hashes a file through a 1 MiB buffer, so a 130 MB export
/// is never held in memory. Checked against the FIPS test vectors in `SHA256Tests`.
///
/// Speed (release build, this project's 2-core machine, 130 MB file): see `SHA256Tests` and the
/// README's "Nightly audit" section; the CLI hashes inputs on a background thread while the
/// audit runs.
package struct SHA256: Sendable {
    private var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
    private var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
    /// Bytes not yet compressed (fewer than 64).
    private var pending: [UInt8] = []
    /// Bytes fed so far.
    private var length: UInt64 = 0

    /// A hasher with nothing fed yet.
    public init() {
        pending.reserveCapacity(64)
    }

    /// Feeds bytes.
    /// - Complexity: O(n).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }   // 64 bytes: not empty
            pending.removeAll(keepingCapacity: true)
        }
        let blocks = (bytes.count - offset) / 64
        if blocks > 0 { compress(base + offset, blocks: blocks) }
        offset += blocks * 64
        if offset < bytes.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
        }
    }

    /// Feeds bytes.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        Array(bytes).withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything fed (the hasher itself is left as it was).
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        tail += [UInt8](repeating: 0, count: (119 - pending.count) % 64)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        copy.update(tail)
        let words = [copy.h0, copy.h1, copy.h2, copy.h3, copy.h4, copy.h5, copy.h6, copy.h7]
        return words.flatMap { w in (0 ..< 4).map { UInt8(truncatingIfNeeded: w >> UInt32(24 - $0 * 8)) } }
    }

    /// The 32-byte digest of `bytes`.
    /// - Complexity: O(n).
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Lower-case hexadecimal digest of the UTF-8 bytes of `text`.
    public static func hex(_ text: String) -> String {
        hexEncoded(digest(Array(text.utf8)))
    }

    /// Lower-case hexadecimal form of a digest (64 digits for SHA-256).
    public static func hexEncoded(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of a file's bytes, read through a buffer of `chunkSize` bytes (memory stays
    /// at one buffer whatever the file's size).
    /// - Parameters:
    ///   - path: The file (symbolic links are followed).
    ///   - chunkSize: Bytes per `read(2)`; 1 MiB by default.
    /// - Returns: The 32-byte digest.
    /// - Throws: ``AuditError`` `.missingInput` when the file cannot be opened, `.io` when a
    ///   read fails.
    public static func file(atPath path: String, chunkSize: Int = 1 << 20) throws(AuditError) -> [UInt8] {
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
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0 ..< n]))
        }
        return hasher.finalize()
    }

    /// Compresses `blocks` consecutive 64-byte blocks starting at `p`.
    /// - Complexity: O(blocks); the hot loop of every hash.
    private mutating func compress(_ p: UnsafeRawPointer, blocks: Int) {
        Self.k.withUnsafeBufferPointer { kb in
            // 64 is the schedule's size; kb holds exactly 64 constants.
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                let k = kb.baseAddress!      // a non-empty static array
                let w = w.baseAddress!       // capacity 64 > 0
                var (a0, b0, c0, d0, e0, f0, g0, hh0) = (h0, h1, h2, h3, h4, h5, h6, h7)
                for block in 0 ..< blocks {
                    let bp = p + block * 64
                    for t in 0 ..< 16 {
                        w[t] = UInt32(bigEndian: bp.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                    }
                    for t in 16 ..< 64 {
                        let x = w[t - 15], y = w[t - 2]
                        let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                        let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, hh) = (a0, b0, c0, d0, e0, f0, g0, hh0)
                    for t in 0 ..< 64 {
                        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let ch = (e & f) ^ (~e & g)
                        let t1 = hh &+ s1 &+ ch &+ k[t] &+ w[t]
                        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let maj = (a & b) ^ (a & c) ^ (b & c)
                        hh = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ s0 &+ maj
                    }
                    a0 &+= a; b0 &+= b; c0 &+= c; d0 &+= d
                    e0 &+= e; f0 &+= f; g0 &+= g; hh0 &+= hh
                }
                (h0, h1, h2, h3, h4, h5, h6, h7) = (a0, b0, c0, d0, e0, f0, g0, hh0)
            }
        }
    }

    @inline(__always)
    private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}
