import Auditor
import Foundation
import TestSupport
@_spi(Testing) @testable import AuditorReaders
import Testing

/// `csv: { encoding: latin-1 | windows-1252 }` (``TranscodingSource``): the UTF-8 text is
/// Python's decoding of the same bytes, however small the reads, and a CSV file so written
/// reads as its UTF-8 twin.
@Suite struct TranscodingSourceTests {
    /// Prints, per codec, random bytes (hex) and Python's UTF-8 text of them (hex); for
    /// cp1252 without the five bytes it leaves undefined, which Python refuses.
    static let oracle = #"""
        import json, random
        rnd = random.Random(5)
        out = {}
        for codec in ["latin-1", "cp1252"]:
            allowed = [b for b in range(256) if codec != "cp1252" or b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)]
            cases = []
            for n in [0, 1, 2, 3, 17, 300, 70000]:
                data = bytes(rnd.choice(allowed) for _ in range(n))
                cases.append([data.hex(), data.decode(codec).encode("utf-8").hex()])
            cases.append([bytes(allowed).hex(), bytes(allowed).decode(codec).encode("utf-8").hex()])
            out[codec] = cases
        print(json.dumps(out))
        """#

    static func bytes(_ hex: String) -> [UInt8] {
        var out = [UInt8](), digits = Array(hex.utf8)
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i + 1 < digits.count {
            out.append(UInt8(String(decoding: digits[i ... i + 1], as: UTF8.self), radix: 16)!)
            i += 2
        }
        return out
    }

    @Test("Every byte as Python's codecs decode it, read 1, 2, 3, 7 or 65,536 bytes at a time")
    func pythonCodecs() throws {
        let python = try #require(CSVGenerated.python, "needs python3")
        let made = try ChildProcess.run([python, "-c", Self.oracle])
        try #require(made.status == 0, "\(made)")
        let cases = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: [[String]]])
        for (codec, encoding) in [("latin-1", SingleByteEncoding.latin1), ("cp1252", .windows1252)] {
            for pair in try #require(cases[codec]) {
                let raw = Self.bytes(pair[0]), utf8 = Data(Self.bytes(pair[1]))
                for step in [1, 2, 3, 7, 1 << 16] {
                    let path = try CSVFixture.file(raw, name: "t.txt")
                    let source = TranscodingSource(try ByteSources.open(path: path, displayPath: "t.txt"), encoding: encoding)
                    #expect(try CompressedFixture.readAll(source, step: step) == utf8, "\(codec), \(raw.count) bytes, step \(step)")
                    #expect(source.rawBytesRead == Int64(raw.count))
                }
            }
        }
        // The bytes Windows-1252 leaves undefined are their own code points, as browsers read them.
        let path = try CSVFixture.file([0x81, 0x9D, 0x80], name: "t.txt")
        let source = TranscodingSource(try ByteSources.open(path: path, displayPath: "t.txt"), encoding: .windows1252)
        #expect(String(decoding: try CompressedFixture.readAll(source), as: UTF8.self) == "\u{81}\u{9D}€")
    }

    @Test("Encoding names: windows-1252, cp1252, latin-1, ISO-8859-1; utf-8 is none; others are refused with the ones read")
    func names() {
        #expect(SingleByteEncoding(name: "CP1252") == .windows1252 && SingleByteEncoding(name: "windows_1252") == .windows1252)
        #expect(SingleByteEncoding(name: "ISO-8859-1") == .latin1 && SingleByteEncoding(name: "latin1") == .latin1)
        #expect(SingleByteEncoding(name: "utf-8") == nil && SingleByteEncoding(name: "koi8-r") == nil)
        let refused = CSVOptions.decode(Y.m([("encoding", "koi8-r")]).node()).1
        #expect(refused.first?.message.contains("reads utf-8, windows-1252 (cp1252) and latin-1 (iso-8859-1)") == true, "\(refused)")
        #expect(CSVOptions.decode(Y.m([("encoding", "Windows-1252")]).node()).0.encoding == .windows1252)
    }
}
