import Auditor
import Foundation
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-4 test vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func vectors(_ input: String, _ expected: String) {
        #expect(SHA256.hex(input) == expected)
    }

    @Test("Streaming in pieces of any size gives the one-shot digest")
    func streaming() {
        // Lengths around the 55/56/64-byte padding boundaries, fed in pieces of 1, 7, 63, 64, 65...
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let bytes = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.digest(bytes)
            for piece in [1, 7, 63, 64, 65, 200] {
                var hasher = SHA256()
                var i = 0
                while i < bytes.count {
                    hasher.update(bytes[i ..< min(bytes.count, i + piece)])
                    i += piece
                }
                #expect(hasher.finalize() == whole, "length \(length), pieces of \(piece)")
                #expect(hasher.finalize() == whole, "finalize leaves the hasher as it was")
            }
        }
    }

    @Test("The FIPS one-million-'a' vector, from a file through a small buffer")
    func fileOfAMillionA() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
        try Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hexEncoded(try SHA256.file(atPath: url.path)) == expected)
        #expect(SHA256.hexEncoded(try SHA256.file(atPath: url.path, chunkSize: 1000)) == expected)
        #expect(SHA256.hexEncoded(try SHA256.file(atPath: url.path, chunkSize: 100)) == expected)
    }

    @Test("A missing file is a missing input")
    func missingFile() {
        #expect { try SHA256.file(atPath: "/nonexistent/auditor-sha256") } throws: { error in
            (error as? AuditError)?.code == .missingInput
        }
    }

    /// Hashing speed on a real file. Opt-in: `AUDITOR_BENCH_HASH=/path/file` (meaningful only in a
    /// release build; a debug build is ~20× slower). Prints MB/s.
    @Test func benchmark() throws {
        guard let path = ProcessInfo.processInfo.environment["AUDITOR_BENCH_HASH"] else { return }
        let clock = ContinuousClock()
        let start = clock.now
        let digest = try SHA256.file(atPath: path)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
        print("sha256 \(SHA256.hexEncoded(digest)) \(path): \(String(format: "%.1f MB in %.3f s = %.0f MB/s", bytes / 1e6, seconds, bytes / 1e6 / seconds))")
    }
}
