import Auditor
@_spi(Testing) import AuditorReaders
import Testing

/// Hand-built configuration nodes (the core has no YAML loader for tests to use).
enum Node {
    static func mark(_ line: Int, _ column: Int) -> ConfigMark {
        ConfigMark(file: "rules.yml", line: line, column: column)
    }

    static func scalar(_ text: String, _ line: Int, _ column: Int, quoted: Bool = false) -> ConfigNode {
        ConfigNode(.scalar(text, quoted: quoted), mark: mark(line, column))
    }

    static func list(_ line: Int, _ column: Int, _ items: [String]) -> ConfigNode {
        let nodes = items.enumerated().map { scalar($1, line, column + 1 + 4 * $0, quoted: true) }
        return ConfigNode(.sequence(nodes), mark: mark(line, column))
    }

    /// A block mapping at `line`: each key on its own line after it, values at column 15.
    static func map(_ line: Int, _ pairs: KeyValuePairs<String, ConfigNode>) -> ConfigNode {
        let entries = pairs.enumerated().map { index, pair in
            (key: scalar(pair.key, line + 1 + index, 3), value: pair.value)
        }
        return ConfigNode(.mapping(entries), mark: mark(line, 3))
    }
}

@Suite struct CSVOptionsTests {
    @Test func absentOrNullBlockGivesDefaults() {
        for node in [nil, Node.scalar("", 2, 6), Node.scalar("null", 2, 6)] as [ConfigNode?] {
            let (options, problems) = CSVOptions.decode(node)
            #expect(problems.isEmpty)
            #expect(options == CSVOptions())
        }
        #expect(CSVOptions.decode(nil, defaultDelimiter: 9).0.delimiter == 9)
    }

    @Test func everyKeyDecodes() {
        let node = Node.map(1, [
            "delimiter": Node.scalar(";", 2, 15, quoted: true),
            "quote": Node.scalar("'", 3, 15, quoted: true),
            "header": Node.scalar("false", 4, 15),
            "columns": Node.list(5, 15, ["id", "name"]),
            "nullValues": Node.list(6, 15, ["", "NA", "null"]),
            "encoding": Node.scalar("UTF-8", 7, 15),
        ])
        let (options, problems) = CSVOptions.decode(node)
        #expect(problems.isEmpty)
        #expect(options == CSVOptions(delimiter: UInt8(ascii: ";"), quote: UInt8(ascii: "'"), header: false,
                                      columns: ["id", "name"], nullValues: ["", "NA", "null"]))
    }

    @Test(arguments: ["\t", "\\t", "tab", "TAB"])
    func tabSpellings(text: String) {
        let node = Node.map(1, ["delimiter": Node.scalar(text, 2, 15, quoted: true)])
        let (options, problems) = CSVOptions.decode(node)
        #expect(problems.isEmpty)
        #expect(options.delimiter == 9)
    }

    @Test func everyProblemIsLocated() {
        let node = Node.map(1, [
            "delimeter": Node.scalar(";", 2, 15),
            "delimiter": Node.scalar(";;", 3, 15),
            "quote": Node.list(4, 15, ["x"]),
            "header": Node.scalar("maybe", 5, 15),
            "columns": Node.list(6, 15, ["id", "", "id"]),
            "nullValues": Node.scalar("NA", 7, 15),
            "encoding": Node.scalar("koi8-r", 8, 15),
            "colour": Node.scalar("red", 9, 15),
        ])
        let problems = CSVOptions.decode(node).1
        let expected: [(Int, Int, String)] = [
            (2, 3, "unknown key 'delimeter' in the csv options; did you mean 'delimiter'?"),
            (9, 3, "unknown key 'colour' in the csv options (expected one of: delimiter, quote, header, columns, nullValues, explicitNullValues, encoding, decimalComma, thousandsComma, dateFormat)"),
            (3, 15, "delimiter must be a single ASCII character (write \"\\t\" or tab for a TAB); got ';;'"),
            (4, 15, "quote must be a string, not a list"),
            (5, 15, "header must be true or false; got 'maybe'"),
            (6, 20, "columns: item 2 is empty; every field needs a name"),
            (6, 24, "columns: 'id' is listed twice (items 1 and 3)"),
            (7, 15, "nullValues must be a list, not a scalar"),
            (8, 15, "encoding 'koi8-r' is not supported"),
        ]
        #expect(problems.count == expected.count, "\(problems)")
        for (problem, (line, column, text)) in zip(problems, expected) {
            #expect(problem.mark == Node.mark(line, column))
            #expect(problem.message.hasPrefix(text), "\(problem)")
        }
    }

    @Test func headerFalseNeedsColumns() {
        let problems = CSVOptions.decode(Node.map(1, ["header": Node.scalar("false", 2, 15)])).1
        #expect(problems.map(\.mark) == [Node.mark(2, 15)])
        #expect(problems.first?.message.hasPrefix("columns is required when header is false") == true)
    }

    @Test func delimiterAndQuoteMustDiffer() {
        let node = Node.map(1, ["delimiter": Node.scalar("'", 2, 15), "quote": Node.scalar("'", 3, 15)])
        let problems = CSVOptions.decode(node).1
        #expect(problems.map(\.mark) == [Node.mark(3, 15)])
    }

    @Test func otherShapes() {
        #expect(CSVOptions.decode(Node.list(1, 6, ["a"])).1.map(\.message) == ["the csv options must be a mapping, not a list"])
        let problems = CSVOptions.decode(Node.map(1, [
            "delimiter": Node.scalar("\n", 2, 15, quoted: true),
            "quote": Node.scalar("é", 3, 15, quoted: true),
            "columns": Node.list(4, 15, []),
        ])).1
        #expect(problems.map(\.mark) == [Node.mark(2, 15), Node.mark(3, 15), Node.mark(4, 15)])
    }

    @Test func factoryDecodesOnceAndRefusesBadOptions() throws {
        let bad = Node.map(1, ["quoet": Node.scalar("'", 2, 15)])
        #expect { try CSVReader.factory.decodeOptions(bad) } throws: { error in
            guard let error = error as? AuditError else { return false }
            return error.code == .invalidRules && error.diagnostics.map(\.mark) == [Node.mark(2, 3)]
        }
        #expect(CSVReader.factory.format == "csv")
        #expect(CSVReader.factory.extensions == ["csv", "tsv"])
        // The typed options answer declared fields, and the reader is made with them.
        let good = Node.map(1, ["delimiter": Node.scalar(";", 2, 15), "header": Node.scalar("false", 3, 12),
                                "columns": Node.list(4, 13, ["x", "y"])])
        let options = try CSVReader.factory.decodeOptions(good)
        #expect(options.declaredFields == ["x", "y"])
        #expect(options.fieldShapes == [:])
        let path = try CSVFixture.file("1;2\n")
        let reader = try CSVReader.factory.open(ReaderRequest(sourceName: "p", path: path, displayPath: "p.csv",
                                                              options: options, fields: ["x", "y"]))
        #expect(reader.schema.fields == ["x", "y"])
        #expect(try reader.nextChunk(maxRecords: 10)?.count == 1)
    }
}
