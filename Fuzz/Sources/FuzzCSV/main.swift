// libFuzzer target: the CSV scanner (Sources/Readers/CSV) and the reader around it.
//
// Input: byte 0 chooses the dialect and the checks (bits 0-1 delimiter `,` `;` TAB `|`, bit 2
// quote `"` or `'`, bit 3 also read the bytes as a file with CSVReader, bits 4-7 where to cut);
// the rest is the CSV text. Invariants, each a crash when broken:
// - the scanner's records reassemble exactly to the input (fields, quotes, delimiters, line ends);
// - scanning a prefix (more to come) gives the same records as the whole input, then stops;
// - CSVReader gives the same records and errors with a 4-byte buffer and one record per chunk,
//   a large buffer, and two threads cutting 16-byte segments.
#if canImport(Glibc)
import Glibc
#endif
import Auditor
@_spi(Testing) import AuditorReaders

let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 9, UInt8(ascii: "|")]
let scratchPath = "/dev/shm/auditor-fuzz-csv-\(getpid()).csv"

func fail(_ what: String, _ bytes: [UInt8]) -> Never {
    fatalError("FuzzCSV invariant broken: \(what); input \(bytes)")
}

/// Checks that the records tile `bytes[0 ..< end]`: every byte is a field byte, a quote, a
/// delimiter or a line end, exactly where the grammar puts it.
func checkReassembly(_ bytes: [UInt8], _ records: [CSVScannedRecord], end: Int, atEOF: Bool,
                     delimiter: UInt8, quote: UInt8) {
    var position = 0
    for record in records {
        guard !record.fields.isEmpty, record.fields.count == record.quoted.count else { fail("empty record", bytes) }
        var newlines = 0
        for (k, field) in record.fields.enumerated() {
            if record.quoted[k] {
                guard bytes[position] == quote, field.lowerBound == position + 1, field.upperBound < end,
                      bytes[field.upperBound] == quote else { fail("quoted field \(k) at \(position)", bytes) }
                var i = field.lowerBound
                while i < field.upperBound {       // inside: quotes only doubled
                    if bytes[i] == quote {
                        guard i + 1 < field.upperBound, bytes[i + 1] == quote else { fail("lone quote at \(i)", bytes) }
                        i += 2
                    } else {
                        if bytes[i] == 10 { newlines += 1 }
                        i += 1
                    }
                }
                position = field.upperBound + 1
            } else {
                guard field.lowerBound == position, field.upperBound <= end,
                      !bytes[field.lowerBound ..< field.upperBound].contains(delimiter),
                      !bytes[field.lowerBound ..< field.upperBound].contains(10)
                else { fail("unquoted field \(k) at \(position)", bytes) }
                position = field.upperBound
            }
            if k < record.fields.count - 1 {
                guard position < end, bytes[position] == delimiter else { fail("no delimiter at \(position)", bytes) }
                position += 1
            }
        }
        guard newlines == record.newlines else { fail("newline count \(record.newlines), counted \(newlines)", bytes) }
        let rest = Array(bytes[position ..< record.next])
        let lastUnquoted = record.quoted.last == false
        // A record ends with LF or CRLF; at the end of the file, with nothing or a lone CR.
        guard rest == [10] || rest == [13, 10] || ((rest.isEmpty || rest == [13]) && atEOF && record.next == end)
        else { fail("record end \(rest) at \(position) (unquoted last field: \(lastUnquoted))", bytes) }
        position = record.next
    }
}

struct ReadOutcome: Equatable {
    var rows: [[String?]] = []
    var locations: [Int64] = []
    var issues: [String] = []
    var error: String?
}

func read(path: String, options: CSVOptions, bufferCapacity: Int, parallelism: Int, maxRecords: Int) -> ReadOutcome {
    var outcome = ReadOutcome()
    do {
        let reader = try CSVReader(path: path, displayPath: "fuzz.csv", options: options, bufferCapacity: bufferCapacity,
                                   parallelism: parallelism, segmentBytes: 16)
        while let chunk = try reader.nextChunk(maxRecords: maxRecords) {
            for row in 0 ..< chunk.count {
                outcome.rows.append(chunk.columns.map { chunk.string($0[row]) })
            }
            outcome.locations += chunk.locations
            outcome.issues += chunk.issues.map { "\(chunk.firstRecord + $0.row) \($0.ruleID) \($0.value ?? "-")" }
        }
        try reader.finish()
    } catch {
        outcome.error = "\(error)"
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let flags = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let delimiter = delimiters[Int(flags & 3)]
    let quote = flags & 4 == 0 ? UInt8(ascii: "\"") : UInt8(ascii: "'")

    let whole = CSVReader.scannedRecords(bytes, end: bytes.count, atEOF: true, delimiter: delimiter, quote: quote)
    checkReassembly(bytes, whole.records, end: bytes.count, atEOF: true, delimiter: delimiter, quote: quote)
    if let stop = whole.stop, !stop.hasPrefix("unterminatedQuote"), !stop.hasPrefix("unexpectedAfterQuote") {
        fail("whole input stopped with \(stop)", bytes)
    }

    let cut = bytes.isEmpty ? 0 : (Int(flags >> 4) * 7919 + bytes.count / 2) % (bytes.count + 1)
    let prefix = CSVReader.scannedRecords(bytes, end: cut, atEOF: false, delimiter: delimiter, quote: quote)
    checkReassembly(bytes, prefix.records, end: cut, atEOF: false, delimiter: delimiter, quote: quote)
    guard prefix.records.count <= whole.records.count,
          Array(whole.records.prefix(prefix.records.count)) == prefix.records
    else { fail("prefix of \(cut) bytes disagrees with the whole input", bytes) }
    if let stop = prefix.stop, !stop.hasPrefix("incomplete") {
        guard stop == whole.stop, prefix.records.count == whole.records.count
        else { fail("prefix of \(cut) bytes stopped with \(stop), whole with \(whole.stop ?? "nil")", bytes) }
    }

    guard flags & 8 != 0 else { return 0 }
    let file = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard file >= 0 else { fatalError("cannot create \(scratchPath)") }
    _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
    defer { unlink(scratchPath) }
    let options = CSVOptions(delimiter: delimiter, quote: quote, header: flags & 0x10 != 0,
                             columns: flags & 0x10 != 0 ? nil : ["a", "b", "c"])
    let small = read(path: scratchPath, options: options, bufferCapacity: 4, parallelism: 1, maxRecords: 1)
    let large = read(path: scratchPath, options: options, bufferCapacity: 1 << 16, parallelism: 1, maxRecords: 4096)
    guard small == large else { fail("4-byte buffer \(small) vs 64 KiB buffer \(large)", bytes) }
    let parallel = read(path: scratchPath, options: options, bufferCapacity: 64, parallelism: 2, maxRecords: 3)
    guard parallel == large else { fail("two threads \(parallel) vs one \(large)", bytes) }
    return 0
}
