import Foundation
import TestSupport
import Testing

/// `--history` and `auditor history` through the real binary: consecutive nightly runs on
/// changing data, each using the previous run as its baseline, a jump flagged, and the
/// history command's exact output.
@Suite("History")
struct HistoryTests {
    /// The data of four nights. `P.name.minLength` (names under 3 characters) and `P.age.type`:
    /// night 1: short 1 and 3, bad age 2;  night 2: 1 fixed, 3 still, 5 new; age fixed;
    /// night 3: 3 and 5 still, 7 new; bad age 6 (new);  night 4: ten more short names (a jump).
    static let nights: [String] = {
        let n1 = "id,name,age\n1,Al,30\n2,Bob,x\n3,Cy,40\n4,Dana,41\n"
        let n2 = "id,name,age\n1,Alan,30\n2,Bob,31\n3,Cy,40\n4,Dana,41\n5,Ed,52\n"
        let n3 = n2 + "6,Flo,x\n7,Gu,19\n"
        let n4 = n3 + (8 ... 17).map { "\($0),Xy,20\n" }.joined()
        return [n1, n2, n3, n4]
    }()

    @Test("Three nights, then a jump: counts, input hashes, baselines from the previous run, exact history output")
    func consecutiveRuns() throws {
        let scratch = try Scratch("history")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Fixture.rules(path: "people.csv"))
        var hashes = [String]()
        var notes = [String]()
        for (night, data) in Self.nights.enumerated() {
            try scratch.write("people.csv", data)
            hashes.append(try sha256(scratch.path("people.csv")))
            let run = try assertExecute(["run", "rules.yml", "--history", "audits.sqlite", "--format", "json",
                                         "--output", "r\(night + 1).json"], in: scratch.url, exitCode: 1)
            notes.append(run.stderrText)
            #expect(try Data(contentsOf: scratch.url.appendingPathComponent("people.csv")) == Data(data.utf8),
                    "the input was changed")
        }
        #expect(notes[0] == "auditor: recorded run 1 in audits.sqlite\n")
        #expect(notes[1].hasPrefix("auditor: recorded run 2 in audits.sqlite; baseline: history run 1 ("))
        #expect(notes[1].hasSuffix("), 1 new, 2 resolved\n"))
        #expect(notes[2].hasSuffix("), 2 new, 0 resolved\n"))
        #expect(notes[3].hasSuffix("), 10 new, 0 resolved; jumped: P.name.minLength\n"), "\(notes[3])")

        // The history as JSON: runs, inputs with their hashes, per-rule points.
        let json = try assertExecute(["history", "audits.sqlite", "--format", "json"], in: scratch.url, exitCode: 0)
        let history = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(integer(history["totalRuns"]) == 4)
        let runs = try #require(history["runs"] as? [[String: Any]])
        #expect(runs.compactMap { integer($0["id"]) } == [1, 2, 3, 4])
        #expect(runs.compactMap { integer($0["records"]) } == [4, 5, 7, 17])
        #expect(runs.compactMap { $0["outcome"] as? String } == ["failed", "failed", "failed", "failed"])
        let inputs = runs.map { ($0["inputs"] as? [[String: Any]])?.first ?? [:] }
        #expect(inputs.map { $0["sha256"] as? String } == hashes)
        #expect(inputs.map { integer($0["bytes"]) } == Self.nights.map { Optional($0.utf8.count) })
        #expect(inputs.map { $0["path"] as? String } == Array(repeating: "people.csv", count: 4))
        let startedAt = runs.compactMap { $0["startedAt"] as? String }
        #expect(runs[0]["baseline"] is NSNull)
        for n in 1 ..< 4 {
            #expect(runs[n]["baseline"] as? String == "history run \(n) (\(startedAt[n - 1]))")
        }
        let rules = try #require(history["rules"] as? [[String: Any]])
        let short = try #require(rules.first { $0["id"] as? String == "P.name.minLength" })
        #expect(ints(short["counts"]) == [2, 2, 3, 13])
        #expect(short["jumped"] as? Bool == true && integer(short["median"]) == 2)
        let points = try #require(short["points"] as? [[String: Any]])
        #expect(points.map { [integer($0["new"]), integer($0["existing"]), integer($0["resolved"])] }
                == [[nil, nil, nil], [1, 1, 1], [1, 2, 0], [10, 3, 0]])
        let age = try #require(rules.first { $0["id"] as? String == "P.age.type" })
        #expect(ints(age["counts"]) == [1, 0, 1, 1] && age["jumped"] as? Bool == false)

        // The database itself, as any sqlite client sees it.
        let rows = try sqlite(scratch.path("audits.sqlite"), """
            SELECT run, violations, new_findings, existing_findings, resolved_findings, jumped FROM rule_counts
            WHERE rule_id = 'P.name.minLength' ORDER BY run
            """)
        #expect(rows == ["1|2||||0", "2|2|1|1|1|0", "3|3|1|2|0|0", "4|13|10|3|0|1"])
        #expect(try sqlite(scratch.path("audits.sqlite"), "SELECT sha256 FROM inputs ORDER BY run") == hashes)
        #expect(try sqlite(scratch.path("audits.sqlite"), "PRAGMA user_version") == ["1"])

        // One rule, the last two runs: exactly these lines.
        let text = try assertExecute(["history", "audits.sqlite", "--rule", "P.name.minLength", "--last", "2"],
                                     in: scratch.url, exitCode: 0)
        #expect(text.stderrText.isEmpty)
        #expect(text.stdoutLines == [
            "History of audits.sqlite: last 2 of 4 runs, oldest first",
            "",
            "RULE              TREND  COUNTS  MEDIAN  LATEST  NEW",
            "P.name.minLength  ▃█     3 13    2       13      10   JUMPED",
            "",
            "RUN  STARTED               OUTCOME  RECORDS  VIOLATIONS  NEW  RESOLVED",
            "3    \(startedAt[2])  failed   7        4           2    0",
            "4    \(startedAt[3])  failed   17       14          10   0",
            "",
            "MEDIAN: of up to 7 complete runs before the latest. JUMPED: the latest run is at least 50% and 5 "
                + "violations above it (needs 3 earlier runs). NEW: findings not in the run's baseline.",
            "",
        ], "\(text)")
        let ascii = try assertExecute(["history", "audits.sqlite", "--rule", "P.name.minLength", "--last", "4", "--ascii"],
                                      in: scratch.url, exitCode: 0)
        #expect(ascii.stdoutLines[3] == "P.name.minLength  ---#   2 2 3 13  2       13      10   JUMPED", "\(ascii)")
    }

    @Test("--fail-on-new against the history's last run: fails on night 2 (a new short name), passes on a repeat")
    func failOnNewWithHistory() throws {
        let scratch = try Scratch("history-gate")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Fixture.rules(path: "people.csv"))
        let gate = ["run", "rules.yml", "--history", "audits.sqlite", "--fail-on-new"]
        try scratch.write("people.csv", Self.nights[0])
        _ = try assertExecute(gate, in: scratch.url, exitCode: 1)         // first night: no baseline yet
        try scratch.write("people.csv", Self.nights[1])
        let second = try assertExecute(gate, in: scratch.url, exitCode: 1)
        #expect(second.stdoutText.contains("--fail-on-new"), "\(second)")
        let third = try assertExecute(gate, in: scratch.url, exitCode: 0)   // the same data again: nothing new
        #expect(third.stdoutLines.contains { $0.hasPrefix("Result: passed (exit 0): no new findings") }, "\(third)")
    }

    @Test("history: in the rules file, relative to it; --history overrides; --no-history records nothing")
    func rulesFileKey() throws {
        let scratch = try Scratch("history-key")
        defer { scratch.remove() }
        try scratch.write("data/people.csv", Self.nights[0])
        try scratch.write("rules/people.yml", "history: ../var/audits.sqlite\n" + Fixture.rules(path: "../data/people.csv"))
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("var"), withIntermediateDirectories: true)
        try assertExecute(["run", "rules/people.yml", "-q"], in: scratch.url, exitCode: 1)
        try assertExecute(["run", "rules/people.yml", "-q", "--no-history"], in: scratch.url, exitCode: 1)
        try assertExecute(["run", "rules/people.yml", "-q", "--history", "other.sqlite"], in: scratch.url, exitCode: 1)
        #expect(try sqlite(scratch.path("var/audits.sqlite"), "SELECT count(*) FROM runs") == ["1"])
        #expect(try sqlite(scratch.path("other.sqlite"), "SELECT count(*) FROM runs") == ["1"])
        #expect(try scratch.listing() == ["data", "other.sqlite", "rules", "var"])
        #expect(try scratch.listing("data") == ["people.csv"])

        try scratch.write("bad.yml", "history: [a.sqlite]\n" + Fixture.rules(path: "data/people.csv"))
        try assertExecute(["check", "bad.yml"], in: scratch.url, exitCode: 78,
                          stderrContains: ["bad.yml:1:10: history must be the path of the history database, not a list"])
    }

    @Test("A history that cannot be written: its own error and exit status, the report still written")
    func unwritableHistory() throws {
        let scratch = try Scratch("history-errors")
        defer { scratch.remove() }
        try scratch.write("people.csv", Self.nights[1])
        try scratch.write("rules.yml", Fixture.rules(path: "people.csv"))
        try scratch.write("notes.txt", "not a database\n")

        let notDB = try assertExecute(["run", "rules.yml", "--history", "notes.txt", "--format", "json", "--output", "r.json"],
                                      in: scratch.url, exitCode: 73,
                                      stderrContains: ["notes.txt: cannot open the history: this file is not an SQLite database"])
        #expect(FileManager.default.fileExists(atPath: scratch.path("r.json")), "\(notDB)")
        #expect(try String(contentsOfFile: scratch.path("notes.txt"), encoding: .utf8) == "not a database\n")
        try assertExecute(["run", "rules.yml", "-q", "--history", "no/such/dir/audits.sqlite"], in: scratch.url, exitCode: 73,
                          stderrContains: ["cannot create the history: the folder 'no/such/dir' does not exist"])

        // Never written to: an audited input, or a report's file.
        let before = try Data(contentsOf: scratch.url.appendingPathComponent("people.csv"))
        try assertExecute(["run", "rules.yml", "--history", "people.csv"], in: scratch.url, exitCode: 64,
                          stderrContains: ["is also an input of this audit"])
        try assertExecute(["run", "rules.yml", "--history", "./people.csv"], in: scratch.url, exitCode: 64)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("people.csv")) == before)
        try assertExecute(["run", "rules.yml", "--history", "h.sqlite", "--output", "h.sqlite"], in: scratch.url, exitCode: 64,
                          stderrContains: ["also written as a report"])

        // Another program's database is left alone.
        try scratch.write("app.sqlite", "")
        _ = try sqlite(scratch.path("app.sqlite"), "CREATE TABLE t (x); INSERT INTO t VALUES (1);", script: true)
        let app = try Data(contentsOf: scratch.url.appendingPathComponent("app.sqlite"))
        try assertExecute(["run", "rules.yml", "-q", "--history", "app.sqlite"], in: scratch.url, exitCode: 73,
                          stderrContains: ["not an auditor history"])
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("app.sqlite")) == app)
    }

    @Test("auditor history: a missing file is 66, a file that is no history 65, an unknown rule 64")
    func historyCommandErrors() throws {
        let scratch = try Scratch("history-cmd")
        defer { scratch.remove() }
        try assertExecute(["history", "missing.sqlite"], in: scratch.url, exitCode: 66,
                          stderrContains: ["missing.sqlite: no history here: the file does not exist"])
        #expect(try scratch.listing().isEmpty, "reading created a file")
        try scratch.write("people.csv", Self.nights[0])
        try assertExecute(["history", "people.csv"], in: scratch.url, exitCode: 65, stderrContains: ["not an SQLite database"])
        try scratch.write("rules.yml", Fixture.rules(path: "people.csv"))
        try assertExecute(["run", "rules.yml", "-q", "--history", "h.sqlite"], in: scratch.url, exitCode: 1)
        try assertExecute(["history", "h.sqlite", "--rule", "P.name.minLenght"], in: scratch.url, exitCode: 64,
                          stderrContains: ["no rule 'P.name.minLenght'", "did you mean 'P.name.minLength'?"])
        try assertExecute(["history", "h.sqlite", "--last", "0"], in: scratch.url, exitCode: 64)
        let first = try assertExecute(["history", "h.sqlite"], in: scratch.url, exitCode: 0)
        #expect(first.stdoutLines.first == "History of h.sqlite: 1 run, oldest first")
        // The RULE column is as wide as the longest id, csv.row.ragged@people.
        #expect(first.stdoutLines.contains("P.name.minLength       █      2       -       2       -"), "\(first)")
    }
}

/// SHA-256 of a file, by coreutils' `sha256sum` (an independent implementation).
func sha256(_ path: String) throws -> String {
    let out = try tool("/usr/bin/sha256sum", [path])
    return String(out.prefix(64))
}

/// Rows of an SQL query as `a|b|c` lines, by Python's sqlite3 module (independent of auditor's
/// SQLite code; python3 is installed by `.ci/run`). `script`: run several statements, no rows.
func sqlite(_ database: String, _ sql: String, script: Bool = false) throws -> [String] {
    let program = """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        if sys.argv[3] == "script":
            db.executescript(sys.argv[2])
        else:
            for row in db.execute(sys.argv[2]):
                print('|'.join('' if v is None else str(v) for v in row))
        db.commit()
        """
    let out = try tool("/usr/bin/env", ["python3", "-c", program, database, sql, script ? "script" : "query"])
    return out.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
}

/// Integers of a JSON array.
func ints(_ value: Any?) -> [Int] {
    (value as? [Any] ?? []).compactMap(integer)
}

/// Runs a program and returns its stdout; fails on a non-zero exit.
func tool(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
    let run = try ChildProcess.run([executable] + arguments, directory: directory)
    guard run.status == 0 else {
        throw Auditor.Failure(description: "\(executable) \(arguments.joined(separator: " ")) exited \(run.status): \(run.stderrText)")
    }
    return run.stdoutText
}
