import Auditor
@testable import AuditorReports
import Testing

@Suite("Base64 of SHA-256 digests")
struct Base64Tests {
    @Test("Base64 of a digest, as CSP wants it")
    func base64() {
        #expect(SHA256.base64("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(Base64.encode([]) == "" && Base64.encode([0x66]) == "Zg==" && Base64.encode([0x66, 0x6f]) == "Zm8="
                && Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    }
}
