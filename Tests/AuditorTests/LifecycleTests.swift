import Auditor
import Testing

/// Two snapshots with known inserts, updates and deletes: classification and every lifecycle rule.
@Suite struct LifecycleTests {
    let yaml = """
        version: 1
        sources:
          docs: { path: docs.mem }
          folders: { path: folders.mem }
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
                message: "Doc {id} was deleted while {status}; archive it first."
              - id: doc.update.title
                on: [update]
                assert: len(title) >= 5
          Folder:
            source: folders
            key: [id]
            attributes: { id: integer, name: string }
            relationships:
              docs: { from: Doc.folder, deleteRule: deny }
        """

    let folders1: (fields: [String], rows: [[String?]]) = (["id", "name"], [["1", "Inbox"], ["2", "Old"], ["3", "Tmp"]])
    let folders2: (fields: [String], rows: [[String?]]) = (["id", "name"], [["1", "Inbox"], ["3", "Temp"]])
    let docs1: (fields: [String], rows: [[String?]]) = (["id", "folder", "title", "status", "author"], [
        ["1", "1", "Alpha", "draft", "ann"],        // → published (allowed)
        ["2", "1", "Beta", "published", "bob"],     // → draft via "* -> draft" (allowed), author changed (immutable)
        ["3", "2", "Gamma", "published", "cy"],     // deleted while published (delete rule)
        ["4", "1", "Delta", "archived", "dee"],     // deleted while archived: fine
        ["5", "1", "Epsilon", "published", "eve"],  // unchanged
        ["6", "1", "Zeta", "archived", "fay"],      // → published: not allowed
    ])
    let docs2: (fields: [String], rows: [[String?]]) = (["id", "folder", "title", "status", "author"], [
        ["5", "1", "Epsilon", "published", "eve"],
        ["1", "1", "Alpha", "published", "ann"],
        ["2", "1", "Beta", "draft", "bo"],
        ["6", "1", "Zeta", "published", "fay"],
        ["7", "2", "Ok", "draft", "gus"],           // inserted: short title; references deleted folder 2
        ["8", "3", "Theta", "draft", "hal"],        // inserted, fine
    ])

    func run(previous: Bool = true, changedOnly: Bool = false, jobs: Int = 1, chunk: Int = 2,
             fingerprints: Bool = false) throws -> AuditReport {
        var tables = ["docs": docs2, "folders": folders2]
        tables["docs-prev"] = docs1
        tables["folders-prev"] = folders1
        let registry = ReaderRegistry([InMemoryReader.factory(tables: tables)])
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        var options = AuditOptions(jobs: jobs, chunkSize: chunk)
        if previous { options.previousPaths = ["docs": "docs-prev.mem", "folders": "folders-prev.mem"] }
        options.changedOnly = changedOnly
        options.collectFingerprints = fingerprints
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    func rule(_ r: AuditReport, _ id: String) throws -> RuleOutcome { try #require(r.rules.first { $0.id == id }) }

    /// The deleted record's finding comes from a second pass over the previous snapshot: its
    /// fingerprint joins the entity's, as every other finding's does.
    @Test func everyFindingHasAFingerprintDeletedRecordsToo() throws {
        let r = try run(fingerprints: true)
        let fingerprints = try #require(r.fingerprints)
        let deleted = try rule(r, "doc.delete.archived")
        #expect(deleted.violations == 1)
        let fp = try #require(deleted.samples.first?.fingerprint)
        #expect(fingerprints.contains(fp, rule: deleted.fingerprintKey))
        for o in r.rules { #expect(fingerprints.byRule[o.fingerprintKey, default: []].count == o.violations, "\(o.id)") }
        #expect(fingerprints.count == r.rules.reduce(0) { $0 + $1.violations })
    }

    @Test(arguments: [(1, 1), (1, 2), (2, 3), (2, 4096)])
    func classifiesEveryRecord(jobs: Int, chunk: Int) throws {
        let r = try run(jobs: jobs, chunk: chunk)
        let docs = try #require(r.entities.first { $0.name == "Doc" }?.lifecycle)
        #expect([docs.inserted, docs.updated, docs.deleted, docs.unchanged] == [2, 3, 2, 1])
        #expect(docs.previousRecords == 6 && docs.complete)
        #expect(docs.changedAttributes == [AttributeChanges(attribute: "status", records: 3),
                                           AttributeChanges(attribute: "author", records: 1)])
        #expect(docs.samples.map { "\($0.kind.rawValue) \($0.key ?? "") \($0.location.description) \($0.attributes)" } == [
            "updated id=1 docs.mem:3 [\"status\"]",
            "updated id=2 docs.mem:4 [\"status\", \"author\"]",
            "updated id=6 docs.mem:5 [\"status\"]",
            "inserted id=7 docs.mem:6 []",
            "inserted id=8 docs.mem:7 []",
            "deleted id=3 docs-prev.mem:4 []",
            "deleted id=4 docs-prev.mem:5 []",
        ])
        let folders = try #require(r.entities.first { $0.name == "Folder" }?.lifecycle)
        #expect([folders.inserted, folders.updated, folders.deleted, folders.unchanged] == [0, 1, 1, 1])
    }

    @Test func lifecycleRulesFindExactlyTheSeededProblems() throws {
        let r = try run()
        let immutable = try rule(r, "Doc.author.immutable")
        #expect(immutable.violations == 1 && immutable.evaluated == 3 && immutable.code == 2040)
        #expect(immutable.samples.first?.message == "author cannot change once set; it changed from 'bob' to 'bo'.")
        let transitions = try rule(r, "Doc.status.transitions")
        #expect(transitions.violations == 1 && transitions.code == 2041)
        #expect(transitions.samples.first?.key == "id=6")
        #expect(transitions.samples.first?.message
            == "status cannot change from 'archived' to 'published'; allowed: draft -> published, published -> archived, * -> draft.")
        let insertOnly = try rule(r, "Doc.title.minLength")
        #expect(insertOnly.violations == 1 && insertOnly.evaluated == 2)       // id 7 only; id 2's "Beta" is an update
        let onUpdate = try rule(r, "doc.update.title")
        #expect(onUpdate.violations == 2 && onUpdate.evaluated == 3)           // Beta and Zeta (4 letters) were updated
        #expect(onUpdate.samples.map(\.key) == ["id=2", "id=6"])
        let onDelete = try rule(r, "doc.delete.archived")
        #expect(onDelete.violations == 1 && onDelete.evaluated == 2)
        #expect(onDelete.samples.first?.message == "Doc 3 was deleted while published; archive it first.")
        #expect(onDelete.samples.first?.location.description == "docs-prev.mem:4")
        let deny = try rule(r, "Folder.docs.deleteRule")
        #expect(deny.violations == 1 && deny.evaluated == 1 && deny.code == 1600)
        #expect(deny.samples.first?.message
            == "Folder id=2 was deleted, but 1 Doc record still references it; its docs relationship denies the delete.")
        #expect(deny.samples.first?.location.description == "folders-prev.mem:3")
        #expect(try rule(r, "Doc.folder.fk").violations == 1)
        // Every unscoped rule still sees every current record.
        #expect(try rule(r, "Doc.status.enum").evaluated == 6)
        #expect(r.inputs.filter(\.isPrevious).map(\.path) == ["docs-prev.mem", "folders-prev.mem"])
    }

    @Test func withoutAPreviousSnapshotEveryRecordIsInserted() throws {
        let r = try run(previous: false)
        #expect(try rule(r, "Doc.title.minLength").evaluated == 6)
        #expect(try rule(r, "Doc.title.minLength").violations == 1)
        #expect(try rule(r, "Doc.author.immutable").evaluated == 0)
        #expect(try rule(r, "doc.delete.archived").evaluated == 0)
        #expect(try rule(r, "Folder.docs.deleteRule").evaluated == 0)
        let docs = try #require(r.entities.first { $0.name == "Doc" }?.lifecycle)
        #expect(docs.previousPath == nil && docs.inserted == 6)
    }

    @Test func changedOnlyAuditsInsertedAndUpdatedRecords() throws {
        let r = try run(changedOnly: true)
        #expect(try rule(r, "Doc.status.enum").evaluated == 5)                 // id 5 unchanged: skipped
        #expect(try rule(r, "Doc.id.required").evaluated == 5)
        #expect(try rule(r, "Doc.folder.fk").evaluated == 6)                   // cross-record rules see every key
        #expect(try rule(r, "Doc.author.immutable").violations == 1)
    }
}

@Suite struct DeleteRuleTests {
    func run(_ rule: String) throws -> AuditReport {
        let yaml = """
            version: 1
            sources:
              docs: { path: docs.mem }
              folders: { path: folders.mem }
            entities:
              Doc:
                source: docs
                key: [id]
                attributes: { id: integer, folder: integer }
                relationships:
                  folder: { attribute: folder, references: Folder.id }
              Folder:
                source: folders
                key: [id]
                attributes: { id: integer }
                relationships:
                  docs: { from: Doc.folder, deleteRule: \(rule) }
            """
        let tables: [String: (fields: [String], rows: [[String?]])] = [
            "folders-prev": (["id"], [["1"], ["2"], ["3"]]),
            "folders": (["id"], [["1"]]),                                   // 2 and 3 deleted
            "docs": (["id", "folder"], [["10", "1"], ["11", "2"], ["12", nil], ["13", "2"], ["14", "9"]]),
        ]
        let registry = ReaderRegistry([InMemoryReader.factory(tables: tables)])
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        var options = AuditOptions(jobs: 1, chunkSize: 2)
        options.previousPaths = ["folders": "folders-prev.mem"]
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    @Test func nullifyAndCascadeFlagEachChildOfADeletedParent() throws {
        for (rule, code) in [("nullify", 2042), ("cascade", 2043)] {
            let r = try run(rule)
            let outcome = try #require(r.rules.first { $0.id == "Folder.docs.deleteRule" })
            // Docs 11 and 13 point at deleted folder 2; 14's folder 9 never existed (only the fk rule).
            #expect(outcome.violations == 2 && outcome.code == code && outcome.entity == "Doc", "\(rule)")
            #expect(outcome.evaluated == 4)                     // children with a reference
            #expect(outcome.samples.map(\.key) == ["id=11", "id=13"])
            #expect(r.rules.first { $0.id == "Doc.folder.fk" }?.violations == 3)
        }
        // No rule reads deleted records again here: the index gives their count and samples.
        let folders = try #require(try run("nullify").entities.first { $0.name == "Folder" }?.lifecycle)
        #expect(folders.deleted == 2)
        #expect(folders.samples.map { "\($0.kind.rawValue) \($0.key ?? "") \($0.location.description)" }
            == ["deleted id=2 folders-prev.mem:3", "deleted id=3 folders-prev.mem:4"])
        let cascade = try run("cascade")
        #expect(cascade.rules.first { $0.id == "Folder.docs.deleteRule" }?.samples.first?.message
            == "Doc id=11 references Folder 2, which was deleted; with deleteRule cascade, this record should have been deleted with it.")
    }

    @Test func denyCountsTheReferencesOfEachDeletedParent() throws {
        let r = try run("deny")
        let outcome = try #require(r.rules.first { $0.id == "Folder.docs.deleteRule" })
        #expect(outcome.violations == 1 && outcome.evaluated == 2 && outcome.code == 1600)
        #expect(outcome.samples.first?.key == "id=2" && outcome.samples.first?.value == "2")
    }

    @Test func aDeleteRuleOnTheReferencingSideIsARulesError() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                key: [id]
                attributes: { id: integer, parent: integer }
                relationships:
                  up: { attribute: parent, references: E.id, deleteRule: deny }
            """
        #expect(throws: AuditError.self) { try RulesFileParser(formats: ["memory"]).parse(yaml, path: "rules.yml") }
        do {
            _ = try RulesFileParser(formats: ["memory"]).parse(yaml.replacingOccurrences(of: "deleteRule: deny", with: "deleteRule: denyy"), path: "rules.yml")
        } catch {
            #expect("\(error)".contains("did you mean 'deny'?"))
        }
    }
}
