import Foundation
import TestSupport
import Testing

/// The store side of the Core Data import against references we did not write: Python's
/// `datetime` for Core Data's dates (seconds since 2001-01-01), and SQLite's own WAL for a
/// store copied off a device with its `-wal` file.
@Suite("Core Data store") struct CoreDataStoreTests {
    /// Runs a Python 3 program with arguments.
    func python(_ program: String, _ arguments: [String]) throws {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let run = try ChildProcess.run([python.path, "-c", program] + arguments)
        try #require(run.status == 0, "python3 failed: \(run)")
    }

    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Event" representedClassName="Event" syncable="YES" codeGenerationType="class">
                <attribute name="at" optional="YES" attributeType="Date" minDateTimeInterval="-3187296000" maxDateTimeInterval="915148800" usesScalarValueType="NO"/>
            </entity>
        </model>
        """

    /// Random dates around both bounds and 2001-01-01 itself, as REAL and INTEGER, compared
    /// with what Python's datetime says about each one.
    @Test func datesAgainstPythonDatetime() throws {
        let scratch = try Scratch("coredata-dates"); defer { scratch.remove() }
        try scratch.write("Events.xcdatamodel/contents", Self.model)
        try python("""
            import datetime, json, random, sqlite3, sys
            out = sys.argv[1]
            rnd = random.Random(18)
            epoch = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
            lo, hi = -3187296000, 915148800
            db = sqlite3.connect(out + "/Events.sqlite")
            db.executescript("CREATE TABLE ZEVENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAT TIMESTAMP);"
                             "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);"
                             "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Event', 0, 400);")
            expected = {"event.at.min": [], "event.at.max": []}
            for pk in range(1, 401):
                base = rnd.choice([lo, hi, 0, rnd.randint(lo - 10**9, hi + 10**9)])
                v = base + rnd.randint(-3, 3)
                if pk % 2: v = float(v)
                db.execute("INSERT INTO ZEVENT VALUES (?, 1, 1, ?)", (pk, v))
                when = epoch + datetime.timedelta(seconds=v)
                text = when.strftime("%Y-%m-%dT%H:%M:%S.000Z")
                if when < epoch + datetime.timedelta(seconds=lo): expected["event.at.min"].append([pk, text])
                if when > epoch + datetime.timedelta(seconds=hi): expected["event.at.max"].append([pk, text])
            db.commit()
            json.dump(expected, open(out + "/expected.json", "w"))
            """, [scratch.url.path])
        let imported = try Auditor.run(["import", "coredata", scratch.path("Events.xcdatamodel"), "--store", scratch.path("Events.sqlite"),
                                        "-o", scratch.path("rules.yml")])
        #expect(imported.status == 0, "\(imported)")
        let rules = try String(contentsOfFile: scratch.path("rules.yml"), encoding: .utf8)
        #expect(rules.contains("min: \"1900-01-01T00:00:00Z\"") && rules.contains("max: \"2030-01-01T00:00:00Z\""), "\(rules)")
        let run = try Auditor.run(["run", scratch.path("rules.yml"), "--format", "json", "--max-samples", "1000",
                                   "--output", scratch.path("report.json")])
        #expect(run.status == 1, "\(run)")
        let report = try ReportJSON(contentsOf: scratch.url.appendingPathComponent("report.json"))
        let expected = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("expected.json"))) as? [String: [[Any]]])
        for id in ["event.at.min", "event.at.max"] {
            let want = (expected[id] ?? []).map { "Z_PK=\($0[0]) \($0[1])" }
            let samples = report.rules(withID: id).first?["samples"] as? [[String: Any]] ?? []
            let got = samples.map { "\($0["key"] ?? "") \($0["value"] ?? "")" }
            #expect(!want.isEmpty && got == want, "\(id)")
        }
    }

    /// A store copied off a device with its `-wal` file: the rows only the WAL holds are audited,
    /// and neither file is changed.
    @Test func storeWithWALSidecarIsReadWithTheWAL() throws {
        let scratch = try Scratch("coredata-wal"); defer { scratch.remove() }
        try scratch.write("Events.xcdatamodel/contents", Self.model)
        try python("""
            import shutil, sqlite3, sys
            out = sys.argv[1]
            db = sqlite3.connect(out + "/live.sqlite")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.executescript("CREATE TABLE ZEVENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAT TIMESTAMP);"
                             "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);"
                             "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Event', 0, 2);")
            db.execute("INSERT INTO ZEVENT VALUES (1, 1, 1, 0.0)")
            db.execute("INSERT INTO ZEVENT VALUES (2, 1, 1, -4000000000.0)")
            db.commit()
            shutil.copy(out + "/live.sqlite", out + "/Events.sqlite")
            shutil.copy(out + "/live.sqlite-wal", out + "/Events.sqlite-wal")
            db.close()
            """, [scratch.url.path])
        let store = scratch.path("Events.sqlite")
        let wal = try Data(contentsOf: URL(fileURLWithPath: store + "-wal"))
        #expect(!wal.isEmpty)
        let imported = try Auditor.run(["import", "coredata", scratch.path("Events.xcdatamodel"), "--store", store,
                                        "-o", scratch.path("rules.yml")])
        #expect(imported.status == 0, "\(imported)")
        let run = try Auditor.run(["run", scratch.path("rules.yml")])
        #expect(run.status == 1 && run.stdoutText.contains("event.at.min: at must be on or after 1900-01-01T00:00:00Z; got 1874-03-31"), "\(run)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store + "-wal")) == wal)
    }
}

extension CoreDataStoreTests {
    /// `Z_METADATA`'s version hashes name the entities of the model that wrote the store.
    @Test func metadataHashesForAnotherModelAreReported() throws {
        let scratch = try Scratch("coredata-metadata"); defer { scratch.remove() }
        let folder = try CoreDataImportTests.generate(into: scratch)
        try python("""
            import plistlib, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            plist = plistlib.loads(db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()[0])
            del plist["NSStoreModelVersionHashes"]["Tag"]
            plist["NSStoreModelVersionHashes"]["Invoice"] = b"x" * 32
            db.execute("UPDATE Z_METADATA SET Z_PLIST = ?", (plistlib.dumps(plist, fmt=plistlib.FMT_BINARY),))
            db.commit()
            """, [folder.appendingPathComponent("Shop.sqlite").path])
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path,
                                        "--store", folder.appendingPathComponent("Shop.sqlite").path])
        #expect(imported.status == 65, "\(imported)")
        #expect(imported.stderrText.contains("the store's Z_METADATA version hashes are for another model: no hash for Tag hashes for Invoice, not in the model"), "\(imported)")
    }
}
