import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("Baseline file")
struct BaselineFileTests {
    /// Writes `text` to a fresh file and returns its path (the folder is removed by `cleanup`).
    static func file(_ text: String, name: String = "baseline.json") throws -> (path: String, cleanup: () -> Void) {
        let folder = try ExternalTool.temporaryFolder("auditor-baseline")
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return (url.path, { try? FileManager.default.removeItem(at: folder) })
    }

    /// The error `load` throws for a file holding `text`.
    static func error(loading text: String) throws -> (AuditError, String) {
        let (path, cleanup) = try file(text)
        defer { cleanup() }
        do {
            _ = try BaselineFile.load(path: path)
        } catch let e as AuditError {
            return (e, path)
        }
        Issue.record("loaded \(text.prefix(80)) without an error")
        throw CancellationError()
    }

    @Test("a JSON report's fingerprints read back exactly")
    func roundTrip() throws {
        let report = Fixture.baseline.report
        let (path, cleanup) = try Self.file(JSONReporter().render(report))
        defer { cleanup() }
        let loaded = try BaselineFile.load(path: path)
        #expect(loaded == report.fingerprints)
        #expect(loaded.count == report.rules.reduce(0) { $0 + $1.violations })
    }

    /// Schema 2.0 changed only the shape of locations; a report that the previous version wrote
    /// (1.3, with `line`, `table` and `rowid` in every location) is still a baseline, with the
    /// same fingerprints.
    @Test("a 1.3 report with the old location shape is still a baseline")
    func previousMajor() throws {
        let report = Fixture.baseline.report
        var document = try #require(try JSONSerialization.jsonObject(
            with: Data(JSONReporter().render(report).utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? String == "2.0")
        func oldShape(_ value: Any) -> Any {
            if var object = value as? [String: Any] {
                if let locator = object["locator"], object["text"] != nil {
                    let l = locator as? [String: Any]
                    object["locator"] = nil
                    object["line"] = l?["line"] ?? NSNull()
                    object["table"] = l?["container"] ?? NSNull()
                    object["rowid"] = l?["value"] ?? NSNull()
                    return object
                }
                return object.mapValues(oldShape)
            }
            if let array = value as? [Any] { return array.map(oldShape) }
            return value
        }
        document = try #require(oldShape(document) as? [String: Any])
        document["schemaVersion"] = "1.3"
        let text = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        #expect(text.contains(#""rowid":"#) && !text.contains(#""locator""#))
        let (path, cleanup) = try Self.file(text)
        defer { cleanup() }
        #expect(try BaselineFile.load(path: path) == report.fingerprints)
    }

    @Test("a missing file: 66, naming the path and how to create a baseline")
    func missing() throws {
        let folder = try ExternalTool.temporaryFolder("auditor-baseline")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nowhere.json").path
        #expect {
            try BaselineFile.load(path: path)
        } throws: { error in
            guard let e = error as? AuditError else { return false }
            return e.code == .missingInput && e.code.exitStatus == .noInput && e.location == path
                && e.message.contains("does not exist") && e.message.contains("--format json")
        }
        #expect(throws: AuditError.self) { try BaselineFile.load(path: folder.path) }  // a directory
    }

    @Test("not JSON, not an auditor report, not a report auditor reads: 65, naming the path", arguments: [
        ("<html>not json</html>", "not a JSON document"),
        ("", "not a JSON document"),
        ("[1, 2, 3]", "not an auditor report"),
        (#"{"schemaVersion": "1.2", "tool": {"name": "other"}}"#, "not an auditor report"),
        (#"{"version": "2.1.0", "runs": []}"#, "not an auditor report"),
        (#"{"schemaVersion": "3.0", "tool": {"name": "auditor"}, "fingerprints": {}}"#, "schema version 3.0"),
        (#"{"schemaVersion": "x", "tool": {"name": "auditor"}}"#, "invalid schemaVersion 'x'"),
    ])
    func unusable(_ text: String, _ expected: String) throws {
        let (e, path) = try Self.error(loading: text)
        #expect(e.code == .malformedInput && e.code.exitStatus == .dataError)
        #expect(e.location == path)
        #expect(e.message.contains(expected), "\(e.description)")
    }

    @Test("a report from before fingerprints says which version and flag write them")
    func olderReport() throws {
        var document = try #require(try JSONSerialization.jsonObject(
            with: Data(JSONReporter().render(Fixture.failing.report).utf8)) as? [String: Any])
        document["schemaVersion"] = "1.1"
        document["fingerprints"] = nil
        let text = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        let (e, _) = try Self.error(loading: text)
        #expect(e.code == .malformedInput)
        #expect(e.message.contains("no fingerprints") && e.message.contains("auditor 0.1.0")
                && e.message.contains("schema 1.1") && e.message.contains("1.2") && e.message.contains("--format json"),
                "\(e.message)")

        // A 1.2 report written without fingerprints (a library caller's).
        let (null, _) = try Self.error(loading: JSONReporter().render(Fixture.failing.report))
        #expect(null.message.contains("'fingerprints' is null"), "\(null.message)")
    }

    @Test("a damaged fingerprint list names the rule and the entry")
    func damaged() throws {
        let head = #"{"schemaVersion": "1.2", "tool": {"name": "auditor", "version": "0.1.0"}, "fingerprints": "#
        let (a, _) = try Self.error(loading: head + #"{"r.x": ["00000000000000ff", "XYZ"]}}"#)
        #expect(a.message.contains("fingerprint 2 of rule 'r.x'") && a.message.contains("'XYZ'"), "\(a.message)")
        let (b, _) = try Self.error(loading: head + #"{"r.x": ["00000000000000FF"]}}"#)
        #expect(b.message.contains("lowercase"), "\(b.message)")
        let (c, _) = try Self.error(loading: head + #"{"r.x": 3}}"#)
        #expect(c.message.contains("not a list"), "\(c.message)")
        let (d, _) = try Self.error(loading: head + #"[]}"#)
        #expect(d.message.contains("not an object"), "\(d.message)")
    }
}
