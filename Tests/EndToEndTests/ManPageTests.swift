import Foundation
import TestSupport
import Testing

/// `docs/auditor.1` is generated from the command model (scripts/generate-manual.sh runs
/// swift-argument-parser's generate-manual plugin); this checks, against the model the built
/// binary dumps (`--experimental-dump-help`), that the committed page is still complete, and
/// that man(1) renders it.
@Suite("Man page")
struct ManPageTests {
    static let page = Auditor.packageRoot.appendingPathComponent("docs/auditor.1")

    /// The page as man(1) shows it, plain text.
    static func rendered() throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "200"
        environment["MANPAGER"] = "cat"
        environment["PAGER"] = "cat"
        environment["MAN_KEEP_FORMATTING"] = nil
        let run = try ChildProcess.run(["/usr/bin/man", "-l", page.path], environment: environment)
        #expect(run.status == 0 && run.stderr.isEmpty, "man: \(run.stderrText)")
        return run.stdoutText
    }

    @Test("the man page documents every command and option of the command model",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")))
    func complete() throws {
        let text = try Self.rendered()
        let dump = try assertExecute(["--experimental-dump-help"], exitCode: 0)
        let model = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var missing = [String]()
        func visit(_ command: [String: Any], path: [String]) {
            guard command["shouldDisplay"] as? Bool != false else { return }
            let name = command["commandName"] as? String ?? ""
            if !path.isEmpty, !text.contains(name) { missing.append("command \(name)") }
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                for n in argument["names"] as? [[String: Any]] ?? [] {
                    guard let kind = n["kind"] as? String, let flag = n["name"] as? String else { continue }
                    let spelled = kind == "short" ? "-" + flag : "--" + flag
                    if !text.contains(spelled) { missing.append("\((path + [name]).joined(separator: " ")) \(spelled)") }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { visit(sub, path: path + [name]) }
        }
        visit(try #require(model["command"] as? [String: Any]), path: [])
        #expect(missing.isEmpty, "docs/auditor.1 is out of date (run scripts/generate-manual.sh): missing \(missing)")
        #expect(text.contains("--max-bytes") && text.contains("markdown"))
        for code in ["64 usage", "65 mal", "78 invalid rules file"] { #expect(text.contains(code), "\(code)") }
    }
}
