import Auditor
import Foundation

/// `--failures-out`: every violating record with all its findings, streamed to a file while
/// the audit runs, so memory stays flat whatever the number of failures (not only samples).
///
/// Writes go through a 256 KiB buffer to an ``OutputFile`` (an exclusive temporary file beside
/// the target, created when the sink is made, so a bad path fails before the audit starts);
/// ``finish()`` flushes, `fsync`s and renames it into place, so readers never see a
/// half-written file. ``discard()`` removes the temporary file when the run stops early.
///
/// Formats (``FailuresFormat``): JSON Lines, one object per record; or CSV, one row per
/// finding (``FailuresCSV``).
///
/// `@unchecked Sendable`: ``FindingSink`` guarantees that `receive` and `finish` are called
/// one at a time on the audit thread; `discard` is called by the CLI after the audit
/// returned or threw. No two threads ever touch the state at once.
package final class FailuresFile: FindingSink, @unchecked Sendable {
    public let path: String
    public let format: FailuresFormat
    /// Whether CSV cells are neutralised against formula injection (CONVENTIONS rule 9).
    public let formulaEscape: Bool
    /// Records and findings written so far.
    public private(set) var records = 0
    public private(set) var findings = 0

    private let output: OutputFile
    private var buffer: [UInt8] = []
    private static let bufferSize = 256 << 10

    /// Creates the temporary file.
    /// - Parameters:
    ///   - path: The target; `.jsonl`/`.ndjson` or `.csv` decides the format unless `format` is given.
    ///   - formulaEscape: Neutralise CSV cells that a spreadsheet would run as a formula.
    ///   - protected: Files the run reads, which the failures file must never be.
    /// - Throws: ``AuditError`` `.usage` for an unknown extension or a protected path,
    ///   `.cannotCreateOutput` when the folder is missing or not writable.
    public init(path: String, format: FailuresFormat? = nil, formulaEscape: Bool = true,
                protecting protected: ProtectedFiles = ProtectedFiles()) throws {
        guard let format = format ?? FailuresFormat(path: path) else {
            throw AuditError(.usage, "--failures-out needs a file ending in .jsonl, .ndjson or .csv; got '\(path)'")
        }
        self.path = path
        self.format = format
        self.formulaEscape = formulaEscape
        output = try OutputFile(path: path, what: "the failures file", option: "--failures-out", protecting: protected)
        buffer.reserveCapacity(Self.bufferSize)
        if format == .csv { append(FailuresCSV.header) }
    }

    public func receive(_ record: RecordFindings) throws {
        switch format {
        case .jsonl: append(FailuresJSONL.line(record))
        case .csv: append(FailuresCSV.rows(record, formulaEscape: formulaEscape))
        }
        records += 1
        findings += record.findings.count
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Flushes, syncs and renames the file into place.
    public func finish() throws {
        try flush()
        try output.commit()
    }

    /// Closes and removes the temporary file (the target is left as it was).
    public func discard() {
        output.discard()
    }

    private func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    private func flush() throws {
        try buffer.withUnsafeBytes { try output.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The formats of ``FailuresFile``.
package enum FailuresFormat: String, Sendable {
    case jsonl
    case csv

    /// From a file name: `.jsonl` / `.ndjson` → JSON Lines, `.csv` → CSV (case-insensitive).
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { self = .jsonl }
        else if lower.hasSuffix(".csv") { self = .csv }
        else { return nil }
    }
}

/// One JSON object per violating record, on one line:
/// `{"entity","location":{path,locator,record,text},"key","findings":[{rule,code,severity,attribute,value,message}]}`
/// (`location` as in the JSON report).
/// Strings are escaped as in the JSON report (controls, U+2028/U+2029 as `\u…`), so a line
/// never contains a raw line break.
enum FailuresJSONL {
    static func line(_ record: RecordFindings) -> String {
        JSONWriter(compact: true).write(.object([
            "entity": .string(record.entity),
            "location": JSONReporter.location(record.location),
            "key": .string(record.key),
            "findings": .array(record.findings.map { f in
                .object([
                    "rule": .string(f.ruleID),
                    "code": .integer(f.code),
                    "severity": .string(f.severity.rawValue),
                    "attribute": .string(f.attribute),
                    "value": .string(f.value),
                    "message": .string(f.message),
                ])
            }),
        ]))
    }
}

/// One CSV row per finding (RFC 4180: every field quoted, inner quotes doubled, CRLF line
/// ends), columns `entity,path,line,table,rowid,record,key,rule,code,severity,attribute,value,message`.
/// A missing value is an empty field. The location columns keep their names from before
/// locations were source-neutral: `line` is the line (CSV, XML), `table` the container of a
/// keyed record (an SQLite table, a Core Data entity) and `rowid` its key's value.
///
/// Formula neutralisation (CONVENTIONS rule 9, OWASP "CSV injection"): a text cell that
/// starts with `=`, `+`, `-`, `@`, TAB, CR or LF gets a leading `'`, so a spreadsheet shows it
/// instead of running it. It changes such values (`-5` reads `'-5`), hence
/// `--csv-formula-escape=off`. The integer columns (line, rowid, record, code) are written by
/// auditor, never from data, and are left alone.
enum FailuresCSV {
    static let header = "\"entity\",\"path\",\"line\",\"table\",\"rowid\",\"record\",\"key\",\"rule\",\"code\",\"severity\",\"attribute\",\"value\",\"message\"\r\n"

    static func rows(_ record: RecordFindings, formulaEscape: Bool) -> String {
        var out = ""
        let l = record.location
        for f in record.findings {
            let cells = [
                field(record.entity, formulaEscape), field(l.path, formulaEscape), quoted(l.line.map(String.init) ?? ""),
                field(l.container ?? "", formulaEscape), quoted(l.keyValue.map(String.init) ?? ""), quoted(String(l.record)),
                field(record.key ?? "", formulaEscape), field(f.ruleID, formulaEscape), quoted(String(f.code)),
                quoted(f.severity.rawValue), field(f.attribute ?? "", formulaEscape), field(f.value ?? "", formulaEscape),
                field(f.message, formulaEscape),
            ]
            out += cells.joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// A quoted text cell, neutralised when asked.
    static func field(_ text: String, _ formulaEscape: Bool) -> String {
        quoted(formulaEscape ? neutralised(text) : text)
    }

    /// `'` + text when it starts with `=`, `+`, `-`, `@`, TAB, CR or LF.
    static func neutralised(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        switch first {
        case "=", "+", "-", "@", "\t", "\r", "\n": return "'" + text
        default: return text
        }
    }

    /// `"text"` with inner quotes doubled.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

private extension RecordLocation {
    /// The table or entity of a keyed record (the CSV's `table` column).
    var container: String? {
        if case .key(let container, _, _) = locator { return container }
        return nil
    }

    /// The key's value of a keyed record (the CSV's `rowid` column).
    var keyValue: Int64? {
        if case .key(_, _, let value) = locator { return value }
        return nil
    }
}
