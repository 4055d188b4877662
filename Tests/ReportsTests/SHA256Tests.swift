@testable import Reports
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

    @Test("Base64 of a digest, as CSP wants it")
    func base64() {
        #expect(SHA256.base64("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(Base64.encode([]) == "" && Base64.encode([0x66]) == "Zg==" && Base64.encode([0x66, 0x6f]) == "Zm8="
                && Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    }
}
