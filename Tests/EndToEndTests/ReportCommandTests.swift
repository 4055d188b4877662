import Foundation
import TestSupport
import Testing

/// Runs the built `auditor` binary: `--locale`, several `--report`s, `--failures-out` and the
/// GitHub job summary, end to end on a small rules file written for each test.
@Suite("auditor run: reports, locales, failures file")
struct ReportCommandTests {
    /// The `auditor` executable in the build products folder (next to the test bundle).
    static let binary: String? = {
        let here = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [here.appendingPathComponent("auditor"), Bundle.main.bundleURL.appendingPathComponent("auditor"),
                          Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("auditor"),
                          repo.appendingPathComponent(".build/debug/auditor")]
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let rules = """
        version: 1
        sources:
          people:
            path: people.csv
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id:    { type: integer, required: true, unique: true }
              name:  { type: string, required: true, minLength: 3, maxLength: 10, pattern: "[A-Za-z ]+" }
              age:   { type: integer, min: 0, max: 150 }
              born:  { type: date, min: "1900-01-01", exclusiveMax: "2030-01-01" }
              kind:  { type: string, enum: [a, b] }
              score: { type: decimal, integral: true, exclusiveMin: 0, exclusiveMax: 100 }
              seen:  { type: date, exclusiveMin: "2000-01-01", max: "2029-12-31" }

        """

    static let csv = "id,name,age,born,kind,score,seen\n1,Alice,30,1990-01-01,a,5,2010-01-01\n"
        + "2,Al,200,1800-01-01,c,5.5,1999-01-01\n2,Bobbbbbbbbbbbbb,-1,2031-01-01,b,0,2030-01-01\n"
        + "4,,x,nope,a,100,2000-01-01\n5,B0b,1,1990-01-01,a,1\n6,\"=cmd\",1,1990-01-01,b,2,2010-01-01\n"

    /// A folder with `rules.yml`, `people.csv` and the shipped catalogs in `messages/`.
    static func workspace() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("messages"), withIntermediateDirectories: true)
        try Data(rules.utf8).write(to: folder.appendingPathComponent("rules.yml"))
        try Data(csv.utf8).write(to: folder.appendingPathComponent("people.csv"))
        for locale in ["en", "fr"] {
            try FileManager.default.copyItem(at: repo.appendingPathComponent("rules/messages/\(locale).yml"),
                                             to: folder.appendingPathComponent("messages/\(locale).yml"))
        }
        return folder
    }

    /// Runs auditor in `folder`; stdout, stderr, status.
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:])
        throws -> (status: Int32, out: String, err: String) {
        var env = ProcessInfo.processInfo.environment
        env["GITHUB_STEP_SUMMARY"] = nil
        env["AUDITOR_MESSAGES_PATH"] = nil
        env.merge(environment) { _, new in new }
        let run = try ChildProcess.run([try #require(binary)] + arguments, directory: folder, environment: env)
        return (run.status, run.stdoutText, run.stderrText)
    }

    @Test("--locale fr translates every constraint kind, date variants and csv.row.ragged",
          .enabled(if: binary != nil, "the auditor binary was not found next to the tests"))
    func french() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["run", "rules.yml", "--locale", "fr", "-q"], in: folder)
        #expect(r.status == 1, "\(r.err)")
        for phrase in ["est obligatoire mais absent", "doit être de type integer ; reçu « x »", "doit valoir au moins 0",
                       "doit valoir au plus 150", "doit être le 1900-01-01 ou après", "doit être antérieur au 2030-01-01",
                       "doit être postérieur au 2000-01-01", "doit être le 2029-12-31 ou avant",
                       "strictement supérieur à 0", "strictement inférieur à 100", "doit compter au moins 3 caractères",
                       "doit compter au plus 10 caractères", "doit respecter le motif", "l'une des valeurs a, b",
                       "doit être un nombre entier", "doit être unique", "L'enregistrement compte 6 champs ; l'en-tête en compte 7."] {
            #expect(r.out.contains(phrase), "missing: \(phrase)")
        }
        #expect(!r.out.contains(" must "), "an English message is left")
        // A region falls back to its language.
        #expect(try Self.run(["run", "rules.yml", "--locale", "fr-CA", "-q"], in: folder).out == r.out)
    }

    @Test("--locale en is exactly the built-in English", .enabled(if: binary != nil, "the auditor binary was not found"))
    func english() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try Self.run(["run", "rules.yml", "-q"], in: folder)
        let en = try Self.run(["run", "rules.yml", "--locale", "en", "-q"], in: folder)
        #expect(en.status == plain.status && en.out == plain.out)
        #expect(plain.out.contains("Record has 6 fields; the header has 7."))
    }

    @Test("an unknown locale is a usage error that says where it looked", .enabled(if: binary != nil, "the auditor binary was not found"))
    func unknownLocale() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["run", "rules.yml", "--locale", "de"], in: folder)
        #expect(r.status == 64)
        #expect(r.err.contains("messages/de.yml: no message catalog for locale 'de'") && r.err.contains("available: en, fr"), "\(r.err)")
        #expect(try Self.run(["run", "rules.yml", "--locale", "../../etc/passwd"], in: folder).status == 64)
    }

    @Test("several --report files, --failures-out and the GitHub job summary in one run",
          .enabled(if: binary != nil, "the auditor binary was not found"))
    func severalReports() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        let summary = folder.appendingPathComponent("summary.md")
        try Data("# earlier step\n".utf8).write(to: summary)
        let r = try Self.run(["run", "rules.yml", "--format", "github", "--report", "html:out/r.html", "--report", "junit:out/j.xml",
                              "--report", "json:out/r.json", "--report", "sarif:out/r.sarif", "--failures-out", "out/f.csv"],
                             in: folder, environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.out.hasPrefix("::error file=people.csv,line="))
        #expect(r.err.contains("wrote 5 failing records, 19 findings to out/f.csv"), "\(r.err)")
        for name in ["r.html", "j.xml", "r.json", "r.sarif", "f.csv"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/\(name)").path), "\(name)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)
        #expect(!files.contains { $0.hasSuffix(".tmp") })
        let md = String(decoding: try Data(contentsOf: summary), as: UTF8.self)
        #expect(md.hasPrefix("# earlier step\n## ❌ auditor: FAILED (exit 1)"))
        let csv = String(decoding: try Data(contentsOf: folder.appendingPathComponent("out/f.csv")), as: UTF8.self)
        #expect(csv.contains(#""'=cmd""#), "formula neutralised")
        let raw = try Self.run(["run", "rules.yml", "-q", "--failures-out", "out/f.jsonl", "--csv-formula-escape=off"], in: folder)
        #expect(raw.status == 1)
        let lines = String(decoding: try Data(contentsOf: folder.appendingPathComponent("out/f.jsonl")), as: UTF8.self)
            .split(separator: "\n")
        #expect(lines.count == 5)
    }

    @Test("a report that cannot be written: exit 73, the others are still written",
          .enabled(if: binary != nil, "the auditor binary was not found"))
    func unwritableReport() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["run", "rules.yml", "-q", "--report", "json:missing/r.json", "--report", "junit:j.xml"], in: folder)
        #expect(r.status == 73, "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("j.xml").path))
        #expect(try Self.run(["run", "rules.yml", "--report", "pdf:x.pdf"], in: folder).status == 64)
        #expect(try Self.run(["run", "rules.yml", "--report", "nocolon"], in: folder).status == 64)
        #expect(try Self.run(["run", "rules.yml", "--failures-out", "f.txt"], in: folder).status == 64)
    }
}
