@testable import Auditor
import Foundation
import Testing

/// Our use of OpenSSL's SHA-256: hex and Base64 forms, files through a buffer, streams copied
/// midway (a snapshot), errors.
@Suite("SHA-256 digests")
struct DigestTests {
    @Test("FIPS 180-4 test vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func vectors(_ input: String, _ expected: String) {
        #expect(Digest.sha256Hex(input) == expected)
    }

    /// The Base64 form that Content-Security-Policy hashes use, checked against Python's
    /// hashlib and base64 on texts around the padding boundaries.
    @Test func base64MatchesPython() throws {
        let texts = ["", "a", "ab", "abc", "<script>", "é€😀", String(repeating: "x", count: 1000)]
        let script = """
        import base64, hashlib, json, sys
        texts = json.load(sys.stdin)
        json.dump([base64.b64encode(hashlib.sha256(t.encode()).digest()).decode() for t in texts], sys.stdout)
        """
        let expected = try PythonOracle.run(script, input: texts, as: [String].self)
        #expect(texts.map(Digest.sha256Base64) == expected)
    }

    @Test("The FIPS one-million-'a' vector, from a file through buffers of several sizes")
    func fileOfAMillionA() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
        try Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        for size in [1 << 20, 1000, 100] {
            #expect(try Digest.sha256Hex(fileAtPath: url.path, chunkSize: size) == expected)
        }
    }

    /// A copy of a stream is a snapshot: feeding either side afterwards leaves the other as it
    /// was, and finalizing does not end a stream (InputHashing publishes such copies).
    @Test func streamCopiesAreSnapshots() {
        func feed(_ s: inout Digest.SHA256Stream, _ text: String) { Array(text.utf8).withUnsafeBytes { s.update($0) } }
        var a = Digest.SHA256Stream()
        feed(&a, "ab")
        let snapshot = a
        #expect(snapshot.hex() == Digest.sha256Hex("ab"))
        feed(&a, "c")
        var b = snapshot
        feed(&b, "x")
        #expect(a.hex() == Digest.sha256Hex("abc"))
        #expect(b.hex() == Digest.sha256Hex("abx"))
        #expect(snapshot.hex() == Digest.sha256Hex("ab"))
        feed(&a, "dbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        #expect(a.hex() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Digest.SHA256Stream().hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("A missing file is a missing input, a FIFO is refused")
    func unreadableFiles() throws {
        #expect { try Digest.sha256Hex(fileAtPath: "/nonexistent/auditor-sha256") } throws: { error in
            (error as? AuditError)?.code == .missingInput
        }
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect { try Digest.sha256Hex(fileAtPath: fifo) } throws: { error in
            (error as? AuditError)?.code == .missingInput
        }
    }

    /// Hashing speed on a real file. Opt-in: `AUDITOR_BENCH_HASH=/path/file` (meaningful only in a
    /// release build). Prints MB/s.
    @Test func benchmark() throws {
        guard let path = ProcessInfo.processInfo.environment["AUDITOR_BENCH_HASH"] else { return }
        let start = ContinuousClock.now
        let digest = try Digest.sha256Hex(fileAtPath: path)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
        print("sha256 \(digest) \(path): \(String(format: "%.1f MB in %.3f s = %.0f MB/s", bytes / 1e6, seconds, bytes / 1e6 / seconds))")
    }
}
