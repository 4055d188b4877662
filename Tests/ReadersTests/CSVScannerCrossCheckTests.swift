import Auditor
@_spi(Testing) import AuditorReaders
import Testing

/// The CSV scanner against its previous version (``LegacyCSVScanner``): the same records,
/// field spans and forms, line counts and errors, on random bytes cut at random ends, with and
/// without the end of the file; and the non-ASCII flag set for every record that has a byte
/// ≥ 0x80 (it may also be set for an ASCII record, as both versions read ahead).
@Suite struct CSVScannerCrossCheckTests {
    static func check(_ bytes: [UInt8], end: Int, atEOF: Bool, delimiter: UInt8 = UInt8(ascii: ",")) -> String? {
        let new = CSVReader.scannerTrace(bytes, end: end, atEOF: atEOF, delimiter: delimiter)
        let old = LegacyCSVScanner(delimiter: delimiter, quote: UInt8(ascii: "\"")).trace(bytes, end: end, atEOF: atEOF)
        let text = String(decoding: bytes[..<end], as: UTF8.self).debugDescription
        guard new.map(\.record) == old.map(\.record) else {
            return "\(text) end \(end) atEOF \(atEOF):\n new \(new.map(\.record))\n old \(old.map(\.record))"
        }
        var start = 0
        for entry in new where entry.record.hasPrefix("record next ") {
            let next = Int(entry.record.dropFirst("record next ".count).prefix { $0 != " " }) ?? 0
            if !entry.maybeNonASCII, bytes[start ..< next].contains(where: { $0 >= 0x80 }) {
                return "\(text): record at \(start) is not ASCII but not flagged"
            }
            start = next
        }
        return nil
    }

    @Test(arguments: [UInt8(ascii: ","), UInt8(ascii: "\t"), UInt8(ascii: ";")])
    func randomBytesAgreeWithThePreviousScanner(_ delimiter: UInt8) {
        var random = SplitMix64(state: UInt64(delimiter))
        // Structure bytes weighted up, plus letters, digits, a 2-byte letter and bytes that
        // differ from the delimiter or LF by one bit (borrow and carry cases of SWAR matching).
        let alphabet: [UInt8] = [delimiter, delimiter, delimiter, 0x22, 0x22, 0x0A, 0x0A, 0x0D,
                                 0x61, 0x62, 0x31, 0x20, 0x2D, 0x0B, 0x0B, delimiter ^ 1, 0xC3, 0xA9, 0xFF, 0x00]
        for round in 0 ..< 60_000 {
            let length = round % 5 == 0 ? Int.random(in: 0 ... 300, using: &random) : Int.random(in: 0 ... 40, using: &random)
            var bytes = [UInt8]()
            while bytes.count < length {
                // Runs of plain text between structure bytes, so fields span words.
                if Int.random(in: 0 ..< 3, using: &random) == 0 {
                    bytes += Array(repeating: UInt8(ascii: "x"), count: Int.random(in: 1 ... 17, using: &random))
                } else {
                    bytes.append(alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)])
                }
            }
            let end = Int.random(in: 0 ..< 4, using: &random) == 0 ? Int.random(in: 0 ... bytes.count, using: &random) : bytes.count
            for atEOF in [true, false] {
                if let problem = Self.check(bytes, end: end, atEOF: atEOF, delimiter: delimiter) {
                    Issue.record("\(problem)")
                    return
                }
            }
        }
    }

    @Test func writtenRecordsAgreeWithThePreviousScanner() {
        var random = SplitMix64(state: 42)
        let values = ["", "a", "ab,c", "say \"hi\"", "line\nbreak", "crlf\r\nx", "ünïcödé", "1990-05-17", "12345678901234567",
                      "-5", "x\"y", " ", "\r"]
        for _ in 0 ..< 3_000 {
            let records = (0 ..< Int.random(in: 1 ... 6, using: &random)).map { _ in
                (0 ..< Int.random(in: 1 ... 5, using: &random)).map { _ -> String? in
                    let v = values[Int.random(in: 0 ..< values.count, using: &random)]
                    return v.isEmpty && Bool.random(using: &random) ? nil : v
                }
            }
            let (text, _) = CSVWriter.document(header: ["h"], records: records,
                                               newline: { _ in Bool.random(using: &random) ? "\r\n" : "\n" },
                                               forceQuote: { _, _ in Int.random(in: 0 ..< 5, using: &random) == 0 })
            let bytes = Array(text.utf8)
            for end in [bytes.count, bytes.count - 1, bytes.count / 2] where end >= 0 {
                for atEOF in [true, false] {
                    if let problem = Self.check(bytes, end: end, atEOF: atEOF) {
                        Issue.record("\(problem)")
                        return
                    }
                }
            }
        }
    }
}
