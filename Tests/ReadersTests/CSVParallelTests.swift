import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Everything a reader delivers, as one comparable text: each record's location, values and
/// issues (with their parameters and values), then the error that stopped it, if any.
enum CSVOutcome {
    static func of(_ make: () throws -> CSVReader, chunkSizes: [Int]) -> String {
        var out = [String]()
        do {
            let reader = try make()
            var call = 0
            while let chunk = try reader.nextChunk(maxRecords: chunkSizes[call % chunkSizes.count]) {
                call += 1
                for row in 0 ..< chunk.count {
                    let issues = chunk.issues.filter { $0.row == row }.map {
                        "\($0.ruleID)\($0.parameters.sorted { $0.key < $1.key })\($0.value ?? "")"
                    }
                    out.append("#\(chunk.firstRecord + row) @\(chunk.locations[row]) "
                               + "\(chunk.columns.map { chunk.string($0[row]) }) \(issues)")
                }
            }
            out.append("end, \(reader.bytesRead) bytes")
            try reader.finish()
        } catch let error as AuditError {
            out.append("error \(error.code) at \(error.location ?? "-"): \(error.message)")
        } catch {
            out.append("error \(error)")
        }
        return out.joined(separator: "\n")
    }
}

/// Random CSV-like documents: mostly well-formed RFC 4180 with the hard parts (quoted line
/// breaks, doubled quotes, CRLF, ragged rows, stray quotes in unquoted fields, multi-byte and
/// invalid UTF-8, a BOM), sometimes with a framing error.
enum CSVRandomDocument {
    static func make(seed: UInt64) -> [UInt8] {
        var g = SplitMix64(state: seed &* 0x9E37_79B9 &+ 1)
        func chance(_ n: Int) -> Bool { Int.random(in: 0 ..< n, using: &g) == 0 }
        let width = Int.random(in: 1 ... 5, using: &g)
        var bytes = [UInt8]()
        if chance(5) { bytes += [0xEF, 0xBB, 0xBF] }
        bytes += Array((0 ..< width).map { "h\($0)" }.joined(separator: ",").utf8)
        let crlf = chance(2)
        let newline: [UInt8] = crlf ? [13, 10] : [10]
        bytes += newline
        let unquoted: [[UInt8]] = [[0x61], [0x42], [0x20], [0x31, 0x32], Array("é".utf8), Array("🙂".utf8),
                                   [0xFF], [0xC3], [0x0D], [0x61, 0x22, 0x62], [0x61, 0x22, 0x22]]
        let quoted: [[UInt8]] = [[0x61], [0x2C], [0x22, 0x22], [0x0A], [0x0D, 0x0A], [0x0D], Array("ü".utf8),
                                 Array("日本".utf8), [0xED, 0xA0, 0x80], [0x20], [0x2C, 0x0A, 0x22, 0x22]]
        let rows = Int.random(in: 0 ... 60, using: &g)
        for r in 0 ..< rows {
            let fields = chance(6) ? Int.random(in: 1 ... width + 2, using: &g) : width
            for f in 0 ..< fields {
                if f > 0 { bytes.append(0x2C) }
                switch Int.random(in: 0 ..< 10, using: &g) {
                case 0: break                                           // empty (missing)
                case 1 ... 5:
                    for _ in 0 ..< Int.random(in: 1 ... 6, using: &g) {
                        bytes += unquoted.randomElement(using: &g) ?? []
                    }
                    // A field must not start with a quote to stay unquoted.
                default:
                    bytes.append(0x22)
                    for _ in 0 ..< Int.random(in: 0 ... 8, using: &g) {
                        bytes += quoted.randomElement(using: &g) ?? []
                    }
                    bytes.append(0x22)
                    if chance(60) { bytes.append(0x78) }              // a character after the closing quote
                }
            }
            if r < rows - 1 || chance(2) { bytes += chance(8) ? (crlf ? [10] : [13, 10]) : newline }
            if chance(25) { bytes += newline }                      // an empty line
        }
        if chance(15) { bytes += Array("z,\"never closed\n1,2\n".utf8) }
        return bytes
    }
}

@Suite struct CSVParallelTests {
    /// (threads, buffer, segment) configurations compared with the one-thread path.
    static let configs = CSVFixture.parallelConfigs

    @Test(arguments: 0 ..< 200)
    func randomDocumentsReadTheSameWithEveryThreadCount(seed: UInt64) throws {
        let bytes = CSVRandomDocument.make(seed: seed)
        let path = try CSVFixture.file(bytes)
        let reference = CSVOutcome.of({
            try CSVReader(path: path, displayPath: "r.csv", options: CSVOptions(), bufferCapacity: 1 << 20)
        }, chunkSizes: [4096])
        for config in Self.configs {
            for sizes in [[1], [3], [4096], [5, 1, 2]] {
                let outcome = CSVOutcome.of({
                    try CSVFixture.parallelReader(path, displayPath: "r.csv", config)
                }, chunkSizes: sizes)
                #expect(outcome == reference, "seed \(seed), \(config), chunks \(sizes)")
                if outcome != reference { return }
            }
        }
    }

    @Test func randomDocumentsCoverTheHardCases() throws {
        // The generator must produce what the test above claims to cover.
        var errors = 0, quotedBreaks = 0, invalid = 0, ragged = 0, boms = 0
        for seed in 0 ..< 200 as Range<UInt64> {
            let bytes = CSVRandomDocument.make(seed: seed)
            let path = try CSVFixture.file(bytes)
            defer { CSVFixture.remove(path) }
            let outcome = CSVOutcome.of({ try CSVReader(path: path) }, chunkSizes: [4096])
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { boms += 1 }
            if outcome.contains("\nerror ") { errors += 1 }
            if outcome.contains("\\n") { quotedBreaks += 1 }
            if outcome.contains("csv.encoding") { invalid += 1 }
            if outcome.contains("csv.row.ragged") { ragged += 1 }
        }
        #expect(errors >= 20 && errors <= 180, "\(errors) documents with a framing error")
        #expect(quotedBreaks >= 50, "\(quotedBreaks) documents with a quoted line break")
        #expect(invalid >= 50, "\(invalid) documents with invalid UTF-8")
        #expect(ragged >= 50, "\(ragged) documents with ragged rows")
        #expect(boms >= 10, "\(boms) documents with a BOM")
    }

    @Test(arguments: 0 ..< 60)
    func arbitraryBytesReadTheSameWithEveryThreadCount(seed: UInt64) throws {
        // Not CSV at all: cuts at every position of arbitrary quote/CR/LF soup.
        var generator = SplitMix64(state: seed &* 104_729)
        let alphabet: [[UInt8]] = [[0x61], [0x2C], [0x22], [0x22, 0x22], [0x0D], [0x0A], [0x0D, 0x0A],
                                   [0xC3, 0xA9], [0xC3], [0xFF], [0x20], [0x2C, 0x22], [0x0A, 0x22]]
        var bytes = Array("h1,h2\n".utf8)
        for _ in 0 ..< Int.random(in: 0 ... 200, using: &generator) {
            bytes += alphabet.randomElement(using: &generator) ?? []
        }
        let path = try CSVFixture.file(bytes)
        let reference = CSVOutcome.of({
            try CSVReader(path: path, displayPath: "p.csv", options: CSVOptions(), bufferCapacity: 1 << 20)
        }, chunkSizes: [3])
        for config in Self.configs {
            let outcome = CSVOutcome.of({ try CSVFixture.parallelReader(path, displayPath: "p.csv", config) },
                                        chunkSizes: [3])
            #expect(outcome == reference, "seed \(seed), \(config)")
        }
    }

    @Test(arguments: 0 ..< 100)
    func cutsAreExactlyTheRecordStarts(seed: UInt64) {
        // The splitter, asked for a cut after every byte, must find every record start the
        // scanner finds (up to the first framing error), and nothing else.
        let bytes = CSVRandomDocument.make(seed: seed &+ 1000)
        let (starts, clean) = CSVReader.scannedRecordStarts(bytes)
        let cuts = CSVReader.splitterRecordStarts(bytes, after: Array(1 ..< max(bytes.count, 1)))
        if clean {
            #expect(cuts == starts, "seed \(seed)")
        } else {
            // Past a framing error the cuts may differ; before it they must agree.
            #expect(Array(cuts.prefix(starts.count)) == starts, "seed \(seed)")
        }
    }

    @Test(arguments: 0 ..< 100)
    func morselCutsAreTheLastRecordStartBeforeTheEnd(seed: UInt64) {
        // Cutting a morsel at every possible buffer end: the cut must be the last record start
        // the scanner finds at or before that end (up to the first framing error), or none.
        let bytes = CSVRandomDocument.make(seed: seed &+ 2000)
        let (starts, clean) = CSVReader.scannedRecordStarts(bytes)
        let checked = clean ? bytes.count : (starts.last ?? 0)
        for end in 1 ..< max(checked, 1) {
            let expected = starts.last { $0 <= end }
            #expect(CSVReader.splitterLastRecordStart(bytes, end: end) == expected, "seed \(seed), end \(end)")
            if CSVReader.splitterLastRecordStart(bytes, end: end) != expected { return }
        }
    }

    @Test func splitterSkipsQuotedLineBreaksAndStrayQuotes() {
        // Records start at 0, 10 and 18: the LF at 4 is quoted, the quote at 11 is a stray
        // (it does not open a field, so quote parity alone would get the rest wrong), the
        // quoted field at 18 holds an escaped quote and a LF, and nothing starts after 20.
        let text = Array("a,\"x\ny\",b\nq\"r,\"s\"\n\"\"\"\n\",1\n".utf8)
        #expect(CSVReader.splitterRecordStarts(text, after: [1, 11, 20]) == [10, 18])
        #expect(CSVReader.scannedRecordStarts(text).starts == [10, 18])
        // Another delimiter and quote character.
        let semicolons = Array("'a;b\n';x\ny'z;'q'\nlast\n".utf8)
        let (semicolon, apostrophe) = (UInt8(ascii: ";"), UInt8(ascii: "'"))
        #expect(CSVReader.splitterRecordStarts(semicolons, delimiter: semicolon, quote: apostrophe,
                                               after: [1, 9, 12]) == [9, 17])
        #expect(CSVReader.scannedRecordStarts(semicolons, delimiter: semicolon, quote: apostrophe).starts == [9, 17])
    }

    @Test func smallerChunkRequestsSplitParsedChunks() throws {
        var text = "id,v\n"
        for i in 0 ..< 500 { text += "\(i),\"v\(i)\"\"\nx\"\r\n" }
        let path = try CSVFixture.file(text)
        let reference = CSVOutcome.of({ try CSVReader(path: path) }, chunkSizes: [4096])
        for config in Self.configs {
            let outcome = CSVOutcome.of({ try CSVFixture.parallelReader(path, config) },
                                        chunkSizes: [4096, 1, 7, 300, 2])
            #expect(outcome == reference, "\(config)")
        }
    }

    @Test func largeFileWithDefaultSegments() throws {
        // Many default-size morsels (512 KiB), with records straddling every cut.
        var generator = SplitMix64(state: 99)
        var text = "id,note,n\n"
        var i = 0
        while text.utf8.count < 9 << 20 {
            let lines = Int.random(in: 0 ... 3, using: &generator)
            let note = (0 ... lines).map { _ in String(repeating: "é\"\"", count: Int.random(in: 0 ... 40, using: &generator)) }
                .joined(separator: "\n")
            text += "\(i),\"\(note)\",\(i % 7 == 0 ? "" : "x")\(i % 11 == 0 ? ",extra" : "")\r\n"
            i += 1
        }
        let path = try CSVFixture.file(text)
        defer { CSVFixture.remove(path) }
        let reference = CSVOutcome.of({ try CSVReader(path: path) }, chunkSizes: [8192])
        for threads in [2, 3, 4] {
            let outcome = CSVOutcome.of({ try CSVReader(path: path, parallelism: threads) }, chunkSizes: [8192])
            #expect(outcome == reference, "threads \(threads)")
        }
        #expect(reference.hasSuffix("end, \(text.utf8.count) bytes"))
    }

    @Test func factoryPassesTheRequestedParallelism() throws {
        let path = try CSVFixture.file("a,b\n1,2\n")
        let request = ReaderRequest(sourceName: "s", path: path, displayPath: "s.csv", fields: [],
                                    parallelism: 3)
        let reader = try #require(try CSVReader.factory.open(request) as? CSVReader)
        #expect(reader.parallelism == 3)
        let plain = ReaderRequest(sourceName: "s", path: path, displayPath: "s.csv", fields: [])
        #expect((try CSVReader.factory.open(plain) as? CSVReader)?.parallelism == 1)
    }

    @Test func finishingEarlyOnTheMorselPath() throws {
        var text = "a,b\n"
        for i in 0 ..< 20_000 { text += "\(i),\"\(i)\"\n" }
        let path = try CSVFixture.file(text)
        for _ in 0 ..< 20 {
            let reader = try CSVReader(path: path, options: CSVOptions(), bufferCapacity: 64, parallelism: 2,
                                       segmentBytes: 4096)
            let first = try #require(try reader.nextChunk(maxRecords: 10))
            #expect(first.count >= 1 && first.count <= 10)
            try reader.finish()
        }
    }
}
