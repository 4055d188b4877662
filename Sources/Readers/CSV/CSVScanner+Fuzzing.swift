/// One record as ``CSVScanner`` splits it, for the fuzz targets and tests.
@_spi(Testing)
@_spi(Testing) public struct CSVScannedRecord: Sendable, Equatable {
    /// Each field's value bytes (inside the quotes of a quoted field).
    public var fields: [Range<Int>]
    /// Whether each field was quoted.
    public var quoted: [Bool]
    /// Where the next record starts.
    public var next: Int
    /// The LF bytes inside quoted fields.
    public var newlines: Int
}

@_spi(Testing)
extension CSVReader {
    /// For fuzzing and tests: the records ``CSVScanner`` reads in `bytes[0 ..< end]`, from 0,
    /// until a record is not complete or `end` is reached, and why it stopped early (`nil`
    /// when it reached `end`). The bytes are copied into an allocation of exactly `end`
    /// bytes, so that a read past `end` is caught by the address sanitizer.
    public static func scannedRecords(_ bytes: [UInt8], end: Int, atEOF: Bool, delimiter: UInt8 = UInt8(ascii: ","),
                                      quote: UInt8 = UInt8(ascii: "\"")) -> (records: [CSVScannedRecord], stop: String?) {
        let scanner = CSVScanner(delimiter: delimiter, quote: quote)
        var spans = CSVFieldSpans(capacity: 2)
        defer { spans.deallocate() }
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(end, 1))
        defer { base.deallocate() }
        base.initialize(from: bytes, count: end)
        var records = [CSVScannedRecord]()
        var position = 0
        while position < end {
            let outcome = scanner.scanRecord(base, from: position, end: end, atEOF: atEOF, into: &spans)
            guard case .record(let next, let count, let newlines, _) = outcome else {
                return (records, "\(outcome)")
            }
            var record = CSVScannedRecord(fields: [], quoted: [], next: next, newlines: newlines)
            for k in 0 ..< count {
                let span = spans.pointer[k]
                record.fields.append(span.start ..< span.end)
                record.quoted.append(span.form != .unquoted)
            }
            records.append(record)
            guard next > position else { return (records, "no progress at \(position)") }
            position = next
        }
        return (records, nil)
    }
}
