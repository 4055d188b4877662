import Auditor

extension SHA256 {
    /// Base64 (RFC 4648, padded) digest of the UTF-8 bytes of `text`: the form CSP hashes use.
    static func base64(_ text: String) -> String {
        Base64.encode(digest(Array(text.utf8)))
    }
}

/// Standard padded Base64 (RFC 4648 §4).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    static func encode(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(i + 1 < bytes.count ? alphabet[Int(n >> 6 & 63)] : "=")
            out.append(i + 2 < bytes.count ? alphabet[Int(n & 63)] : "=")
            i += 3
        }
        return out
    }
}
