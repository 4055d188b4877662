import Foundation
import TestSupport
import Testing

/// A team's auditor (issue 22): `examples/validators`' `team-auditor` is the command line with
/// the team's Swift validators built in (`AuditorTool.main(validators:)`), and the rules file
/// names them (`validators:`). Built here as a user builds it; counted against Python's `csv`.
@Suite(.serialized) struct TeamAuditorTests {
    static let package = Auditor.packageRoot.appendingPathComponent("examples/validators")

    /// `swift build --package-path examples/validators --product team-auditor` (a no-op after
    /// `.ci/run`, which builds the package first), and the binary's path: once per test run,
    /// for every test of the suite.
    static let built = Result { try build() }

    static func build() throws -> URL {
        func swift(_ arguments: [String]) throws -> String {
            // Builds of the whole dependency graph take minutes on a loaded CI machine.
            let run = try ChildProcess.run(["swift", "build", "--package-path", package.path, "--product", "team-auditor"] + arguments,
                                           mergeErrors: true, timeout: 1800)
            guard run.status == 0 else { throw Auditor.Failure(description: "swift build of examples/validators failed:\n\(run.stdoutText)") }
            return run.stdoutText
        }
        // Without SwiftPM's cached build manifest, and once more on failure: builds started from
        // here twice missed a source file just added to this package, the dependency ("cannot
        // find 'HTMLIsland' in scope"), where the next build from a shell saw it.
        if (try? swift(["--disable-build-manifest-caching"])) == nil { _ = try swift(["--disable-build-manifest-caching"]) }
        let bin = try swift(["--show-bin-path"]).split(separator: "\n").last.map(String.init) ?? ""
        return URL(fileURLWithPath: bin).appendingPathComponent("team-auditor")
    }

    /// Python's csv module on the example data: the records a check evaluates (as many fields
    /// as the header) where a licence holder is under 16, and where the e-mail is a +alias.
    static func pythonCounts() throws -> [String: Int] {
        let script = """
            import csv, json, sys
            rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
            header, body = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
            col = {n: i for i, n in enumerate(header)}
            def young(r):
                try: return r[col['has_licence']] == 'true' and int(r[col['age']]) < 16
                except ValueError: return False
            print(json.dumps({'licence': sum(map(young, body)),
                              'alias': sum('+' in r[col['email']] for r in body if r[col['email']] != '')}))
            """
        let run = try ChildProcess.run(["python3", "-c", script, Auditor.packageRoot.appendingPathComponent("examples/people/people.csv").path])
        return try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Int], "\(run)")
    }

    static func rules(_ report: Data) throws -> [String: [String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        let rules = try #require(json["rules"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rules.map { ($0["id"] as? String ?? "", $0) })
    }

    @Test func theTeamAuditorRunsTheValidatorsTheRulesName() throws {
        let binary = try Self.built.get()
        let scratch = try Scratch("team")
        defer { scratch.remove() }
        let run = try Auditor.run(["run", "examples/validators/people.yml", "--format", "json", "-o", scratch.path("team.json")],
                                  program: binary)
        #expect(run.status == 1, "\(run)")
        let rules = try Self.rules(try Data(contentsOf: URL(fileURLWithPath: scratch.path("team.json"))))
        let expected = try Self.pythonCounts()
        #expect(expected["licence"] == 4 && (expected["alias"] ?? 0) > 10, "the example data changed: \(expected)")
        #expect(rules["person.licence_age"]?["violations"] as? Int == expected["licence"])
        #expect(rules["person.email.alias"]?["violations"] as? Int == expected["alias"])
        // The reviewer's sentence replaces the built-in message of every age.max finding.
        let samples = try #require(rules["Person.age.max"]?["samples"] as? [[String: Any]])
        #expect(!samples.isEmpty)
        for s in samples {
            #expect((s["message"] as? String)?.hasSuffix("HR records people of working age only (at most 75).") == true, "\(s)")
        }
        #expect(try Auditor.run(["check", "examples/validators/people.yml"], program: binary).status == 0)
        #expect(try Auditor.run(["--version"], program: binary).stdoutText == (try assertExecute(["--version"], exitCode: 0).stdoutText))
    }

    @Test func theStockAuditorRefusesTheFileInsteadOfSkippingTheValidators() throws {
        for command in [["run"], ["check"]] {
            let run = try assertExecute(command + ["examples/validators/people.yml"], exitCode: 78)
            #expect(run.stderrText.contains("people.yml:13:18: entity 'Person' names the Swift validator 'person.licence_age', which this auditor does not carry"), "\(run)")
            #expect(run.stderrText.contains("docs/validators.md"), "\(run)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test func onAFileThatNamesNoValidatorTheTeamAuditorIsTheStockOne() throws {
        let binary = try Self.built.get()
        let scratch = try Scratch("team-stock")
        defer { scratch.remove() }
        let arguments = ["run", "rules/people.yml", "--format", "json", "--as-of", "2026-11-27"]
        let team = try Auditor.run(arguments + ["-o", scratch.path("team.json")], program: binary)
        let stock = try Auditor.run(arguments + ["-o", scratch.path("stock.json")])
        #expect(team.status == stock.status && stock.status == 1, "\(team)\n\(stock)")
        let (a, b) = (try Self.rules(try Data(contentsOf: URL(fileURLWithPath: scratch.path("team.json")))),
                      try Self.rules(try Data(contentsOf: URL(fileURLWithPath: scratch.path("stock.json")))))
        #expect(a.keys.sorted() == b.keys.sorted())
        for (id, rule) in b { #expect(a[id]?["violations"] as? Int == rule["violations"] as? Int, "\(id)") }
    }
}

@Suite struct TeamAuditorDocsTests {
    /// docs/validators.md and the README show the example's program, rules line and command as they are.
    @Test func theDocsShowTheExampleAsBuilt() throws {
        let root = Auditor.packageRoot
        let docs = try String(contentsOf: root.appendingPathComponent("docs/validators.md"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let main = try String(contentsOf: TeamAuditorTests.package.appendingPathComponent("Sources/TeamAuditor/main.swift"), encoding: .utf8)
        for line in main.split(separator: "\n") where !line.hasPrefix("//") {
            #expect(docs.contains(line + "\n"), "docs/validators.md lacks '\(line)'")
        }
        let rules = try String(contentsOf: TeamAuditorTests.package.appendingPathComponent("people.yml"), encoding: .utf8)
        let declared = try #require(rules.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("validators:") })
        #expect(docs.contains(declared + "\n"))
        let install = "scripts/install.sh --package examples/validators --product team-auditor --prefix /opt/acme"
        #expect(docs.contains(install) && readme.contains(install))
    }
}
