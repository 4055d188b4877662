import Auditor
import Foundation
import TestSupport
@testable import AuditorReports
import Testing

/// The reports' own words (`report:` in `rules/messages/*.yml`, ``ReportPhrases``): the shipped
/// catalogs against the built-in English, plurals and number marks, and French goldens.
@Suite("Report chrome")
struct ReportChromeTests {
    static func french() throws -> ReportWording { ReportWording(try MessageCatalogTests.load("fr")) }

    @Test("en.yml's report: section is exactly the built-in English phrases")
    func englishMatchesBuiltIn() throws {
        let en = try MessageCatalogTests.load("en")
        #expect(en.report == ReportPhrases.templates)
    }

    @Test("fr.yml translates every report phrase, with only the placeholders of its English template")
    func frenchIsComplete() throws {
        let fr = try MessageCatalogTests.load("fr")
        #expect(Set(fr.report.keys) == Set(ReportPhrases.templates.keys))
        for (key, english) in ReportPhrases.templates {
            let french = try #require(fr.report[key], "\(key)")
            let fp = Set(try MessageTemplate(french, language: "fr").placeholders)
            #expect(fp.isSubset(of: ReportPhrases.placeholders(of: key) ?? []), "\(key)")
            // Words that read the same in both languages.
            if !["entity.source", "inputs.source", "html.code"].contains(key) { #expect(french != english, "\(key) is not translated") }
        }
    }

    @Test("count phrases agree with their number: 0 and 1 are singular in French, not in English; 1,000 is grouped",
          arguments: [(0, "0 records", "0 enregistrement"), (1, "1 record", "1 enregistrement"),
                      (2, "2 records", "2 enregistrements"), (1000, "1,000 records", "1\u{202F}000 enregistrements"),
                      (1_234_567, "1,234,567 records", "1\u{202F}234\u{202F}567 enregistrements")])
    func plurals(_ count: Int, _ english: String, _ french: String) throws {
        let fr = try Self.french(), en = ReportWording.english
        #expect(en("entity.records", ["count": en.number(NumberText.grouped(count))]) == english)
        #expect(fr("entity.records", ["count": fr.number(NumberText.grouped(count))]) == french)
    }

    @Test("rules not evaluated and rules passed agree in French (0, 1: singular)")
    func frenchAgreement() throws {
        let fr = try Self.french()
        #expect(fr("entity.passed", ["count": "0"]) == "0 règle respectée")
        #expect(fr("entity.passed", ["count": "1"]) == "1 règle respectée")
        #expect(fr("entity.passed", ["count": "2"]) == "2 règles respectées")
        #expect(fr("head.rules", ["rules": "2", "unevaluated": "0"]) == "2 règles")
        #expect(fr("head.rules", ["rules": "2", "unevaluated": "1"]) == "2 règles (1 non évaluée)")
        #expect(fr("head.rules", ["rules": "3", "unevaluated": "2"]) == "3 règles (2 non évaluées)")
        #expect(ReportWording.english("head.rules", ["rules": "1", "unevaluated": "0"]) == "1 rule")
    }

    @Test("lists join with the catalog's 'and': a, b and c / a, b et c")
    func lists() throws {
        let fr = try Self.french(), en = ReportWording.english
        #expect(en.list(["a"]) == "a" && en.list(["a", "b"]) == "a and b" && en.list(["a", "b", "c"]) == "a, b and c")
        #expect(fr.list(["a", "b", "c"]) == "a, b et c" && fr.list([]) == "")
    }

    /// Python's own grouping (`format(n, ',')`) as the reference for the marks, on random numbers.
    @Test("number marks: English grouping matches Python's format(n, ','); French swaps in U+202F and ','")
    func groupingAgainstPython() throws {
        var rng = SystemRandomNumberGenerator()
        let numbers = (0 ..< 200).map { i in i < 20 ? i * 999 : Int.random(in: 0 ... 9_999_999_999, using: &rng) }
        let script = "import sys\nfor l in sys.stdin.read().split():\n    print(format(int(l), ','))\n"
        let run = try ChildProcess.run(["python3", "-c", script], input: Data(numbers.map(String.init).joined(separator: "\n").utf8))
        let python = run.stdoutText.split(separator: "\n").map(String.init)
        try #require(python.count == numbers.count)
        let fr = try Self.french()
        for (n, reference) in zip(numbers, python) {
            #expect(ReportWording.english.number(NumberText.grouped(n)) == reference)
            #expect(fr.number(NumberText.grouped(n)) == reference.replacingOccurrences(of: ",", with: "\u{202F}"))
        }
        #expect(fr("number.percent", ["rate": fr.number("1.20")]) == "1,20\u{202F}%")
    }

    @Test("French text report of every fixture matches its golden", arguments: Fixture.all)
    func frenchText(_ fixture: Fixture) throws {
        Golden.check(TextReporter(wording: try Self.french()).render(fixture.report), named: "\(fixture.name).fr.txt")
    }

    @Test("French Markdown report of every fixture matches its golden", arguments: Fixture.all)
    func frenchMarkdown(_ fixture: Fixture) throws {
        Golden.check(MarkdownReporter(wording: try Self.french()).render(fixture.report), named: "\(fixture.name).fr.md")
    }

    @Test("the English wording is the reporters' default: text and Markdown are unchanged")
    func englishDefault() throws {
        let en = ReportWording(try MessageCatalogTests.load("en"))
        for fixture in Fixture.all {
            #expect(TextReporter(verbose: true, wording: en).render(fixture.report) == TextReporter(verbose: true).render(fixture.report))
            #expect(MarkdownReporter(wording: en).render(fixture.report) == MarkdownReporter().render(fixture.report))
        }
    }
}
