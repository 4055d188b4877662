import Auditor
import Foundation
import TestSupport
@_spi(Testing) import AuditorReaders
import Testing

/// The CSV reader's root-cause checks (README "Data problems and root causes"): another
/// encoding or delimiter is one error at open, decided on generated documents encoded by
/// Python's codecs and csv module (references this code did not write).
@Suite struct CSVDialectTests {
    /// Writes `count` random CSV documents (header `id,name,city`) in each encoding into `dir`
    /// as `N.<codec>.csv`; Latin-1 only for documents it can encode.
    static let generator = """
        import csv, io, random, sys
        out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        rnd = random.Random(seed)
        words = ['Ann', 'Bob', 'Zoë', 'José', 'Müller', 'Ørsted', 'Łódź', 'São Paulo', 'naïve', 'Straße',
                 'plain', 'x;y', 'a,b', 'q"q', '日本', '🚚', 'Åsa', 'ÿ', 'Ç']
        for n in range(count):
            rows = [['id', 'name', 'city']]
            for i in range(rnd.randint(1, 30)):
                rows.append([str(i), rnd.choice(words), rnd.choice(words)])
            buf = io.StringIO()
            csv.writer(buf, lineterminator=rnd.choice(['\\n', '\\r\\n'])).writerows(rows)
            text = buf.getvalue()
            for codec in ['utf-8', 'utf-16', 'utf-16-le', 'utf-16-be', 'latin-1']:
                try:
                    data = text.encode(codec)
                except UnicodeEncodeError:
                    continue
                open(f'{out}/{n}.{codec}.csv', 'wb').write(data)
        """

    static func generate(count: Int, seed: Int) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("csv-dialect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let run = try ChildProcess.run(["python3", "-c", generator, dir.path, String(count), String(seed)])
        #expect(run.status == 0, "\(run)")
        return dir
    }

    /// What the reader says about a file when the factory's checks are on.
    static func open(_ path: String) -> AuditError? {
        var options = CSVOptions()
        options.diagnosesEncoding = true
        do {
            _ = try CSVReader(path: path, displayPath: "people.csv", options: options)
            return nil
        } catch let e as AuditError {
            return e
        } catch {
            return AuditError(.internal, "\(error)")
        }
    }

    @Test("Generated documents: UTF-8 opens; UTF-16 (any byte order, with or without BOM) and Latin-1 with an accent are named")
    func encodingsOfGeneratedDocuments() throws {
        let dir = try Self.generate(count: 150, seed: 13)
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files.count > 400)
        var checked = [String: Int]()
        for name in files {
            let path = dir.appendingPathComponent(name).path
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let codec = name.split(separator: ".")[1]
            let error = Self.open(path)
            switch codec {
            case "utf-8":
                #expect(error == nil, "\(name): \(String(describing: error))")
            case "utf-16", "utf-16-le":
                #expect(error?.message.hasPrefix("people.csv looks UTF-16LE-encoded") == true, "\(name): \(String(describing: error))")
            case "utf-16-be":
                #expect(error?.message.hasPrefix("people.csv looks UTF-16BE-encoded") == true, "\(name): \(String(describing: error))")
            case "latin-1":
                if bytes.allSatisfy({ $0 < 0x80 }) {
                    #expect(error == nil, "\(name) is ASCII")
                } else {
                    #expect(error?.message.hasPrefix("people.csv looks Latin-1 (ISO-8859-1) encoded") == true,
                            "\(name): \(String(describing: error))")
                    #expect(error?.code == .malformedInput)
                }
            default:
                Issue.record("unexpected file \(name)")
            }
            checked[String(codec), default: 0] += 1
        }
        #expect(checked.count == 5, "\(checked)")
    }

    @Test("Without the factory's checks the reader reads any bytes (csv.encoding findings), as before")
    func checksAreOffByDefault() throws {
        let path = try CSVFixture.file(Array("id,name\n1,".utf8) + [0x4A, 0xE9, 0x6E] + Array("\n".utf8))
        let reader = try CSVReader(path: path, options: CSVOptions())
        let chunk = try #require(try reader.nextChunk(maxRecords: 10))
        #expect(chunk.issues.map(\.ruleID) == ["csv.encoding"])
        #expect(Self.open(path)?.location == "people.csv:2:4")
    }

    @Test("A header that splits on another delimiter into the expected fields is a dialect error at 1:1",
          arguments: [(";", "';'"), ("\t", "TAB"), ("|", "'|'")])
    func otherDelimiter(_ d: (String, String)) throws {
        let path = try CSVFixture.file(["id", "name", "age"].joined(separator: d.0) + "\n1\(d.0)Ann\(d.0)30\n")
        let reader = try CSVReader(path: path, displayPath: "people.csv", options: CSVOptions())
        let error = try #require(throws: AuditError.self) {
            try reader.checkDelimiter(expecting: ["id", "name", "age"], source: "people")
        }
        #expect(error.code == .malformedInput)
        #expect(error.location == "people.csv:1:1")
        #expect(error.message.hasPrefix("people.csv looks \(d.1)-delimited, not ','-delimited: its header split on \(d.1) gives 3 of the 3 declared columns."),
                "\(error)")
        // A header that has the fields, or that no other delimiter explains, is left to the engine.
        try reader.checkDelimiter(expecting: ["\(["id", "name", "age"].joined(separator: d.0))"], source: "people")
        let plain = try CSVReader(path: try CSVFixture.file("id,name,age\n"), options: CSVOptions())
        try plain.checkDelimiter(expecting: ["id", "name", "agee"], source: "people")
    }
}
