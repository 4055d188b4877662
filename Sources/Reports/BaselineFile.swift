import Auditor
import Foundation

/// Reads a JSON report as a baseline: the fingerprint of every finding it recorded (its
/// top-level `fingerprints`, written by ``JSONReporter`` since schema 1.2).
///
/// The file is only read, never written, so it may be the same path a later step of the run
/// writes its report to (`--baseline report.json --output report.json`): the CLI loads the
/// baseline before the audit starts.
package enum BaselineFile {
    /// The first report schema version that lists every finding's fingerprint.
    public static let firstVersionWithFingerprints = (major: 1, minor: 2)
    /// The newest major schema version this reader reads: 2.0 changed only the shape of
    /// locations, which a baseline never reads, so 1.2 and later and every 2.x are baselines.
    public static let latestMajor = 2

    /// The fingerprints of a JSON report.
    ///
    /// - Parameter path: The report, as the user gave it (errors name it).
    /// - Returns: Every fingerprint by rule id.
    /// - Throws: ``AuditError`` located at `path`: `.missingInput` (exit 66) when the file does
    ///   not exist, is a directory or cannot be opened; `.io` (74) when reading fails;
    ///   `.malformedInput` (65) when it is not JSON, not an auditor report, a report of a
    ///   schema this auditor does not read, or a report without fingerprints (written by an
    ///   auditor before schema 1.2, or without fingerprints by a library caller).
    public static func load(path: String) throws -> FingerprintSet {
        let document = try parse(try read(path), path: path)
        return try fingerprints(in: document, path: path)
    }

    /// The file's bytes.
    static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AuditError(.missingInput, "the baseline report does not exist; create it with a first run that writes "
                             + "a JSON report (--format json --output FILE, or --report json:FILE)", location: path)
        }
        guard !isDirectory.boolValue else {
            throw AuditError(.missingInput, "--baseline names a directory; it takes a JSON report written by auditor",
                             location: path)
        }
        try InputFile.requireRegular(path, what: "the baseline report")
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw AuditError(.missingInput, "cannot open the baseline report", location: path, cause: "permission denied")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw AuditError(.io, "cannot read the baseline report", location: path, cause: "\(error.localizedDescription)")
        }
    }

    /// The report's top-level object, after checking that it is an auditor report of a schema
    /// this auditor reads.
    static func parse(_ data: Data, path: String) throws -> [String: Any] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
            throw AuditError(.malformedInput, "the baseline is not a JSON document; --baseline takes a JSON report "
                             + "written by auditor (--format json)", location: path, cause: clipped(detail, 160))
        }
        guard let document = object as? [String: Any],
              let version = document["schemaVersion"] as? String,
              (document["tool"] as? [String: Any])?["name"] as? String == "auditor" else {
            throw AuditError(.malformedInput, "the baseline is JSON but not an auditor report (it lacks 'schemaVersion' "
                             + "and tool.name 'auditor'); --baseline takes a report written with --format json or "
                             + "--report json:FILE", location: path)
        }
        let parts = version.split(separator: ".").map { Int($0) }
        guard parts.count == 2, let major = parts[0], let minor = parts[1] else {
            throw AuditError(.malformedInput, "the baseline report has an invalid schemaVersion '\(clipped(version, 20))'",
                             location: path)
        }
        guard (firstVersionWithFingerprints.major ... latestMajor).contains(major) else {
            throw AuditError(.malformedInput, "the baseline report has schema version \(version), which this auditor does "
                             + "not read (it reads 1.x and 2.x); write the baseline again with this auditor", location: path)
        }
        if major == firstVersionWithFingerprints.major, minor < firstVersionWithFingerprints.minor {
            let writer = ((document["tool"] as? [String: Any])?["version"] as? String).map { "auditor \(clipped($0, 20))" }
                ?? "an older auditor"
            throw AuditError(.malformedInput, "the baseline report has no fingerprints: \(writer) wrote it with report "
                             + "schema \(version), and fingerprints come with schema 1.2; run the audit once with this "
                             + "auditor and --format json --output FILE (or --report json:FILE) to write a baseline",
                             location: path)
        }
        return document
    }

    /// `fingerprints` as a set, every entry checked.
    static func fingerprints(in document: [String: Any], path: String) throws -> FingerprintSet {
        guard let lists = document["fingerprints"], !(lists is NSNull) else {
            throw AuditError(.malformedInput, "the baseline report has no fingerprints (its 'fingerprints' is null: the "
                             + "run did not collect them); the auditor CLI writes them in every JSON report, so run the "
                             + "audit once with --format json --output FILE to write a baseline", location: path)
        }
        guard let byRule = lists as? [String: Any] else {
            throw AuditError(.malformedInput, "the baseline report's 'fingerprints' is not an object of rule ids",
                             location: path)
        }
        var set: [String: [UInt64]] = [:]
        for (rule, value) in byRule {
            guard let entries = value as? [Any] else {
                throw AuditError(.malformedInput, "the baseline report's fingerprints of rule '\(clipped(rule, 80))' "
                                 + "are not a list", location: path)
            }
            var prints: [UInt64] = []
            prints.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                guard let text = entry as? String, text.utf8.allSatisfy(isLowerHex), let fp = Fingerprint.parse(text) else {
                    throw AuditError(.malformedInput, "the baseline report's fingerprint \(index + 1) of rule "
                                     + "'\(clipped(rule, 80))' is not 16 lowercase hex digits: "
                                     + "'\(clipped("\(entry)", 40))'", location: path)
                }
                prints.append(fp)
            }
            set[rule] = prints
        }
        return FingerprintSet(byRule: set)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// At most `limit` characters of `text`, with `…` when cut (a hostile file cannot flood stderr).
    private static func clipped(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
