import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// The HTML report's frame in the `--locale` catalog's words (`html.*` and the shared
/// `report:` phrases): a French golden, a scan of every fixture's French page for the English
/// phrases, and the page's script, which takes its words from the page.
@Suite("HTML report chrome")
struct HTMLChromeTests {
    @Test("French HTML report of the baseline fixture matches its golden")
    func frenchGolden() throws {
        Golden.check(HTMLReporter(wording: try ReportChromeTests.french()).render(Fixture.baseline.report), named: "baseline.fr.html")
    }

    /// The page without its scripts (the data island holds the fixtures' English messages).
    static func markup(_ page: String) -> String {
        var out = "", rest = Substring(page)
        while let open = rest.range(of: "<script"), let close = rest.range(of: "</script>", range: open.upperBound..<rest.endIndex) {
            out += rest[..<open.lowerBound]
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The text between tags, and the values of attributes people read.
    static func texts(_ markup: String) -> [String] {
        let unescaped = { (s: String) in
            s.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        var texts = markup.split(separator: "<").compactMap { piece -> String? in
            guard let end = piece.firstIndex(of: ">") else { return nil }
            return unescaped(String(piece[piece.index(after: end)...]))
        }
        for attribute in ["placeholder", "aria-label", "title"] {
            for piece in markup.components(separatedBy: "\(attribute)=\"").dropFirst() {
                texts.append(unescaped(String(piece.prefix { $0 != "\"" })))
            }
        }
        return texts
    }

    /// English that must not appear in a French page: whole phrases without placeholders (and
    /// each column of a column list) that French words differently, and every run of at least
    /// ten characters with a space between placeholders of the other phrases.
    static func english(_ fr: MessageCatalog) -> (whole: Set<String>, fragments: Set<String>) {
        var whole = Set<String>(), fragments = Set<String>()
        for (key, en) in ReportPhrases.templates {
            guard let french = fr.report[key], french != en, !key.hasPrefix("number."), !key.hasPrefix("punctuation.") else { continue }
            if !en.contains("{") {
                let pairs = key.contains("columns")
                    ? Array(zip(en.components(separatedBy: " | "), french.components(separatedBy: " | "))) : [(en, french)]
                for (e, f) in pairs where e != f { whole.insert(e) }
            }
            for piece in en.split(whereSeparator: { "{}#".contains($0) }) {
                let words = piece.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
                if words.count >= 10, words.contains(" "), !words.contains(", plural"), !words.contains(", select") {
                    fragments.insert(words)
                }
            }
        }
        return (whole, fragments)
    }

    @Test("a French page has none of the English phrases of its frame", arguments: Fixture.all)
    func noEnglish(_ fixture: Fixture) throws {
        let catalog = try MessageCatalogTests.load("fr")
        let (whole, fragments) = Self.english(catalog)
        #expect(whole.contains("Summary") && whole.contains("Show more") && whole.contains("Path"))
        #expect(fragments.contains("failing rules only") && fragments.contains("more not shown"))
        for (name, page) in [("fr", HTMLReporter(wording: ReportWording(catalog)).render(fixture.report)),
                             ("en", HTMLReporter().render(fixture.report))] {
            let texts = Self.texts(Self.markup(page)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let found = texts.filter { whole.contains($0) }
                + fragments.filter { f in texts.contains { $0.contains(f) } }
            if name == "fr" {
                #expect(found.isEmpty, "\(fixture.name): \(found)")
                #expect(page.contains("<html lang=\"fr\">"))
            } else {
                // The scan can fail: the English page shows them.
                #expect(!found.isEmpty && page.contains("<html lang=\"en\">"))
            }
        }
    }

    @Test("the page's script shows only words the page gives it (script#report-phrases), in the catalog's language")
    func scriptWords() throws {
        for english in ["Showing", "Show more", "matching", "\"missing\"", "\"code \"", "value '"] {
            #expect(!HTMLAssets.js.contains(english), "\(english)")
        }
        let page = HTMLReporter(wording: try ReportChromeTests.french()).render(Fixture.failing.report)
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"report-phrases\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        #expect(json["lang"] as? String == "fr")
        #expect(json["group"] as? String == "\u{202F}")
        #expect(json["pager"] as? String == "{shown} sur {total} {noun} affichés")
        #expect(json["missing"] as? String == "absente")
        #expect(json["value"] as? String == "valeur '{value}'")
        let samples = try #require(json["sample"] as? [String: String])
        #expect(samples == ["one": "exemple", "other": "exemples"])
        let english = HTMLReporter().render(Fixture.failing.report)
        #expect(english.contains("\"pager\":\"Showing {shown} of {total} {noun}\""))
    }
}

extension HTMLChromeTests {
    @Test("in Chromium, a French page's filter status is French, with French plurals",
          .enabled(if: BrowserTests.chromium != nil, BrowserTests.skipMessage))
    func frenchFilterInBrowser() throws {
        let page = HTMLReporter(wording: try ReportChromeTests.french()).render(Fixture.failing.report)
        let (dom, log) = try BrowserTests.load(BrowserTests.typing("carol", failingOnly: false, into: page), name: "filter-fr.html")
        #expect(!log.contains("Content Security Policy"), "\(log.suffix(2000))")
        #expect(dom.contains("Affichés : 1 sur 11 règles, 1 sur 11 exemples, 1 sur 6 enregistrements"), "\(dom.suffix(3000))")
        #expect(!dom.contains("Showing"))
    }
}
