import Foundation
import Testing

/// The text and Markdown reports' own words (`report:` in a message catalog) end to end: the
/// French golden of the bundled example, a third language from a catalog file alone, and
/// located mistakes in the section.
@Suite("Report chrome in the catalog's language")
struct ReportChromeLocaleTests {
    static let golden = Auditor.packageRoot.appendingPathComponent("Tests/ReportsTests/Golden/example.people.fr.txt")

    @Test("--locale fr: the bundled example's text report is French, byte for byte the golden file")
    func frenchGolden() throws {
        let run = try assertExecute(["run", "rules/people.yml", "--locale", "fr", "--color", "never"], exitCode: 1)
        if ProcessInfo.processInfo.environment["AUDITOR_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try run.stdout.write(to: Self.golden)
            Issue.record("recorded \(Self.golden.path); review it with git diff")
            return
        }
        let expected = try String(contentsOf: Self.golden, encoding: .utf8)
        #expect(run.stdoutText == expected, "record with AUDITOR_RECORD_GOLDEN=1\n\(run.stdoutText)")
        // The chrome, not only the messages, is French.
        for phrase in ["ÉCHEC, 16 règles enfreintes sur 34 (16 de sévérité error), 38 enregistrements avec constats sur 525",
                       "500 enregistrements, 38 avec constats, 38 infractions", "6 sur 500 enregistrements (1,20\u{202F}%)",
                       "[6 enregistrements non évalués]", "12 règles : csv.encoding@people, person.id.required, person.id.type et 9 autres",
                       "Entrées :", "Résultat : ÉCHEC (code 1) : 16 règles enfreintes de sévérité error (--fail-on error)",
                       "(ligne 23)"] {
            #expect(run.stdoutText.contains(phrase), "\(phrase)")
        }
        // Severity words of the compiler-style lines stay as compilers print them.
        #expect(run.stdoutText.contains("examples/people/people.csv:52: error: csv.row.ragged@people: "))
        // The English chrome is gone.
        for english in ["records with findings", "rules violated", "Inputs:", "Result:", "--verbose lists them", "not evaluated"] {
            #expect(!run.stdoutText.contains(english), "\(english)")
        }
    }

    @Test("--locale fr: the Markdown report's titles, columns and verdict are French; JSON is not translated")
    func frenchMarkdownAndJSON() throws {
        let md = try assertExecute(["run", "rules/people.yml", "--locale", "fr", "--format", "markdown"], exitCode: 1)
        for phrase in ["## ❌ auditor: ÉCHEC (code 1)", "- 16 règles enfreintes de sévérité error", "### Règles enfreintes",
                       "| État | Règle | Sévérité | Infractions | Taux | Seuil | Exigence |", "| **en échec** | csv.row.ragged@people | error | 6 sur 500 | 1,20\u{202F}% |",
                       "### Entrées", "| Chemin | Format | Enregistrements | État |", "lue entièrement", "### Exemples"] {
            #expect(md.stdoutText.contains(phrase), "\(phrase)\n\(md.stdoutText.prefix(2000))")
        }
        for english in ["Rules with violations", "read completely", "### Inputs", "FAILED"] {
            #expect(!md.stdoutText.contains(english), "\(english)")
        }
        let en = try assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1)
        let fr = try assertExecute(["run", "rules/people.yml", "--format", "json", "--locale", "fr"], exitCode: 1)
        // Only messages and summaries change in JSON; its keys and verdict words do not.
        #expect(fr.stdoutText.contains("\"outcome\" : \"failed\"") == en.stdoutText.contains("\"outcome\" : \"failed\""))
        #expect(!fr.stdoutText.contains("ÉCHEC") && !fr.stdoutText.contains("enregistrements avec constats"))
    }

    @Test("--format github --locale fr: the job summary is French; the annotations and their ids are not translated")
    func frenchJobSummary() throws {
        let tmp = try Scratch("chrome-summary")
        defer { tmp.remove() }
        let summary = tmp.path("summary.md")
        let run = try assertExecute(["run", "rules/people.yml", "--format", "github", "--locale", "fr"], exitCode: 1,
                                    environment: ["GITHUB_STEP_SUMMARY": summary])
        let page = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(page.contains("## ❌ auditor: ÉCHEC (code 1)") && page.contains("### Règles enfreintes"), "\(page.prefix(1500))")
        #expect(!page.contains("Rules with violations"))
        // Annotations: GitHub's own syntax and our rule ids, with the severity word GitHub expects.
        #expect(run.stdoutText.contains("::error file=examples/people/people.csv,line=52"), "\(run)")
        #expect(run.stdoutText.contains("csv.row.ragged@people"))
    }

    /// A third language needs only a catalog file: every phrase it writes appears.
    @Test("a test-only xx catalog in a temporary folder: each of its report phrases appears, in the text and Markdown reports")
    func thirdLanguage() throws {
        let tmp = try Scratch("chrome-xx")
        defer { tmp.remove() }
        // 1,234 records, one violated rule, one passing rule: grouping, plurals and a list.
        var csv = "id,n\n"
        for i in 1 ... 1234 { csv += "\(i),\(i == 7 ? -1 : i)\n" }
        try tmp.write("t.csv", csv)
        try tmp.write("rules.yml", """
            version: 1
            sources: { t: { path: t.csv } }
            entities:
              T:
                source: t
                attributes:
                  id: { type: integer, required: true }
                  n: { type: integer, min: 0 }

            """)
        let phrases: [(key: String, template: String, shown: String)] = [
            ("number.group", "_", "1_234"),
            ("number.decimal", "~", "0~08"),
            ("number.percent", "{rate} pc", "0~08 pc"),
            ("verdict.failed", "XFAIL", "XFAIL"),
            ("head.violated", "{violated} xv {rules, plural, one {# xrule} other {# xrules}} ({failing})", "1 xv 6 xrules (1 xat-error)"),
            ("severities.error", "xat-error", "xat-error"),
            ("failing.count", "{count} {severities}", "1 xat-error"),
            ("head.withFindings", "{withFindings} xw {records}", "1 xw 1_234"),
            ("entity.records", "{count, plural, one {# xrec} other {# xrecs}}", "1_234 xrecs"),
            ("rule.count", "{violations} xof {evaluated}", "1 xof 1_234"),
            ("status.passed", "xok", "xok"),
            ("rules.list", "{count, plural, one {# xrule} other {# xrules}} -> {list}", "5 xrules -> "),
            ("inputs.title", "XIN:", "XIN:"),
            ("inputs.records", "{count} xr", "1_234 xr"),
            ("inputs.complete", "xcomplete", "xcomplete"),
            ("result.line", "XRES {verdict}{detail}", "XRES XFAIL"),
            ("result.exit", " [x{status}]", " [x1]"),
            ("punctuation.colon", " :: ", "XRES XFAIL [x1] :: "),
            ("md.inputsTitle", "XINPUTS", "### XINPUTS"),
            ("md.violatedTitle", "XVIOLATED", "### XVIOLATED"),
        ]
        var catalog = "locale: xx\nreport:\n"
        for p in phrases { catalog += "  \(p.key): \"\(p.template)\"\n" }
        try tmp.write("xx.yml", catalog)
        let text = try assertExecute(["run", "rules.yml", "--locale", tmp.path("xx.yml"), "--color", "never"], in: tmp.url, exitCode: 1)
        let md = try assertExecute(["run", "rules.yml", "--locale", tmp.path("xx.yml"), "--format", "markdown"], in: tmp.url, exitCode: 1)
        for p in phrases {
            let out = p.key.hasPrefix("md.") ? md.stdoutText : text.stdoutText
            #expect(out.contains(p.shown), "\(p.key): '\(p.shown)' missing\n\(out)")
        }
        // Phrases the catalog leaves out are the built-in English ones.
        #expect(text.stdoutText.contains("no findings") || text.stdoutText.contains("with findings"), "\(text)")
    }

    @Test("a misspelled report phrase or placeholder is an error located in the catalog (exit 78)", arguments: [
        ("report:\n  head.noFindngs: \"x\"\n", "xx.yml:3:3: unknown report phrase 'head.noFindngs'; did you mean 'head.noFindings'?"),
        ("report:\n  rule.count: \"{violation} sur {evaluated}\"\n",
         "xx.yml:3:15: unknown placeholder '{violation}' in the 'rule.count' report phrase; did you mean '{violations}'?"),
        ("report:\n  entity.records: \"{count, plural, one {# x}}\"\n", "xx.yml:3:19: '{count, plural, …' has no 'other' branch"),
    ])
    func locatedMistakes(_ body: String, _ expected: String) throws {
        let tmp = try Scratch("chrome-bad")
        defer { tmp.remove() }
        try tmp.write("xx.yml", "locale: xx\n" + body)
        let run = try assertExecute(["run", "rules/people.yml", "--locale", tmp.path("xx.yml")], exitCode: 78)
        #expect(run.stderrText.contains(expected), "\(run)")
        #expect(!run.stderrText.contains("people.yml:"), "located in the rules file\n\(run)")
    }
}
