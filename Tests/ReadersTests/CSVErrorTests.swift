import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

@Suite struct CSVErrorTests {
    /// Reads until the reader throws; returns the records delivered before and the error.
    private func readUntilError(_ make: () throws -> CSVReader, chunkSize: Int) throws -> ([DecodedRecord], AuditError?) {
        let reader = try make()
        var records = [DecodedRecord]()
        do {
            while let chunk = try reader.nextChunk(maxRecords: chunkSize) {
                for row in 0 ..< chunk.count {
                    records.append(DecodedRecord(location: chunk.locations[row],
                                                 values: chunk.columns.map { chunk.string($0[row]) }))
                }
            }
            return (records, nil)
        } catch let error as AuditError {
            // The error sticks: the next call throws it again instead of reading on.
            #expect(throws: AuditError.self) { try reader.nextChunk(maxRecords: chunkSize) }
            return (records, error)
        }
    }

    /// Every chunk size and buffer size must deliver the same records and then the same error.
    private func expectFailure(_ text: String, options: CSVOptions = CSVOptions(), before: [DecodedRecord],
                               location: String, code: AuditError.Code = .malformedInput, mentions: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try CSVFixture.file(text)
        let dir = (path as NSString).deletingLastPathComponent
        var makers: [(String, () throws -> CSVReader)] = (CSVFixture.tinyBuffers + [1 << 20]).map { capacity in
            ("buffer \(capacity)", {
                try CSVReader(path: path, displayPath: "people.csv", options: options, bufferCapacity: capacity)
            })
        }
        makers += CSVFixture.parallelConfigs.map { config in
            ("parallel \(config)", { try CSVFixture.parallelReader(path, displayPath: "people.csv", options: options, config) })
        }
        for (capacity, make) in makers {
            for size in ReaderConformance.chunkSizes {
                let (records, error) = try readUntilError(make, chunkSize: size)
                #expect(records == before, "buffer \(capacity), chunk \(size)", sourceLocation: sourceLocation)
                #expect(error?.code == code, sourceLocation: sourceLocation)
                #expect(error?.location == location, "buffer \(capacity), chunk \(size)",
                        sourceLocation: sourceLocation)
                #expect(error?.message.contains(mentions) == true, "\(String(describing: error))",
                        sourceLocation: sourceLocation)
                #expect(error?.description.contains(dir) == false, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func unterminatedQuotePointsAtTheOpeningQuote() throws {
        try expectFailure("a,b\n1,2\nx,\"abc\ndef\n", before: [rec(2, "1", "2")],
                          location: "people.csv:3:3", mentions: "never closed")
        try expectFailure("a,b\n\"ok\nok\",1\nüé,\"", before: [rec(2, "ok\nok", "1")],
                          location: "people.csv:4:4", mentions: "never closed")
    }

    @Test func characterAfterClosingQuote() throws {
        try expectFailure("a,b\n1,2\n\"abc\"x,1\n", before: [rec(2, "1", "2")],
                          location: "people.csv:3:6", mentions: "unexpected 'x' after the closing quote")
        try expectFailure("a,b\n\"l1\nl2\" ,1\n", before: [],
                          location: "people.csv:3:4", mentions: "unexpected a space after")
        try expectFailure("a,b\n1,\"2\"\r3\n", before: [],
                          location: "people.csv:2:6", mentions: "carriage return")
    }

    @Test func runawayQuoteStopsAtTheRecordLimit() throws {
        let text = "a,b\n1,2\nx,\"" + String(repeating: "y,\n", count: 400) + "\n"
        let path = try CSVFixture.file(text)
        let makers: [() throws -> CSVReader] = [4, 64, 1 << 20].map { capacity in
            { try CSVReader(path: path, displayPath: "p.csv", options: CSVOptions(), bufferCapacity: capacity,
                            maxRecordBytes: 500) }
        } + CSVFixture.parallelConfigs.map { config in
            { try CSVFixture.parallelReader(path, displayPath: "p.csv", config, maxRecordBytes: 500) }
        }
        for make in makers {
            let reader = try make()
            #expect(try reader.nextChunk(maxRecords: 10)?.count == 1)
            #expect { try reader.nextChunk(maxRecords: 10) } throws: { error in
                guard let error = error as? AuditError else { return false }
                return error.location == "p.csv:3:3" && error.message.contains("runs past 500 bytes")
            }
        }
        let long = try CSVFixture.file("a\n" + String(repeating: "z", count: 600) + "\n")
        let reader = try CSVReader(path: long, displayPath: "p.csv", options: CSVOptions(), bufferCapacity: 8,
                                   maxRecordBytes: 500)
        #expect { try reader.nextChunk(maxRecords: 10) } throws: { error in
            (error as? AuditError)?.location == "p.csv:2:1"
        }
    }

    @Test func framingErrorsInTheHeader() throws {
        let path = try CSVFixture.file("a,\"b\nc")
        #expect { try CSVReader(path: path, displayPath: "h.csv") } throws: { error in
            (error as? AuditError)?.location == "h.csv:1:3" && (error as? AuditError)?.code == .malformedInput
        }
        let garbage = try CSVFixture.file("a,\"b\"c\n")
        #expect { try CSVReader(path: garbage, displayPath: "h.csv") } throws: { error in
            (error as? AuditError)?.location == "h.csv:1:6"
        }
    }

    @Test func missingFileAndDirectory() throws {
        let dir = try CSVFixture.directory()
        let missing = dir.appendingPathComponent("nope.csv").path
        for path in [missing, dir.path] {
            #expect { try CSVReader(path: path, displayPath: "shown.csv") } throws: { error in
                guard let error = error as? AuditError else { return false }
                return error.code == .missingInput && error.location == "shown.csv"
                    && error.message.hasPrefix("cannot open 'shown.csv'") && error.cause?.isEmpty == false
            }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem")))
    func readFailureIsAnIOError() throws {
        // Reading /proc/self/mem at offset 0 fails with EIO (nothing is mapped there).
        #expect { try CSVReader(path: "/proc/self/mem", displayPath: "mem.csv") } throws: { error in
            guard let error = error as? AuditError else { return false }
            return error.code == .io && error.location == "mem.csv" && error.message.hasPrefix("cannot read 'mem.csv'")
                && error.cause?.isEmpty == false
        }
    }

    @Test func emptyFileNeedsAHeader() throws {
        for bytes in [[], [0xEF, 0xBB, 0xBF]] as [[UInt8]] {
            let path = try CSVFixture.file(bytes)
            #expect { try CSVReader(path: path, displayPath: "e.csv") } throws: { error in
                guard let error = error as? AuditError else { return false }
                return error.code == .malformedInput && error.message.hasPrefix("empty file: no header")
                    && error.location == "e.csv:1:1"
            }
        }
    }

    @Test(arguments: [
        ("id,name,id\n1,2,3\n", "p.csv:1:9", "names 'id' twice (fields 1 and 3)"),
        ("id,,x\n", "p.csv:1:4", "field 2 of the header has no name"),
        ("id,\"\"\n", "p.csv:1:4", "field 2 of the header has no name"),
        ("\u{FEFF}é,\"é\"\n", "p.csv:1:3", "names 'é' twice"),
        ("a,\"x\ny\",\"x\ny\"\n", "p.csv:2:4", "names 'x\ny' twice"),
    ])
    func badHeaderNames(text: String, location: String, mentions: String) throws {
        let path = try CSVFixture.file(text)
        #expect { try CSVReader(path: path, displayPath: "p.csv") } throws: { error in
            guard let error = error as? AuditError else { return false }
            return error.code == .malformedInput && error.location == location && error.message.contains(mentions)
        }
    }

    @Test func headerThatIsNotUTF8() throws {
        let path = try CSVFixture.file(Array("id,".utf8) + [0xFF])
        #expect { try CSVReader(path: path, displayPath: "p.csv") } throws: { error in
            (error as? AuditError)?.location == "p.csv:1:4"
        }
    }

    @Test func columnsMustMatchTheHeaderWidth() throws {
        let path = try CSVFixture.file("a,b,c\n1,2,3\n")
        let node = Node.map(3, ["columns": Node.list(7, 14, ["x", "y"])])
        let (options, problems) = CSVOptions.decode(node)
        #expect(problems.isEmpty)
        let mark = ConfigMark(file: "rules.yml", line: 7, column: 14)
        #expect { try CSVReader(path: path, displayPath: "p.csv", options: options) } throws: { error in
            guard let error = error as? AuditError else { return false }
            return error.code == .invalidRules && error.diagnostics.map(\.mark) == [mark]
                && error.diagnostics.first?.message.contains("columns lists 2 names but the header") == true
        }
    }

    @Test func inconsistentOptionsBuiltInCode() throws {
        let path = try CSVFixture.file("a\n")
        for options in [CSVOptions(header: false), CSVOptions(delimiter: 10),
                        CSVOptions(delimiter: 34), CSVOptions(columns: ["a", "a"])] {
            #expect(throws: AuditError.self) { try CSVReader(path: path, options: options) }
        }
    }
}
