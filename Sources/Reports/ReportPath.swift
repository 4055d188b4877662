/// Input paths as CI systems want them: relative to the repository (the current directory of
/// the run) and, for SARIF, as URI references.
package enum ReportPath {
    /// `path` relative to `base` when it lies inside it; otherwise unchanged. A leading `./`
    /// is dropped. Pure string work: no file system access, so reports stay deterministic.
    /// - Parameters:
    ///   - path: An input path as the report shows it (relative or absolute).
    ///   - base: An absolute directory (the current directory), or nil to keep `path`.
    public static func relative(_ path: String, to base: String?) -> String {
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        guard let base, p.hasPrefix("/") else { return p }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return p.hasPrefix(prefix) ? String(p.dropFirst(prefix.count)) : p
    }

    /// A URI reference for `path`: a relative path is percent-encoded (every byte but
    /// `A–Z a–z 0–9 - . _ ~ /`, so `:` never reads as a scheme), an absolute one becomes a
    /// `file://` URI.
    public static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
