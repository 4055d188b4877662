import Foundation
import Testing

/// `--locale` end to end: catalogs by kind, located catalog errors, plurals, composite
/// foreign keys, messages written in several languages, and the done-when scan.
@Suite("Message catalogs end to end")
struct LocaleCatalogTests {
    static let rules = """
        version: 1
        sources:
          regions: { path: regions.csv }
          shops: { path: shops.csv }
        entities:
          Region:
            source: regions
            key: [country, code]
            attributes: { country: string, code: string }
          Shop:
            source: shops
            key: [id]
            attributes:
              id: integer
              name: { type: string, minLength: 1 }
              country: string
              region: string
            relationships:
              area: { attributes: [country, region], references: "Region.(country, code)" }

        """
    static let regions = "country,code\nGB,1\nFR,2\n"
    static let shops = "id,name,country,region\n1,A,GB,1\n2,,GB,2\n3\n"

    static func workspace(catalog: String? = nil) throws -> Scratch {
        let tmp = try Scratch("locale")
        try tmp.write("rules.yml", rules)
        try tmp.write("regions.csv", regions)
        try tmp.write("shops.csv", shops)
        try tmp.copy(fromPackage: "rules/messages/fr.yml", as: "messages/fr.yml")
        if let catalog { try tmp.write("messages/xx.yml", catalog) }
        return tmp
    }

    @Test("a composite foreign key names every attribute and value, in English and French; plurals agree")
    func compositeForeignKeyAndPlurals() throws {
        let tmp = try Self.workspace()
        defer { tmp.remove() }
        let en = try assertExecute(["run", "rules.yml", "--color", "never"], in: tmp.url, exitCode: 1)
        #expect(en.stdoutText.contains("(country, region) = ('GB', '2') does not reference an existing Region"), "\(en)")
        #expect(!en.stdoutText.contains("country 'GB, 2'"), "\(en)")
        #expect(en.stdoutText.contains("Record has 1 field; the header has 4."), "\(en)")
        let fr = try assertExecute(["run", "rules.yml", "--locale", "fr", "--color", "never"], in: tmp.url, exitCode: 1)
        #expect(fr.stdoutText.contains("(country, region) = ('GB', '2') ne désigne aucun Region existant"), "\(fr)")
        #expect(fr.stdoutText.contains("L'enregistrement compte 1 champ ; l'en-tête en compte 4."), "\(fr)")
        // The JSON value stays the joined key (unchanged field).
        let json = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        #expect(json.stdoutText.range(of: #""value"\s*:\s*"GB, 2""#, options: .regularExpression) != nil, "\(json)")
    }

    @Test("a catalog translates foreign keys and table rules by kind")
    func byKind() throws {
        let tmp = try Self.workspace(catalog: """
            locale: xx
            constraints:
              fk.composite: "XX-FK {attributes} {values} {target}"
              minLength: "XX-LEN {field} {minLength, plural, one {# char} other {# chars}}"
            rules:
              csv.row.ragged: "XX-RAGGED {fields, plural, one {# field} other {# fields}}"
            """)
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--locale", "xx", "--color", "never"], in: tmp.url, exitCode: 1)
        #expect(run.stdoutText.contains("XX-FK country, region 'GB', '2' Region"), "\(run)")
        #expect(run.stdoutText.contains("XX-RAGGED 1 field"), "\(run)")
    }

    @Test("display names: entities and attributes read as the catalog names them in every message")
    func displayNames() throws {
        var catalog = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("rules/messages/fr.yml"), encoding: .utf8)
        catalog = catalog.replacingOccurrences(of: "locale: fr\n", with: "locale: fr\n")
            + "names:\n  Region: Région\n  country: pays\n  Shop.region: région\n  Shop: Boutique\n"
        let tmp = try Self.workspace(catalog: catalog)
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules.replacingOccurrences(of: "region: string\n", with: "region: string\n    rowCount: { min: 9 }\n"))
        let run = try assertExecute(["run", "rules.yml", "--locale", "xx", "--color", "never"], in: tmp.url, exitCode: 1)
        #expect(run.stdoutText.contains("(pays, région) = ('GB', '2') ne désigne aucun Région existant"), "\(run)")
        #expect(run.stdoutText.contains("Boutique compte 3 enregistrements ; attendu : au moins 9."), "\(run)")
        // Without the catalog, the names of the rules file.
        let plain = try assertExecute(["run", "rules.yml", "--color", "never"], in: tmp.url, exitCode: 1)
        #expect(plain.stdoutText.contains("(country, region) = ('GB', '2') does not reference an existing Region"), "\(plain)")
        #expect(plain.stdoutText.contains("Shop has 3 records; expected at least 9."), "\(plain)")
        // A name that is no entity or attribute is a located error.
        try tmp.write("messages/xx.yml", catalog + "  Shop.regoin: x\n")
        let bad = try assertExecute(["run", "rules.yml", "--locale", "xx"], in: tmp.url, exitCode: 78)
        #expect(bad.stderrText.contains("messages/xx.yml:\(catalog.split(separator: "\n").count + 1):3: the catalog names 'Shop.regoin'"), "\(bad)")
        #expect(bad.stderrText.contains("did you mean 'Shop.region'?"), "\(bad)")
    }

    @Test("catalog mistakes are errors located in the catalog (exit 78)", arguments: [
        // an unknown kind, at its key
        ("constraints:\n  fkey: \"x\"\n", "messages/xx.yml:3:3: unknown message kind 'fkey'"),
        // a misspelled placeholder, at the message
        ("constraints:\n  fk.composite: \"{atributes}\"\n", "messages/xx.yml:3:17: unknown placeholder '{atributes}'"),
        // an unknown rule id, at the message
        ("rules:\n  Shop.area.fkk: \"x\"\n", "messages/xx.yml:3:18: the catalog translates 'Shop.area.fkk', which is not a rule"),
        // a placeholder the rule does not have, at the message
        ("rules:\n  Shop.area.fk: \"{minLength}\"\n", "messages/xx.yml:3:17: unknown placeholder '{minLength}' in the message of 'Shop.area.fk'"),
        ("rules:\n  Shop.name.minLength: \"{max}\"\n", "messages/xx.yml:3:24: unknown placeholder '{max}' in the message of 'Shop.name.minLength'"),
        // a summary with a misspelled placeholder
        ("summaries:\n  min: \"{feild} >= {min}\"\n", "messages/xx.yml:3:8: unknown placeholder '{feild}' in the 'min' summary"),
        // a structural message with a wrong placeholder
        ("rules:\n  csv.row.ragged: \"{feilds}\"\n", "messages/xx.yml:3:19: unknown placeholder '{feilds}' in the 'csv.row.ragged' message"),
    ])
    func locatedErrors(_ body: String, _ expected: String) throws {
        let tmp = try Self.workspace(catalog: "locale: xx\n" + body)
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--locale", "xx"], in: tmp.url, exitCode: 78)
        #expect(run.stderrText.contains(expected), "\(run)")
        #expect(!run.stderrText.contains("rules.yml:"), "located in the rules file\n\(run)")
    }

    @Test("a message written in several languages: --locale picks, en otherwise; the bundled example's French")
    func messageMaps() throws {
        let tmp = try Scratch("locale-map")
        defer { tmp.remove() }
        try tmp.write("rules.yml", """
            version: 1
            sources: { s: { path: s.csv } }
            entities:
              T:
                source: s
                attributes:
                  n: { type: integer, min: 5, message: { en: "EN {value}", fr: "FR {value}" } }
                  m: { type: integer, max: 1, message: { de: "DE {value}" } }

            """)
        try tmp.write("s.csv", "n,m\n1,2\n")
        try tmp.copy(fromPackage: "rules/messages/fr.yml", as: "messages/fr.yml")
        let en = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 1)
        #expect(en.stdoutText.contains("EN 1") && en.stdoutText.contains("m must be at most 1; got 2."), "\(en)")
        let fr = try assertExecute(["run", "rules.yml", "--locale", "fr-CA"], in: tmp.url, exitCode: 1)
        #expect(fr.stdoutText.contains("FR 1") && fr.stdoutText.contains("m doit valoir au plus 1 ; reçu 2."), "\(fr)")
        try tmp.write("rules.yml", "version: 1\nsources: { s: { path: s.csv } }\nentities:\n  T:\n    source: s\n"
                          + "    attributes:\n      n: { type: integer, min: 5, message: { english: \"x\" } }\n")
        let bad = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 78)
        #expect(bad.stderrText.contains("rules.yml:7:46: 'english' is not a language tag"), "\(bad)")
    }

    /// The literal fragments of every `en` template (text between placeholders, 10+ characters).
    /// - Parameter report: Include the `report:` section (the reports' own words).
    static func englishFragments(report: Bool = true) throws -> [String] {
        let text = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("rules/messages/en.yml"), encoding: .utf8)
        var fragments = Set<String>()
        var section = ""
        for line in text.split(separator: "\n") {
            if let first = line.first, first.isLetter { section = String(line.prefix { $0 != ":" }) }
            guard !line.hasPrefix("#"), line.hasPrefix("  "), line.contains(": \""), report || section != "report" else { continue }
            guard let start = line.range(of: ": \"") else { continue }
            let template = line[start.upperBound...].dropLast()
            // Cut at every brace, comma-led plural syntax, `#` and quote.
            for piece in template.split(whereSeparator: { "{}#'".contains($0) }) {
                let words = piece.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
                if words.count >= 10, words.contains(" "), !words.contains(", plural"), !words.contains(", select") {
                    fragments.insert(words)
                }
            }
        }
        return fragments.sorted()
    }

    /// The `report:` phrases of a shipped catalog, by key (`rules/messages/<name>.yml`).
    static func reportPhrases(_ name: String) throws -> [String: String] {
        let text = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("rules/messages/\(name).yml"), encoding: .utf8)
        var phrases: [String: String] = [:], inReport = false
        for line in text.split(separator: "\n") {
            if let first = line.first, first.isLetter { inReport = line.hasPrefix("report:") }
            guard inReport, line.hasPrefix("  "), let colon = line.range(of: ": \"") else { continue }
            phrases[line[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)] = String(line[colon.upperBound...].dropLast())
        }
        return phrases
    }

    /// English words of the HTML frame that French words differently and that have no
    /// placeholder (`Summary`, `Show more`, each column of `Path | Source | …`): a French page
    /// must not show one as a whole text or attribute.
    static func englishWords() throws -> Set<String> {
        let en = try reportPhrases("en"), fr = try reportPhrases("fr")
        var words = Set<String>()
        for (key, english) in en where !english.contains("{") && !key.hasPrefix("number.") && !key.hasPrefix("punctuation.") {
            guard let french = fr[key], french != english else { continue }
            let pairs = key.contains("columns")
                ? Array(zip(english.components(separatedBy: " | "), french.components(separatedBy: " | "))) : [(english, french)]
            for (e, f) in pairs where e != f { words.insert(e) }
        }
        return words
    }

    /// The texts between the tags of `page` and its `placeholder`, `aria-label` and `title`
    /// values, unescaped, without the data island (the report's own values).
    static func htmlTexts(_ page: String) -> [String] {
        var markup = page
        if let start = markup.range(of: "<script type=\"application/json\" id=\"report-data\">"),
           let end = markup.range(of: "</script>", range: start.upperBound..<markup.endIndex) {
            markup.removeSubrange(start.lowerBound..<end.upperBound)
        }
        var texts = markup.split(separator: "<").compactMap { piece -> String? in
            piece.firstIndex(of: ">").map { htmlUnescaped(String(piece[piece.index(after: $0)...])) }
        }
        for attribute in ["placeholder", "aria-label", "title"] {
            for piece in markup.components(separatedBy: "\(attribute)=\"").dropFirst() {
                texts.append(htmlUnescaped(String(piece.prefix { $0 != "\"" })))
            }
        }
        return texts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    static func htmlUnescaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("--locale fr on the bundled example and examples/snapshots prints no en template (text and HTML)")
    func noEnglishTemplates() throws {
        let fragments = try Self.englishFragments()
        let words = try Self.englishWords()
        #expect(fragments.count > 100, "\(fragments)")
        #expect(fragments.contains("with findings") && fragments.contains("not read completely"))
        #expect(fragments.contains("failing rules only") && fragments.contains("Rules by entity"))
        #expect(words.contains("Summary") && words.contains("Show more") && words.contains("Path") && words.contains("passed"))
        #expect(fragments.contains("does not reference an existing"))
        let tmp = try Scratch("locale-scan")
        defer { tmp.remove() }
        let env = ["AUDITOR_MESSAGES_PATH": Auditor.packageRoot.appendingPathComponent("rules/messages").path]
        let runs: [[String]] = [
            ["run", "rules/people.yml"],
            ["run", "examples/snapshots/rules.yml", "--previous", "docs=examples/snapshots/2026-11-20/docs.csv",
             "--previous", "folders=examples/snapshots/2026-11-20/folders.csv"],
        ]
        for (i, args) in runs.enumerated() {
            let html = tmp.path("report\(i).html")
            let run = try assertExecute(args + ["--locale", "fr", "--color", "never", "-v", "--report", "html:\(html)"],
                                        exitCode: 1, environment: env)
            let raw = try String(contentsOfFile: html, encoding: .utf8)
            let page = Self.htmlUnescaped(raw)
            let texts = Self.htmlTexts(raw)
            #expect(raw.contains("<html lang=\"fr\">") && raw.contains("\"pager\":\"{shown} sur {total} {noun} affichés\""))
            #expect(run.stdoutText.contains(" ; "), "no French message at all\n\(run)")
            if i == 0 {
                #expect(run.stdoutText.contains("« 22 » apparaît déjà (ligne 23)."), "\(run)")
                // Rule summaries are translated too, in the text and the HTML report.
                #expect(!run.stdoutText.contains("every record has as many fields") && !page.contains("every record has as many fields"))
                for summary in ["salary vaut au moins 0", "id est unique", "dept_id désigne un Department.id existant",
                                "chaque enregistrement a autant de champs que l'en-tête",
                                // constraints sharing one rule id, joined with the catalog's list.and
                                "name compte au moins 3 caractères et name compte au plus 32 caractères"] {
                    #expect(run.stdoutText.contains(summary) && page.contains(summary), "\(summary)")
                }
            }
            for fragment in fragments {
                #expect(!run.stdoutText.contains(fragment), "text report of \(args[1]) has '\(fragment)'")
                #expect(!texts.contains { $0.contains(fragment) }, "HTML report of \(args[1]) has '\(fragment)'")
            }
            let whole = texts.filter { words.contains($0) }
            #expect(whole.isEmpty, "HTML report of \(args[1]) has \(whole)")
            // The same run in English does show them (the scan can fail).
            let englishHTML = tmp.path("english\(i).html")
            let english = try assertExecute(args + ["--color", "never", "--report", "html:\(englishHTML)"], exitCode: 1, environment: env)
            #expect(fragments.contains { english.stdoutText.contains($0) }, "\(english)")
            let englishTexts = Self.htmlTexts(try String(contentsOfFile: englishHTML, encoding: .utf8))
            #expect(fragments.contains { f in englishTexts.contains { $0.contains(f) } } && englishTexts.contains { words.contains($0) })
            if i == 0 {
                #expect(englishTexts.contains("name has at least 3 characters and name has at most 32 characters"))
            }
        }
    }
}
