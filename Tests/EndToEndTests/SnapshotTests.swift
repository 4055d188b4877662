import Foundation
import TestSupport
import Testing

/// `--previous` on real files: two snapshots with known inserts, updates and deletes, in CSV
/// and in SQLite, through the binary.
@Suite("Snapshot lifecycle") struct SnapshotTests {
    static let rules = """
        version: 1
        sources:
          docs:
            path: docs.csv
            sqlite: { table: docs }
          folders:
            path: folders.csv
            sqlite: { table: folders }
        entities:
          Doc:
            source: docs
            key: [id]
            attributes:
              id: { type: integer, required: true, immutable: true }
              folder: integer
              title: { type: string, minLength: { value: 3, on: [insert] } }
              status:
                type: string
                enum: [draft, published, archived]
                transitions: ["draft -> published", "published -> archived", "* -> draft"]
              author: { type: string, immutable: true }
            relationships:
              folder: { attribute: folder, references: Folder.id }
            rules:
              - id: doc.delete.archived
                on: [delete]
                assert: status == 'archived'
          Folder:
            source: folders
            key: [id]
            attributes: { id: integer, name: string }
            relationships:
              docs: { from: Doc.folder, deleteRule: deny }
        """

    /// Yesterday and today. Today: 1 and 6 change status (6 illegally), 2 changes author
    /// (immutable), 3 and 4 are deleted (3 while published), 5 is unchanged, 7 and 8 are new
    /// (7 with a short title, in folder 2, which was deleted).
    static let docs = ["id,folder,title,status,author\n1,1,Alpha,draft,ann\n2,1,Beta,published,bob\n3,2,Gamma,published,cy\n4,1,Delta,archived,dee\n5,1,Epsilon,published,eve\n6,1,Zeta,archived,fay\n",
                       "id,folder,title,status,author\n5,1,Epsilon,published,eve\n1,1,Alpha,published,ann\n2,1,Beta,draft,bo\n6,1,Zeta,published,fay\n7,2,Ok,draft,gus\n8,3,Theta,draft,hal\n"]
    static let folders = ["id,name\n1,Inbox\n2,Old\n3,Tmp\n", "id,name\n1,Inbox\n3,Temp\n"]

    static let expected: [String: Int] = [
        "Doc.author.immutable": 1, "Doc.status.transitions": 1, "Doc.title.minLength": 1,
        "doc.delete.archived": 1, "Folder.docs.deleteRule": 1, "Doc.folder.fk": 1, "Doc.status.enum": 0,
    ]

    func scratch() throws -> Scratch {
        let s = try Scratch("snapshots")
        try s.write("rules.yml", Self.rules)
        for (day, name) in [(0, "yesterday"), (1, "today")] {
            try s.write("\(name)/docs.csv", Self.docs[day])
            try s.write("\(name)/folders.csv", Self.folders[day])
        }
        return s
    }

    /// Builds `name/snap.sqlite` with the day's two tables (the CSV text loaded by sqlite3).
    func sqlite(_ s: Scratch, day: Int, name: String) throws {
        let sqlite3 = "/usr/bin/sqlite3"
        try #require(FileManager.default.isExecutableFile(atPath: sqlite3), "sqlite3 CLI missing: cannot build the snapshot databases")
        func inserts(_ table: String, _ csv: String) -> String {
            let rows = csv.split(separator: "\n").dropFirst().map { line in
                "(" + line.split(separator: ",", omittingEmptySubsequences: false).map { v in
                    Int(v) != nil ? String(v) : "'\(v)'"
                }.joined(separator: ",") + ")"
            }
            return "INSERT INTO \(table) VALUES " + rows.joined(separator: ",") + ";"
        }
        let sql = "CREATE TABLE docs (id INTEGER PRIMARY KEY, folder INTEGER, title TEXT, status TEXT, author TEXT);"
            + "CREATE TABLE folders (id INTEGER PRIMARY KEY, name TEXT);"
            + inserts("docs", Self.docs[day]) + inserts("folders", Self.folders[day])
        let run = try ChildProcess.run([sqlite3, s.path("\(name)/snap.sqlite"), sql])
        try #require(run.status == 0, "\(run)")
    }

    func check(_ run: Execution, _ s: Scratch, previous: String) throws {
        #expect(run.status == 1, "\(run)")
        let report = try ReportJSON(contentsOf: s.url.appendingPathComponent("report.json"))
        let counts = try report.violationsByRule()
        for (id, n) in Self.expected { #expect(counts[id] == n, "\(id)") }
        let entities = report.root["entities"] as? [[String: Any]] ?? []
        let doc = try #require(entities.first { $0["name"] as? String == "Doc" }?["lifecycle"] as? [String: Any])
        #expect(["inserted", "updated", "deleted", "unchanged"].map { integer(doc[$0]) } == [2, 3, 2, 1])
        #expect(doc["previous"] as? String == previous)
        let samples = (doc["samples"] as? [[String: Any]] ?? []).map { "\($0["change"] ?? "") \($0["key"] ?? "") \(($0["attributes"] as? [String]) ?? [])" }
        #expect(samples == ["updated id=1 [\"status\"]", "updated id=2 [\"status\", \"author\"]", "updated id=6 [\"status\"]",
                            "inserted id=7 []", "inserted id=8 []", "deleted id=3 []", "deleted id=4 []"])
        let folder = try #require(entities.first { $0["name"] as? String == "Folder" }?["lifecycle"] as? [String: Any])
        #expect(["inserted", "updated", "deleted", "unchanged"].map { integer(folder[$0]) } == [0, 1, 1, 1])
        #expect(report.inputs.filter { $0["previous"] as? Bool == true }.count == 2)
    }

    @Test("CSV snapshots: classification and every lifecycle finding")
    func csv() throws {
        let s = try scratch()
        defer { s.remove() }
        let run = try Auditor.run(["run", "rules.yml", "--source", "docs=today/docs.csv", "--source", "folders=today/folders.csv",
                                   "--previous", "docs=yesterday/docs.csv", "--previous", "folders=yesterday/folders.csv",
                                   "--format", "json", "--output", "report.json"], in: s.url)
        try check(run, s, previous: "yesterday/docs.csv")
        // The text report says what changed, and the inputs are untouched.
        let text = try Auditor.run(["run", "rules.yml", "--source", "docs=today/docs.csv", "--source", "folders=today/folders.csv",
                                    "--previous", "docs=yesterday/docs.csv", "--previous", "folders=yesterday/folders.csv"], in: s.url)
        #expect(text.stdoutText.contains("changes since yesterday/docs.csv: 2 inserted, 3 updated (status 3, author 1), 2 deleted, 1 unchanged"), "\(text)")
        #expect(text.stdoutText.contains("yesterday/docs.csv:4: error: doc.delete.archived"), "\(text)")
        #expect(try String(contentsOfFile: s.path("yesterday/docs.csv"), encoding: .utf8) == Self.docs[0])
    }

    @Test("SQLite snapshots, and a SQLite snapshot against yesterday's CSV")
    func sqlite() throws {
        let s = try scratch()
        defer { s.remove() }
        try sqlite(s, day: 0, name: "yesterday")
        try sqlite(s, day: 1, name: "today")
        let run = try Auditor.run(["run", "rules.yml", "--source", "docs=today/snap.sqlite", "--source", "folders=today/snap.sqlite",
                                   "--previous", "docs=yesterday/snap.sqlite", "--previous", "folders=yesterday/snap.sqlite",
                                   "--format", "json", "--output", "report.json"], in: s.url)
        try check(run, s, previous: "yesterday/snap.sqlite")
        // Values compare by their text: INTEGER 2 in SQLite equals "2" in a CSV.
        let mixed = try Auditor.run(["run", "rules.yml", "--source", "docs=today/snap.sqlite", "--source", "folders=today/snap.sqlite",
                                     "--previous", "docs=yesterday/docs.csv", "--previous", "folders=yesterday/folders.csv",
                                     "--format", "json", "--output", "report.json"], in: s.url)
        try check(mixed, s, previous: "yesterday/docs.csv")
    }

    @Test("--changed-only skips unchanged records; cross-record rules still see every key")
    func changedOnly() throws {
        let s = try scratch()
        defer { s.remove() }
        let run = try Auditor.run(["run", "rules.yml", "--source", "docs=today/docs.csv", "--source", "folders=today/folders.csv",
                                   "--previous", "docs=yesterday/docs.csv", "--previous", "folders=yesterday/folders.csv",
                                   "--changed-only", "--format", "json", "--output", "report.json"], in: s.url)
        #expect(run.status == 1, "\(run)")
        let report = try ReportJSON(contentsOf: s.url.appendingPathComponent("report.json"))
        #expect(integer(report.rules(withID: "Doc.status.enum").first?["evaluated"]) == 5)
        #expect(integer(report.rules(withID: "Doc.folder.fk").first?["evaluated"]) == 6)
        #expect(integer(report.rules(withID: "Doc.author.immutable").first?["violations"]) == 1)
    }

    @Test("mistakes: a missing snapshot, an unknown source, an entity without a key")
    func mistakes() throws {
        let s = try scratch()
        defer { s.remove() }
        let missing = try Auditor.run(["run", "rules.yml", "--source", "docs=today/docs.csv", "--source", "folders=today/folders.csv",
                                       "--previous", "docs=nowhere/docs.csv"], in: s.url)
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderrText.contains("nowhere/docs.csv"), "\(missing)")
        let unknown = try Auditor.run(["run", "rules.yml", "--previous", "doc=yesterday/docs.csv"], in: s.url)
        #expect(unknown.status == 64 && unknown.stderrText.contains("did you mean 'docs'?"), "\(unknown)")
        let bare = try Auditor.run(["run", "rules.yml", "--changed-only"], in: s.url)
        #expect(bare.status == 64 && bare.stderrText.contains("--changed-only needs --previous"), "\(bare)")
        try s.write("nokey.yml", Self.rules.replacingOccurrences(of: "    key: [id]\n    attributes:\n      id: { type: integer, required: true, immutable: true }", with: "    attributes:\n      id: { type: integer, required: true }"))
        let keyless = try Auditor.run(["run", "nokey.yml", "--source", "docs=today/docs.csv", "--source", "folders=today/folders.csv",
                                       "--previous", "docs=yesterday/docs.csv"], in: s.url)
        #expect(keyless.status == 78 && keyless.stderrText.contains("declares none; add 'key: [id]'"), "\(keyless)")
    }
}

/// The README's snapshot commands, exactly as written, on the bundled example.
@Suite("README snapshot example") struct ReadmeSnapshotTests {
    @Test func readmeCommandsRunAndFindTheSeededProblems() throws {
        let readme = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Snapshots: insert, update and delete rules").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        let commands = block.split(separator: "\n").filter { $0.hasPrefix("auditor run ") }
        #expect(commands.count == 2)
        var statuses = [Int32]()
        for command in commands {
            let arguments = command.dropFirst("auditor ".count).split(separator: " ").map(String.init)
            let run = try Auditor.run(arguments)
            statuses.append(run.status)
            #expect(run.stdoutText.contains("changes since examples/snapshots/2026-11-20/docs.csv: 2 inserted, 3 updated"), "\(run)")
        }
        #expect(statuses == [1, 1])
        let full = try Auditor.run(Array(commands[0].dropFirst("auditor ".count).split(separator: " ").map(String.init))
                                   + ["--format", "json"])
        let counts = try ReportJSON(full.stdout).violationsByRule()
        for (id, n) in SnapshotTests.expected { #expect(counts[id] == n, "\(id)") }
    }
}
