import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// The delimiter `auditor profile` reads a CSV file with when no rules file names one
/// (``CSVReader/sniffDelimiter(_:whole:default:)``). End to end, on tables written by Python's
/// csv module: `ProfileDelimiterTests`.
@Suite struct CSVSniffTests {
    static func sniff(_ text: String, whole: Bool = true, default standard: Character = ",") -> Character {
        let found = CSVReader.sniffDelimiter(Array(text.utf8), whole: whole, default: standard.asciiValue!)
        return Character(UnicodeScalar(found))
    }

    @Test("Each candidate is found when it alone splits the header and the records alike")
    func eachCandidate() {
        #expect(Self.sniff("id,name\n1,Ann\n2,Bob\n") == ",")
        #expect(Self.sniff("id;name;amount\r\n1;Ann;3,50\r\n2;Bob;\r\n") == ";")
        #expect(Self.sniff("id\tname\n1\tAnn\n") == "\t")
        #expect(Self.sniff("id|name\n1|Ann\n") == "|")
        #expect(Self.sniff("id,name\n1,Ann\n", default: "\t") == ",", "a .tsv path holding commas")
    }

    @Test("Decimal commas, and a comma in a header name, do not make a ';' file comma-delimited")
    func decimalCommas() {
        // Split on ',' the header is 2 fields and so is every record; on ';' both are 4.
        let text = "id;name;price, EUR;qty\n1;Ann;3,50;2\n2;Bob;4,75;1\n3;Cy;0,99;7\n"
        #expect(Self.sniff(text) == ";")
    }

    @Test("Quoted fields hide delimiters and line breaks; doubled quotes stay inside")
    func quoting() {
        let text = "\"a;b\",\"c\"\"d\"\n\"1;2\",\"x\ny;z\"\n\"3\",\"w\"\n"
        #expect(Self.sniff(text) == ",")
        #expect(CSVReader.fieldCounts(Array(text.utf8), delimiter: UInt8(ascii: ","), whole: true) == [2, 2, 2])
        // Split on ';', a quote inside a field is a character: the line break after `"x` ends a record.
        #expect(CSVReader.fieldCounts(Array(text.utf8), delimiter: UInt8(ascii: ";"), whole: true) == [1, 1, 2, 1])
    }

    @Test("One ragged record in twenty is tolerated; a header alone decides; one column keeps the default")
    func tolerance() {
        var text = "a;b;c\n"
        for i in 0 ..< 19 { text += "\(i);x;y\n" }
        text += "19;only two\n"
        #expect(Self.sniff(text) == ";")
        #expect(Self.sniff("a;b;c\n") == ";")
        #expect(Self.sniff("name\nAnn\nBob, Jr.\n") == ",", "no candidate splits the header: the default")
        #expect(Self.sniff("") == ",")
        // Split on ';' the header is 3 fields but most records are 2: not a table.
        #expect(Self.sniff("a;b;c\n1;2\n3;4\n5;6\n") == ",")
    }

    @Test("A tie keeps the path's default; then the candidates' order decides")
    func ties() {
        #expect(Self.sniff("a;b,c\n1;2,3\n") == ",")
        #expect(Self.sniff("a;b|c\n1;2|3\n") == ";")
        #expect(Self.sniff("a;b|c\n1;2|3\n", default: "|") == "|")
    }

    @Test("A record cut off by the end of the sample is left out, unless the sample is the whole file")
    func cutRecords() {
        let text = "a;b\n1;2\n3"
        #expect(CSVReader.fieldCounts(Array(text.utf8), delimiter: UInt8(ascii: ";"), whole: false) == [2, 2])
        #expect(CSVReader.fieldCounts(Array(text.utf8), delimiter: UInt8(ascii: ";"), whole: true) == [2, 2, 1])
        // An open quote at the end of the sample is a cut record too.
        #expect(CSVReader.fieldCounts(Array("a;b\n\"1\n".utf8), delimiter: UInt8(ascii: ";"), whole: true) == [2])
        // Blank lines and CRLF line ends are not records.
        #expect(CSVReader.fieldCounts(Array("a;b\r\n\r\n\n1;2\r\n".utf8), delimiter: UInt8(ascii: ";"), whole: true) == [2, 2])
    }

    @Test("The sniff reads compressed files through, and says nothing of a file it cannot open")
    func files() throws {
        let dir = try ScratchRoot.folder("csv-sniff")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("semi.csv")
        try Data("id;name\n1;Ann\n".utf8).write(to: plain)
        #expect(CSVReader.sniffOptions(path: plain.path, displayPath: "semi.csv") == ["delimiter": ";"])
        if CompressedFixture.has("gzip") {
            let gzip = dir.appendingPathComponent("semi.csv.gz")
            try CompressedFixture.gzip(Data(contentsOf: plain)).write(to: gzip)
            #expect(CSVReader.sniffOptions(path: gzip.path, displayPath: "semi.csv.gz") == ["delimiter": ";"])
        }
        let tsv = dir.appendingPathComponent("tabs.tsv")
        try Data("id\tname\n1\tAnn\n".utf8).write(to: tsv)
        #expect(CSVReader.sniffOptions(path: tsv.path, displayPath: "tabs.tsv") == [:], "TAB is a .tsv's default")
        #expect(CSVReader.sniffOptions(path: dir.appendingPathComponent("absent.csv").path, displayPath: "absent.csv") == [:])
    }
}
