import Auditor
import Foundation
import TestSupport
@_spi(Testing) @testable import AuditorReaders
import Testing

/// A spreadsheet's `sep=;` first line: the reader takes its delimiter and reads the file from
/// the next line, as Python's `csv` reads the rest with that delimiter; a delimiter the options
/// set otherwise is one error at open, not a table of one column.
@Suite struct CSVSeparatorLineTests {
    /// Writes `count` documents `N.csv` into argv[1]: a `sep=X` line (any case, LF or CRLF, a
    /// byte order mark or not), then rows that Python's `csv` writes with X (quoted delimiters,
    /// quotes and line breaks among them). Prints, per document, the header, the rows and the
    /// physical line each row starts on.
    static let generator = #"""
        import csv, io, json, random, sys
        out, count = sys.argv[1], int(sys.argv[2])
        rnd = random.Random(31)
        words = ["Ann", "a,b", "c;d", "e\tf", "g|h", 'q"q', "line\nbreak", "", "Zoë", "x y"]
        docs = []
        for n in range(count):
            delimiter = rnd.choice([",", ";", "\t", "|"])
            end = rnd.choice(["\n", "\r\n"])
            width = rnd.randint(2, 4)                 # one empty field alone is written "", the empty string
            header = [f"c{i}" for i in range(width)]
            rows = [[rnd.choice(words) for _ in range(width)] for _ in range(rnd.randint(0, 12))]
            text = rnd.choice(["sep=", "SEP=", "Sep="]) + delimiter + end
            buf = io.StringIO()
            w = csv.writer(buf, delimiter=delimiter, lineterminator=end, quoting=csv.QUOTE_MINIMAL)
            w.writerow(header)
            lines, at = [], 2 + 1
            for row in rows:
                before = buf.tell()
                w.writerow(row)
                lines.append(at)
                at += buf.getvalue()[before:].count("\n")
            text += buf.getvalue()
            data = ("\ufeff" if rnd.random() < 0.3 else "") + text
            open(f"{out}/{n}.csv", "w", encoding="utf-8", newline="").write(data)
            back = list(csv.reader(io.StringIO(text.split(end, 1)[1], newline=""), delimiter=delimiter))
            assert back == [header] + rows, (back, rows)
            docs.append({"header": header, "rows": rows, "lines": lines})
        print(json.dumps(docs))
        """#

    @Test("Python's documents behind a sep= line: the delimiter, the names, the values and the lines are Python's, on one thread and on two")
    func differential() throws {
        let python = try #require(CSVGenerated.python, "needs python3")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("csv-sep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try ChildProcess.run([python, "-c", Self.generator, dir.path, "120"])
        try #require(made.status == 0, "\(made)")
        let docs = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: Any]])
        for (n, doc) in docs.enumerated() {
            let header = try #require(doc["header"] as? [String])
            let rows = try #require(doc["rows"] as? [[String]])
            let lines = try #require(doc["lines"] as? [Int])
            // An empty field is missing (the default nullValues); Python writes it as nothing too.
            let expected = zip(rows, lines).map { DecodedRecord(location: Int64($1), values: $0.map { $0.isEmpty ? nil : $0 }) }
            for parallelism in [1, 2] {
                let path = dir.appendingPathComponent("\(n).csv").path
                let records = try ReaderConformance.check {
                    let reader = try CSVReader(path: path, options: CSVOptions(), bufferCapacity: 8, parallelism: parallelism,
                                               segmentBytes: 16)
                    #expect(reader.schema.fields == header, "\(n).csv")
                    return reader
                }
                #expect(records == expected, "\(n).csv, \(parallelism) thread(s)")
            }
        }
    }

    @Test("A delimiter set otherwise, or the quote, is one error at the sep= line; other first lines are the header")
    func disagreements() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("csv-sep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        func open(_ text: String, _ options: CSVOptions = CSVOptions()) -> Result<[String], AuditError> {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                return .success(try CSVReader(path: path, displayPath: "t.csv", options: options).schema.fields)
            } catch let e as AuditError {
                return .failure(e)
            } catch {
                return .failure(AuditError(.internal, "\(error)"))
            }
        }
        func failure(_ r: Result<[String], AuditError>) -> String? {
            if case .failure(let e) = r { return "\(e.code) \(e.location ?? ""): \(e.message)" }
            return nil
        }
        var comma = CSVOptions()
        comma.delimiterGiven = true
        #expect(failure(open("sep=;\na;b\n1;2\n", comma)) == "malformedInput t.csv:1:1: the first line 'sep=;' says that fields are "
                + "separated by ';', but the csv options say ','; remove that line from the file, or set delimiter: to it")
        #expect(failure(open("sep=\"\na\"b\n"))?.contains("but the quote is '\"'") == true)
        // The same delimiter as the options say: the line is skipped.
        #expect(try open("sep=,\na,b\n", comma).get() == ["a", "b"])
        // Only the line itself: an empty file.
        #expect(failure(open("sep=;"))?.contains("empty file") == true)
        // Not a sep= line: the header.
        #expect(try open("sep=;x\n1\n").get() == ["sep=;x"])
        #expect(try open("sep\n1\n").get() == ["sep"])
        // The profile's sniff takes the line's word, whatever the rows look like.
        _ = open("\u{FEFF}sep=|\r\na|b,c\n1|2,3\n")
        #expect(CSVReader.sniffOptions(path: path, displayPath: "t.csv") == ["delimiter": "|"])
    }
}
