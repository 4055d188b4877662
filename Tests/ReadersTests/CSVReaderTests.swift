import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Temporary CSV files and reader shortcuts for the CSV tests.
enum CSVFixture {
    /// A fresh directory for one test's files.
    static func directory() throws -> URL {
        try ScratchRoot.folder("csv")
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    static func file(_ bytes: [UInt8], name: String = "people.csv") throws -> String {
        let url = try directory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func file(_ text: String, name: String = "people.csv") throws -> String {
        try file(Array(text.utf8), name: name)
    }

    /// Deletes the directory of a file made by ``file(_:name:)`` (for the large fixtures).
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// Buffer sizes that make records straddle refills at every kind of position.
    static let tinyBuffers = [4, 5, 7, 13, 64]

    /// Several-thread configurations: (threads, buffer bytes, segment bytes). The tiny ones end
    /// read buffers every few bytes (inside quoted fields, between CR and LF, inside multi-byte
    /// characters), so morsels are cut at every kind of record start; the last one is the
    /// default layout.
    static let parallelConfigs: [(threads: Int, buffer: Int, segment: Int)] = [
        (2, 4, 1), (2, 5, 3), (3, 7, 2), (4, 9, 3), (2, 13, 8), (3, 64, 5), (4, 256, 40),
        (2, 1 << 20, CSVLimits.segmentBytes),
    ]

    /// Opens `path` for one of ``parallelConfigs``.
    static func parallelReader(_ path: String, displayPath: String? = nil, options: CSVOptions = CSVOptions(),
                               _ config: (threads: Int, buffer: Int, segment: Int),
                               maxRecordBytes: Int = CSVLimits.maxRecordBytes) throws -> CSVReader {
        try CSVReader(path: path, displayPath: displayPath, options: options, bufferCapacity: config.buffer,
                      maxRecordBytes: maxRecordBytes, parallelism: config.threads, segmentBytes: config.segment)
    }

    /// Runs the conformance suite on `path` with the default buffer, with tiny buffers and
    /// with every several-thread configuration, expecting the same records every time.
    @discardableResult
    static func check(_ path: String, options: CSVOptions = CSVOptions(), expected: [DecodedRecord]? = nil,
                      schema: [String]? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [DecodedRecord] {
        let records = try ReaderConformance.check(expected: expected, sourceLocation: sourceLocation) {
            let reader = try CSVReader(path: path, options: options)
            if let schema {
                #expect(reader.schema.fields == schema, sourceLocation: sourceLocation)
            }
            return reader
        }
        for capacity in tinyBuffers {
            try ReaderConformance.check(expected: expected ?? records, sourceLocation: sourceLocation) {
                try CSVReader(path: path, options: options, bufferCapacity: capacity)
            }
        }
        for config in parallelConfigs {
            try ReaderConformance.check(expected: expected ?? records, sourceLocation: sourceLocation) {
                let reader = try parallelReader(path, options: options, config)
                if let schema {
                    #expect(reader.schema.fields == schema, sourceLocation: sourceLocation)
                }
                return reader
            }
        }
        return records
    }

    /// Reads every chunk of a reader (no checks).
    static func chunks(_ reader: CSVReader, size: Int = 4096) throws -> [RecordChunk] {
        var result = [RecordChunk]()
        while let chunk = try reader.nextChunk(maxRecords: size) { result.append(chunk) }
        return result
    }
}


@Suite struct CSVReaderTests {
    @Test func plainRecordsCarryTheirLines() throws {
        let path = try CSVFixture.file("a,b,c\n1,2,3\n4,5,6\n")
        try CSVFixture.check(path, expected: [rec(2, "1", "2", "3"), rec(3, "4", "5", "6")], schema: ["a", "b", "c"])
    }

    @Test func quotedFieldsHoldDelimitersAndDoubledQuotes() throws {
        let path = try CSVFixture.file("a,b,c\n\"x,y\",\"he said \"\"hi\"\"\",\"\"\"\"\"\"\n\"\",\"plain\",\"a\"\"\"\n")
        try CSVFixture.check(path, expected: [
            rec(2, "x,y", "he said \"hi\"", "\"\""),
            rec(3, "", "plain", "a\""),
        ])
    }

    @Test func quotedLineBreaksMoveLaterRecordsToLaterLines() throws {
        let path = try CSVFixture.file("a,b\n\"l1\r\nl2\",x\n\"l3\nl4\n\nl6\",y\nz,\"w\r\"\n\"\n\",\n")
        try CSVFixture.check(path, expected: [
            rec(2, "l1\r\nl2", "x"),
            rec(4, "l3\nl4\n\nl6", "y"),
            rec(8, "z", "w\r"),
            rec(9, "\n", nil),
        ])
    }

    @Test(arguments: [
        "a,b\n1,2\n3,4\n",
        "a,b\r\n1,2\r\n3,4\r\n",
        "a,b\r\n1,2\n3,4\r\n",
        "a,b\n1,2\r\n3,4",
        "a,b\r\n1,2\r\n3,4\r",
        "\u{FEFF}a,b\r\n1,2\r\n3,4",
        "a,b\n\"1\",2\n3,\"4\"",
        "a,b\n\"1\",2\r\n3,\"4\"\r\n",
    ])
    func lineEndingsAndFinalRecord(text: String) throws {
        let path = try CSVFixture.file(text)
        try CSVFixture.check(path, expected: [rec(2, "1", "2"), rec(3, "3", "4")], schema: ["a", "b"])
    }

    @Test func byteOrderMarkIsSkippedAndNotPartOfTheFirstName() throws {
        let path = try CSVFixture.file([0xEF, 0xBB, 0xBF] + Array("id,name\n1,Ann\n".utf8))
        try CSVFixture.check(path, expected: [rec(2, "1", "Ann")], schema: ["id", "name"])
    }

    @Test func aCarriageReturnInsideAnUnquotedFieldIsData() throws {
        let path = try CSVFixture.file("a,b\nx\ry,z\r\n")
        try CSVFixture.check(path, expected: [rec(2, "x\ry", "z")])
    }

    @Test func aQuoteInsideAnUnquotedFieldIsKept() throws {
        let path = try CSVFixture.file("a,b\nab\"c,d\"\" \n x,\"y\"\n")
        try CSVFixture.check(path, expected: [rec(2, "ab\"c", "d\"\" "), rec(3, " x", "y")])
    }

    @Test func customDelimiterAndQuote() throws {
        let path = try CSVFixture.file("a;b;c\n'x;y';'it''s';\"q\"\n")
        let options = CSVOptions(delimiter: UInt8(ascii: ";"), quote: UInt8(ascii: "'"))
        try CSVFixture.check(path, options: options, expected: [rec(2, "x;y", "it's", "\"q\"")])
    }

    @Test func tsvPathsDefaultToTab() throws {
        let path = try CSVFixture.file("a\tb\n\"x\ty\"\tz,w\n", name: "people.TSV")
        let request = ReaderRequest(sourceName: "people", path: path, displayPath: "people.TSV",
                                    fields: [])
        try ReaderConformance.check(expected: [rec(2, "x\ty", "z,w")]) { try CSVReader.factory.open(request) }
        #expect(CSVReader.defaultDelimiter(for: "/d/x.csv") == UInt8(ascii: ","))
        #expect(CSVReader.defaultDelimiter(for: "/d.tsv/x") == UInt8(ascii: ","))
    }

    @Test func noHeaderUsesTheGivenColumns() throws {
        let path = try CSVFixture.file("1,2\n3,4\n")
        let options = CSVOptions(header: false, columns: ["x", "y"])
        try CSVFixture.check(path, options: options, expected: [rec(1, "1", "2"), rec(2, "3", "4")], schema: ["x", "y"])
    }

    @Test func columnsReplaceTheHeaderNames() throws {
        let path = try CSVFixture.file("a,a,\n1,2,3\n")
        let options = CSVOptions(columns: ["x", "y", "z"])
        try CSVFixture.check(path, options: options, expected: [rec(2, "1", "2", "3")], schema: ["x", "y", "z"])
    }

    @Test func nullValuesApplyToUnquotedFieldsOnly() throws {
        let path = try CSVFixture.file("a,b,c\n,\"\",NA\n\"NA\",x,\n")
        try CSVFixture.check(path, options: CSVOptions(nullValues: ["", "NA"]),
                             expected: [rec(2, nil, "", nil), rec(3, "NA", "x", nil)])
        try CSVFixture.check(path, expected: [rec(2, nil, "", "NA"), rec(3, "NA", "x", nil)])
        try CSVFixture.check(path, options: CSVOptions(nullValues: []),
                             expected: [rec(2, "", "", "NA"), rec(3, "NA", "x", "")])
    }

    @Test func multiByteText() throws {
        let path = try CSVFixture.file("name,note\nJürgen Müller,\"Relocation 🚚 \"\"ok\"\" ✓\"\n日本語,🙂\n")
        try CSVFixture.check(path, expected: [
            rec(2, "Jürgen Müller", "Relocation 🚚 \"ok\" ✓"),
            rec(3, "日本語", "🙂"),
        ])
    }

    @Test func raggedRecordsAreFlaggedAndKept() throws {
        let path = try CSVFixture.file("a,b,c\n1,2\n1,2,3,\n1,2,3,x,y\n\n\"1\",\"2\",\"3\"\n")
        let ragged = ["csv.row.ragged"]
        try CSVFixture.check(path, expected: [
            rec(2, "1", "2", nil, issues: ragged),
            rec(3, "1", "2", "3", issues: ragged),
            rec(4, "1", "2", "3", issues: ragged),
            rec(5, nil, nil, nil, issues: ragged),
            rec(6, "1", "2", "3"),
        ])
        let reader = try CSVReader(path: path)
        let issues = try CSVFixture.chunks(reader).flatMap(\.issues)
        #expect(issues.map(\.parameters) == [
            ["fields": "2", "expected": "3"], ["fields": "4", "expected": "3"],
            ["fields": "5", "expected": "3"], ["fields": "1", "expected": "3"],
        ])
        #expect(issues.allSatisfy { $0.excludesRecord })
        #expect(reader.structuralRules.map(\.id) == ["csv.row.ragged", "csv.encoding"])
        #expect(reader.structuralRules.map(\.code) == [2101, 2102])
    }

    @Test func invalidUTF8IsFlaggedAndReadingGoesOn() throws {
        var bytes = Array("id,name,note\n1,".utf8) + [0x4A, 0xFF, 0x6E] + Array(",ok\n2,Ann,".utf8)
        bytes += [0x22, 0xC3, 0x22] + Array("\n3,\u{E9}\u{1F600},\"a\"\"b\"\n4,".utf8) + [0xED, 0xA0, 0x80]
        bytes += Array(",".utf8) + [0xF0, 0x9F, 0x98] + Array("\n".utf8)
        let path = try CSVFixture.file(bytes)
        let bad = ["csv.encoding"]
        try CSVFixture.check(path, expected: [
            rec(2, "1", "J\u{FFFD}n", "ok", issues: bad),
            rec(3, "2", "Ann", "\u{FFFD}", issues: bad),
            rec(4, "3", "\u{E9}\u{1F600}", "a\"b"),
            rec(5, "4", "\u{FFFD}\u{FFFD}\u{FFFD}", "\u{FFFD}", issues: bad),
        ])
        let issues = try CSVFixture.chunks(CSVReader(path: path)).flatMap(\.issues)
        #expect(issues.map { $0.parameters["column"] } == ["name", "note", "name"])
        #expect(issues.allSatisfy { !$0.excludesRecord })
        #expect(issues.first?.value == "J\u{FFFD}n")
    }

    @Test func emptyFileWithoutHeaderHasNoRecords() throws {
        let path = try CSVFixture.file("")
        try CSVFixture.check(path, options: CSVOptions(header: false, columns: ["a"]), expected: [])
    }

    @Test(arguments: ["a,b\n", "a,b", "a,b\r\n", "\u{FEFF}a,b"])
    func headerOnlyHasNoRecords(text: String) throws {
        let path = try CSVFixture.file(text)
        try CSVFixture.check(path, expected: [], schema: ["a", "b"])
    }

    @Test func quotedHeaderNames() throws {
        let path = try CSVFixture.file("\"first, name\",\"say \"\"hi\"\"\",\"multi\nline\"\nx,y,z\n")
        try CSVFixture.check(path, expected: [rec(3, "x", "y", "z")],
                             schema: ["first, name", "say \"hi\"", "multi\nline"])
    }

    @Test(arguments: [1, 2, 3])
    func progressReachesTheFileSize(threads: Int) throws {
        let text = "a,b\n1,2\n3,4\n"
        let path = try CSVFixture.file(text)
        let reader = try CSVReader(path: path, parallelism: threads)
        #expect(reader.totalBytes == Int64(text.utf8.count))
        #expect(reader.bytesRead == 4)
        _ = try CSVFixture.chunks(reader, size: 1)
        #expect(reader.bytesRead == Int64(text.utf8.count))
        #expect(reader.locationStyle == .line)
    }

    @Test func chunkBytesAreOnlyTheRecordsOwnBytes() throws {
        let path = try CSVFixture.file("a,b\n1,\"x\"\"y\"\n22,3\n")
        let chunks = try CSVFixture.chunks(CSVReader(path: path), size: 1)
        #expect(chunks.map(\.count) == [1, 1])
        #expect(chunks.map { $0.string($0.columns[1][0]) } == ["x\"y", "3"])
        #expect(chunks[1].bytes == Array("22,3\n".utf8))
    }
}
