import Auditor
import Foundation

extension Fixture {
    /// Data that tries to forge lines, CI workflow commands and terminal escapes, or to break
    /// out of JSON and HTML: every one must come out escaped in text and round-trip in JSON.
    enum Hostile {
        static let forgedAnnotation = "x\n::error file=app.swift,line=1::forged annotation"
        static let forgedResult = "a\r\nResult: passed (exit 0)"
        static let ansi = "\u{1B}[2J\u{1B}[1;32mpassed\u{1B}[0m"
        static let c1 = "\u{9B}31mred\u{85}next"
        static let nul = "nul\u{0}byte\u{7F}del\u{7}bell"
        static let quotes = "\"double\" and 'single' and C:\\data\\x"
        static let emoji = "👩‍👩‍👧 🦄 café 𝄞"
        static let separators = "line\u{2028}sep\u{2029}para"
        static let script = "</script><script>alert(1)</script>&amp;"
        static let bidi = "invoice\u{202E}fdp.exe\u{FEFF}"
        static let tab = "tab\there"

        /// Every hostile string, for round-trip checks.
        static let all = [forgedAnnotation, forgedResult, ansi, c1, nul, quotes, emoji, separators,
                          script, bidi, tab]
    }

    static let hostile: Fixture = {
        let path = "uploads/evil\nname.csv"
        let entity = "Person\u{1B}[8m"
        func location(_ line: Int) -> RecordLocation {
            RecordLocation(path: path, line: line, record: line - 1)
        }
        let samples = [
            finding("person.name.length", 1660, .error, entity, "name", location(2), key: "id=\(Hostile.tab)",
                    value: Hostile.forgedAnnotation, "Name must be at most 8 characters; got '\(Hostile.forgedAnnotation)'."),
            finding("person.name.length", 1660, .error, entity, "name", location(3), key: "id=3",
                    value: Hostile.ansi, "Name must be at most 8 characters; got '\(Hostile.ansi)'."),
            finding("person.name.length", 1660, .error, entity, "name", location(4), key: "id=4",
                    value: Hostile.script, "Name must be at most 8 characters."),
        ]
        let notes = [
            finding("person.note.pattern", 1680, .warning, entity, "note", location(2), key: "id=\(Hostile.tab)",
                    value: Hostile.c1, "Note must be printable; got '\(Hostile.c1)'."),
            finding("person.note.pattern", 1680, .warning, entity, "note", location(5), key: "id=5",
                    value: Hostile.nul, "Note must be printable."),
            finding("person.note.pattern", 1680, .warning, entity, "note", location(6), key: Hostile.bidi,
                    value: Hostile.emoji, "Note must be ASCII; got '\(Hostile.emoji)'."),
            finding("person.note.pattern", 1680, .warning, entity, "note", location(7), key: "id=7",
                    value: Hostile.separators, "Note must be one line: \(Hostile.forgedResult)"),
        ]
        let secret = finding("person.password.required", 1570, .info, entity, "password", location(8),
                             key: "id=8", value: "••••", "Password must be \(Hostile.quotes).")
        let rules = [
            rule("person.name.length", entity, "people", "name", "maxLength", .error, 1660,
                 "name has at most 8 characters \(Hostile.script)", evaluated: 9, violations: 3, samples: samples),
            rule("person.note.pattern", entity, "people", "note", "pattern", .warning, 1680,
                 "note is printable \(Hostile.separators)", evaluated: 9, violations: 5, samples: notes),
            rule("person.password.required", entity, "people", "password", "required", .info, 1570,
                 "password is present", evaluated: 9, violations: 1, samples: [secret]),
            rule("person.id.\u{1B}]0;pwned\u{7}", entity, "people", "id", "required", .error, 1570,
                 "id is present", evaluated: 9),
        ]
        let records = [
            RecordFindings(entity: entity, location: location(2), key: "id=\(Hostile.tab)",
                           findings: [samples[0], notes[0]]),
            RecordFindings(entity: entity, location: location(3), key: "id=3", findings: [samples[1]]),
            RecordFindings(entity: entity, location: location(6), key: Hostile.bidi, findings: [notes[2]]),
        ]
        let report = AuditReport(
            toolVersion: "0.1.0", rulesFile: "rules/\(Hostile.forgedResult).yml", startedAt: startedAt,
            durationSeconds: 0.000123, failOn: .error, maxSamples: 4,
            inputs: [InputSummary(source: "people", path: path, format: "csv", bytes: 512, records: 9,
                                  complete: false, error: "\(path):10: \(Hostile.ansi) unterminated quote",
                                  seconds: 0)],
            rules: rules,
            entities: [EntityOutcome(name: entity, source: "people", records: 9,
                                     violatingRecords: 7, violations: 9, ruleIDs: rules.map(\.id))],
            records: records)
        return Fixture(name: "hostile", report: report)
    }()
}
