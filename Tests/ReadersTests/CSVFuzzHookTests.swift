import Auditor
@_spi(Testing) import AuditorReaders
import Testing

/// `CSVReader.scannedRecords`, the hook the FuzzCSV target checks its invariants on, reports
/// exactly what the scanner read: the same records as `scannerTrace`, and field ranges that
/// tile the input.
@Suite struct CSVFuzzHookTests {
    @Test func agreesWithTheScannerTraceOnRandomBytes() {
        var random = SplitMix64(state: 13)
        let alphabet: [UInt8] = [0x2C, 0x2C, 0x22, 0x22, 0x0A, 0x0D, 0x61, 0x62, 0xC3, 0xA9]
        for _ in 0 ..< 3_000 {
            let bytes = (0 ..< Int.random(in: 0 ... 40, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? 0 }
            for atEOF in [true, false] {
                let hook = CSVReader.scannedRecords(bytes, end: bytes.count, atEOF: atEOF)
                let trace = CSVReader.scannerTrace(bytes, end: bytes.count, atEOF: atEOF).map(\.record)
                let described = hook.records.map { r in
                    "record next \(r.next) newlines \(r.newlines) fields "
                        + "\(r.fields.indices.map { k in "\(r.fields[k].lowerBound)-\(r.fields[k].upperBound)\(r.quoted[k] ? (bytes[r.fields[k]].contains(0x22) ? "escaped" : "quoted") : "unquoted")" })"
                } + (hook.stop.map { [$0] } ?? [])
                #expect(described == trace, "\(bytes) atEOF \(atEOF)")
            }
        }
    }

    @Test func quotedFieldsAndLineEnds() {
        let bytes = Array("a,\"b,\"\"c\"\"\"\r\n\"x\ny\",z\n".utf8)
        let scanned = CSVReader.scannedRecords(bytes, end: bytes.count, atEOF: true)
        #expect(scanned.stop == nil)
        #expect(scanned.records.map(\.fields) == [[0 ..< 1, 3 ..< 10], [14 ..< 17, 19 ..< 20]])
        #expect(scanned.records.map(\.quoted) == [[false, true], [true, false]])
        #expect(scanned.records.map(\.next) == [13, 21])
        #expect(scanned.records.map(\.newlines) == [0, 1])
        let cut = CSVReader.scannedRecords(bytes, end: 16, atEOF: false)
        #expect(cut.records == Array(scanned.records.prefix(1)))
        #expect(cut.stop?.hasPrefix("incomplete") == true)
    }
}
