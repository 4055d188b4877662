import Foundation
import Testing

/// The audit never writes to what it audits, and data cannot forge output lines.
@Suite("Input safety")
struct InputSafetyTests {
    /// Size, modification time, inode and bytes of every file in a folder.
    struct Snapshot: Equatable, CustomStringConvertible {
        struct Entry: Equatable {
            var size: Int
            var modified: Date?
            var inode: Int
            var bytes: Data
        }
        var files: [String: Entry]
        var description: String {
            files.keys.sorted().map { "\($0) \(files[$0]?.size ?? -1) bytes" }.joined(separator: ", ")
        }

        init(_ folder: URL) throws {
            let fm = FileManager.default
            var files = [String: Entry]()
            for name in try fm.contentsOfDirectory(atPath: folder.path) {
                let path = folder.appendingPathComponent(name).path
                let attributes = try fm.attributesOfItem(atPath: path)
                files[name] = Entry(size: (attributes[.size] as? NSNumber)?.intValue ?? -1,
                                    modified: attributes[.modificationDate] as? Date,
                                    inode: (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1,
                                    bytes: try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            self.files = files
        }
    }

    @Test("CSV and SQLite inputs are unchanged: same bytes, mtime and inode; no sidecar files",
          arguments: ["people.csv", "people.sqlite"])
    func inputUnchanged(_ file: String) throws {
        let tmp = try Scratch("unchanged")
        defer { tmp.remove() }
        try tmp.copy(fromPackage: "examples/people/\(file)", as: "data/\(file)")
        let data = tmp.url.appendingPathComponent("data")
        let before = try Snapshot(data)
        for jobs in ["1", "2"] {
            try assertExecute(["run", "rules/people.yml", "--source", "people=\(data.appendingPathComponent(file).path)",
                               "--format", "json", "--jobs", jobs], exitCode: 1)
            try assertExecute(["run", "rules/people.yml", "--source", "people=\(data.appendingPathComponent(file).path)",
                               "--jobs", jobs], exitCode: 1)
        }
        let after = try Snapshot(data)
        #expect(Set(after.files.keys) == Set(before.files.keys), "files now: \(after), before: \(before)")
        #expect(after == before, "\(file) changed: \(before) → \(after)")
    }

    @Test("The bundled example itself is unchanged by a run")
    func bundledExampleUnchanged() throws {
        let folder = Auditor.packageRoot.appendingPathComponent("examples/people")
        let before = try Snapshot(folder)
        try assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1)
        try assertExecute(["run", "rules/people.yml", "--source", "people=examples/people/people.sqlite"], exitCode: 1)
        #expect(try Snapshot(folder) == before)
    }

    // MARK: Forged output

    /// Values that try to start a line of their own or drive the terminal.
    static let hostileCSV = "id,name,age\r\n"
        + "1,\"Al\n::error::forged\",30\r\n"
        + "2,\"Bo\u{1B}[31mred\u{1B}[0m\r\nResult: passed (exit 0)\",40\r\n"
        + "3,\"x\u{2028}::warning::y\u{85}z\",1\r\n"
        + "4,Fine,\"\u{1B}]0;title\u{07}\"\r\n"

    static func hostileScratch() throws -> Scratch {
        let tmp = try Scratch("hostile")
        try tmp.write("data.csv", hostileCSV)
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv", namePattern: "[A-Za-z ]+"))
        return tmp
    }

    @Test("Text report with --color never: values escaped, no forged line, no ESC byte")
    func textCannotBeForged() throws {
        let tmp = try Self.hostileScratch()
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--color", "never"], in: tmp.url, exitCode: 1)
        for (stream, text) in [("stdout", run.stdoutText), ("stderr", run.stderrText)] {
            #expect(!text.utf8.contains(0x1B), "ESC byte on \(stream)\n\(run)")
            #expect(!text.utf8.contains(0x0D), "CR on \(stream)\n\(run)")
            #expect(!text.unicodeScalars.contains { [0x85, 0x2028, 0x2029, 0x07].contains($0.value) },
                    "a line separator or BEL on \(stream)")
            // The text report splits on LF only, so every other line break was escaped above.
            let textLines = lines(of: Data(text.utf8))
            #expect(!textLines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("::") }, "a workflow command on \(stream)\n\(run)")
            #expect(textLines.filter { $0.hasPrefix("Result:") }.count == (stream == "stdout" ? 1 : 0), "\(run)")
        }
        // The values are still there, visibly escaped, on the line of their finding.
        #expect(run.stdoutLines.contains { $0.contains("data.csv:2: error: P.name.pattern:") && $0.contains("::error::forged") }, "\(run)")
        #expect(run.stdoutLines.contains { $0.contains("data.csv:4: error: P.name.pattern:") && $0.contains("Result: passed (exit 0)") }, "\(run)")
        #expect(run.stdoutLines.contains { $0.contains("data.csv:6: error: P.name.pattern:") && $0.contains("::warning::y") }, "\(run)")
        #expect(run.stdoutLines.contains { $0.contains("data.csv:7: error: P.age.type:") && $0.contains("]0;title") }, "\(run)")
        #expect(run.stdoutLines.last { !$0.isEmpty }?.hasPrefix("Result: FAILED") == true)
    }

    @Test("Text report with --color always: the only escape sequences are the reporter's own")
    func colorDoesNotLetDataThrough() throws {
        let tmp = try Self.hostileScratch()
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--color", "always"], in: tmp.url, exitCode: 1)
        #expect(run.stdout.contains(0x1B), "no colour with --color always")
        #expect(!run.stdoutText.contains("\u{1B}[31mred"), "the data's own SGR sequence reached stdout")
        #expect(!run.stdoutText.contains("\u{1B}]0;"), "the data's OSC sequence reached stdout")
        #expect(!run.stdoutText.split(separator: "\n").contains { $0.hasPrefix("::") })
    }

    @Test("JSON keeps the values exactly (it is the lossless form)")
    func jsonIsLossless() throws {
        let tmp = try Self.hostileScratch()
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        let values = Set(report.rules(withID: "P.name.pattern").flatMap { $0["samples"] as? [[String: Any]] ?? [] }
            .compactMap { $0["value"] as? String })
        #expect(values == ["Al\n::error::forged", "Bo\u{1B}[31mred\u{1B}[0m\r\nResult: passed (exit 0)", "x\u{2028}::warning::y\u{85}z"])
    }

    @Test("A hostile path in an error message is escaped on stderr")
    func hostilePathOnStderr() throws {
        let tmp = try Self.hostileScratch()
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--source", "people=evil\n::error::x.csv"], in: tmp.url,
                                    exitCode: 66, stderrContains: ["::error::x.csv"])
        for text in [run.stderrText, run.stdoutText] {
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::") }, "\(run)")
        }
    }
}
