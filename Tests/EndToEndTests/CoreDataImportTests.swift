import Foundation
import TestSupport
import Testing

/// `auditor import coredata` and `auditor run` on a Core Data model and store made by
/// `examples/coredata/generate.py` (issue 18): the planted violations, exactly, with Core
/// Data's codes; the store/model comparison; versions; outputs that never destroy anything.
@Suite("Core Data import") struct CoreDataImportTests {
    static let generator = Auditor.packageRoot.appendingPathComponent("examples/coredata/generate.py")

    /// Runs the generator into a fresh folder.
    static func generate(into scratch: Scratch) throws -> URL {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let run = try ChildProcess.run([python.path, generator.path, scratch.path("store")])
        try #require(run.status == 0, "generate.py failed: \(run)")
        return scratch.url.appendingPathComponent("store")
    }

    static func expected(_ folder: URL) throws -> [String: Int] {
        let data = try Data(contentsOf: folder.appendingPathComponent("expected.json"))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Int])
    }

    /// Imports the model against the store and runs the rules with yesterday's store for Deny;
    /// returns the JSON report.
    static func importAndRun(_ folder: URL, scratch: Scratch) throws -> ReportJSON {
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path,
                                        "--store", folder.appendingPathComponent("Shop.sqlite").path,
                                        "-o", scratch.path("rules.yml")])
        #expect(imported.status == 0, "\(imported)")
        let check = try Auditor.run(["check", scratch.path("rules.yml")])
        #expect(check.status == 0, "\(check)")
        let run = try Auditor.run(["run", scratch.path("rules.yml"), "--format", "json", "--output", scratch.path("report.json"),
                                   "--previous", "Department=" + folder.appendingPathComponent("Shop-previous.sqlite").path])
        #expect(run.status == 1, "\(run)")
        return try ReportJSON(contentsOf: scratch.url.appendingPathComponent("report.json"))
    }

    /// Every violated rule and its count, for rules with at least one violation.
    static func violated(_ report: ReportJSON) throws -> [String: Int] {
        try report.violationsByRule().filter { $0.value > 0 }
    }

    @Test func generatedStoreReportsExactlyThePlantedViolationsWithCoreDataCodes() throws {
        let scratch = try Scratch("coredata"); defer { scratch.remove() }
        let folder = try Self.generate(into: scratch)
        let report = try Self.importAndRun(folder, scratch: scratch)
        #expect(try Self.violated(report) == Self.expected(folder))
        func code(_ id: String) -> Int? { report.rules(withID: id).first.flatMap { integer($0["code"]) } }
        let codes: [String: Int] = [
            "party.name.required": 1570, "department.employees.minCount": 1580, "department.employees.maxCount": 1590,
            "department.employees.deleteRule": 1600, "party.age.max": 1610, "party.age.min": 1620,
            "party.born.max": 1630, "party.born.min": 1640, "party.name.maxLength": 1660, "party.name.minLength": 1670,
            "party.name.pattern": 1680, "party.email.unique": 1551, "party.name+born.unique": 1551,
            "employee.department.fk": 133000, "party.entity.concrete": 133000, "party_tags.party.fk": 133000,
            "customer.points.max": 1610,
        ]
        for (id, expected) in codes { #expect(code(id) == expected, "\(id)") }
    }

    @Test func committedFixtureMatchesItsExpectedCounts() throws {
        let scratch = try Scratch("coredata-fixture"); defer { scratch.remove() }
        let folder = Auditor.packageRoot.appendingPathComponent("examples/coredata")
        let report = try Self.importAndRun(folder, scratch: scratch)
        #expect(try Self.violated(report) == Self.expected(folder))
    }

    @Test func findingsSpeakTheModelsLanguage() throws {
        let scratch = try Scratch("coredata-text"); defer { scratch.remove() }
        let folder = try Self.generate(into: scratch)
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path,
                                        "--store", folder.appendingPathComponent("Shop.sqlite").path, "-o", scratch.path("rules.yml")])
        let run = try Auditor.run(["run", scratch.path("rules.yml")])
        #expect(run.stdoutText.contains("employee.department.fk: department points at Department Z_PK=99, which the store does not have [Z_PK=6, value '99']"), "\(run)")
        #expect(run.stdoutText.contains("party.born.min: born must be on or after 1900-01-01T00:00:00Z; got 1899-12-31T00:00:00.000Z"), "\(run)")
        #expect(!run.stdoutText.contains("ZNAME") && !run.stdoutText.contains("ZDEPARTMENT"), "\(run)")
        // What was skipped is said, on stderr of the import and in the rules file.
        let rules = try String(contentsOfFile: scratch.path("rules.yml"), encoding: .utf8)
        for skipped in ["'Party.scratch' (line 29): transient", "'Party.initials' (line 27): derived",
                        "'Party.avatar' (line 24): Transformable",
                        "fetched property 'namesakes' of 'Party' (line 33): name == $FETCH_SOURCE.name (not translated: the variable",
                        "fetch request 'Tagged' of 'Tag' (line 51): ANY parties.name BEGINSWITH[c] \"a\" (not translated: 'ANY' (aggregates"] {
            #expect(rules.contains(skipped), "\(skipped)")
            #expect(imported.stderrText.contains(skipped), "\(skipped)")
        }
        // Fetch requests in the translated subset are info rules.
        #expect(rules.contains("- id: \"party.fetch.Adults\"\n        severity: info\n        assert: \"(age >= 18 and active == true)\""), "\(rules)")
    }

    @Test func modelWithoutStoreGivesRulesThatPassCheck() throws {
        let scratch = try Scratch("coredata-nostore"); defer { scratch.remove() }
        let folder = try Self.generate(into: scratch)
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld/Shop.xcdatamodel").path,
                                        "-o", scratch.path("rules.yml")])
        #expect(imported.status == 0, "\(imported)")
        let check = try Auditor.run(["check", scratch.path("rules.yml")])
        #expect(check.status == 0, "\(check)")
        let rules = try String(contentsOfFile: scratch.path("rules.yml"), encoding: .utf8)
        #expect(rules.contains("path: \"Shop.sqlite\"") && !rules.contains("points:"), "version 1 has no Customer.points")
    }

    @Test func bundleImportsItsCurrentVersionAndTheOtherVersionDisagreesWithTheStore() throws {
        let scratch = try Scratch("coredata-versions"); defer { scratch.remove() }
        let folder = try Self.generate(into: scratch)
        let current = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path])
        #expect(current.status == 0 && current.stdoutText.contains("version 'Shop 2.xcdatamodel', identifier '2'")
                && current.stdoutText.contains("points:"), "\(current)")
        let old = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld/Shop.xcdatamodel").path,
                                   "--store", folder.appendingPathComponent("Shop.sqlite").path, "-o", scratch.path("rules.yml")])
        #expect(old.status == 65, "\(old)")
        #expect(old.stderrText.contains("the store's table ZPARTY has the column ZPOINTS, which no property of 'Party' or its subentities maps to"), "\(old)")
        #expect(old.stderrText.contains("model version identifier '2', the model 'Shop.xcdatamodel' is '1'"), "\(old)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("rules.yml")), "the rules are still written")
    }

    @Test func storeThatLacksAColumnOrATableIsReportedNotGuessed() throws {
        let scratch = try Scratch("coredata-drift"); defer { scratch.remove() }
        let folder = try Self.generate(into: scratch)
        let store = folder.appendingPathComponent("Shop.sqlite").path
        try sqlite(store, "ALTER TABLE ZDEPARTMENT DROP COLUMN ZBUDGET; DROP TABLE Z_4TAGS; UPDATE Z_PRIMARYKEY SET Z_NAME = 'Client' WHERE Z_NAME = 'Customer';")
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path,
                                        "--store", store, "-o", scratch.path("rules.yml")])
        #expect(imported.status == 65, "\(imported)")
        for message in ["the store's table ZDEPARTMENT lacks the column ZBUDGET for Department.budget",
                        "the store has no join table Z_4TAGS for the many-to-many Party.tags", "the model's entity 'Customer'",
                        "the store's Z_PRIMARYKEY lists the entity 'Client', which the model lacks"] {
            #expect(imported.stderrText.contains(message), "\(message)\n\(imported)")
        }
    }

    @Test func outputsNeverDestroyAnything() throws {
        let scratch = try Scratch("coredata-output"); defer { scratch.remove() }
        let folder = try Self.generate(into: scratch)
        let model = folder.appendingPathComponent("Shop.xcdatamodeld").path
        let store = folder.appendingPathComponent("Shop.sqlite").path
        try scratch.write("rules.yml", "# hand-edited\n")
        let refused = try Auditor.run(["import", "coredata", model, "--store", store, "-o", scratch.path("rules.yml")])
        #expect(refused.status == 73 && refused.stderrText.contains("--force"), "\(refused)")
        #expect(try String(contentsOfFile: scratch.path("rules.yml"), encoding: .utf8) == "# hand-edited\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let overStore = try Auditor.run(["import", "coredata", model, "--store", store, "-o", store, "--force"])
        #expect(overStore.status == 64, "\(overStore)")    // as for `run`: an output that is an input
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        // the store reached through a symlink, and its WAL sidecar before SQLite creates it
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.sqlite"), withDestinationPath: store)
        for target in [scratch.path("link.sqlite"), store + "-wal"] {
            let refusedOutput = try Auditor.run(["import", "coredata", model, "--store", store, "-o", target, "--force"])
            #expect(refusedOutput.status == 64, "\(refusedOutput)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        // The files of the model that the import reads: the current version, the bundle's marker, a localization.
        for file in [model + "/Shop 2.xcdatamodel/contents", model + "/.xccurrentversion", folder.appendingPathComponent("de.lproj/ShopModel.strings").path] {
            let read = try Data(contentsOf: URL(fileURLWithPath: file))
            let over = try Auditor.run(["import", "coredata", model, "-o", file, "--force"])
            #expect(over.status == 64 && over.stderrText.contains("is a file of the Core Data model"), "\(over)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == read)
        }
        let forced = try Auditor.run(["import", "coredata", model, "--store", store, "-o", scratch.path("rules.yml"), "--force"])
        #expect(forced.status == 0, "\(forced)")
    }

    @Test func missingOrMalformedModelExits66Or65() throws {
        let scratch = try Scratch("coredata-bad"); defer { scratch.remove() }
        let missing = try Auditor.run(["import", "coredata", scratch.path("Nope.xcdatamodeld")])
        #expect(missing.status == 66, "\(missing)")
        try scratch.write("Bad.xcdatamodel/contents", "<model><entity name=\"A\">\n<attribute name=\"x\"\n</model>")
        let malformed = try Auditor.run(["import", "coredata", scratch.path("Bad.xcdatamodel")])
        #expect(malformed.status == 65 && malformed.stderrText.contains("not a Core Data model file"), "\(malformed)")
        try scratch.write("plain.sqlite", "")
        try sqlite(scratch.path("plain.sqlite"), "CREATE TABLE people (id INTEGER);")
        try scratch.write("Ok.xcdatamodel/contents", "<model><entity name=\"A\"/></model>")
        let notCoreData = try Auditor.run(["import", "coredata", scratch.path("Ok.xcdatamodel"), "--store", scratch.path("plain.sqlite")])
        #expect(notCoreData.status == 65 && notCoreData.stderrText.contains("no Z_PRIMARYKEY table"), "\(notCoreData)")
    }

    /// Runs SQL on a database with the sqlite3 CLI.
    func sqlite(_ path: String, _ sql: String) throws {
        let run = try ChildProcess.run(["/usr/bin/sqlite3", path, sql])
        try #require(run.status == 0, "sqlite3 failed: \(sql)\n\(run)")
    }
}
