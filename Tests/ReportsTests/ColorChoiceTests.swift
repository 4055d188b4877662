import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// CONVENTIONS rule 5, one step at a time: each case shows a step winning over every later one.
@Suite("Colour choice")
struct ColorChoiceTests {
    typealias Flag = ColorChoice.Flag

    struct Case: Sendable, CustomTestStringConvertible {
        let flag: Flag?
        let environment: [String: String]
        let isTTY: Bool
        let enabled: Bool
        let reason: ColorChoice.Reason
        let testDescription: String
    }

    static let cases: [Case] = [
        // 1. The flag beats everything.
        Case(flag: .always, environment: ["NO_COLOR": "1", "TERM": "dumb"], isTTY: false,
             enabled: true, reason: .flag(.always), testDescription: "--color=always beats NO_COLOR, TERM=dumb, no tty"),
        Case(flag: .never, environment: ["FORCE_COLOR": "1", "CLICOLOR_FORCE": "1"], isTTY: true,
             enabled: false, reason: .flag(.never), testDescription: "--color=never beats FORCE_COLOR and a tty"),
        // 2. NO_COLOR non-empty beats FORCE_COLOR.
        Case(flag: .auto, environment: ["NO_COLOR": "1", "FORCE_COLOR": "1"], isTTY: true,
             enabled: false, reason: .noColor, testDescription: "auto: NO_COLOR beats FORCE_COLOR"),
        Case(flag: nil, environment: ["NO_COLOR": "0", "CLICOLOR_FORCE": "1"], isTTY: true,
             enabled: false, reason: .noColor, testDescription: "no flag: any non-empty NO_COLOR, even 0"),
        Case(flag: nil, environment: ["NO_COLOR": ""], isTTY: true,
             enabled: true, reason: .terminal(isTTY: true), testDescription: "empty NO_COLOR is ignored"),
        // 3. FORCE_COLOR / CLICOLOR_FORCE non-empty beat TERM=dumb and no tty.
        Case(flag: nil, environment: ["FORCE_COLOR": "1", "TERM": "dumb"], isTTY: false,
             enabled: true, reason: .forced(variable: "FORCE_COLOR"), testDescription: "FORCE_COLOR beats TERM=dumb"),
        Case(flag: nil, environment: ["CLICOLOR_FORCE": "1"], isTTY: false,
             enabled: true, reason: .forced(variable: "CLICOLOR_FORCE"), testDescription: "CLICOLOR_FORCE beats no tty"),
        Case(flag: nil, environment: ["FORCE_COLOR": "0"], isTTY: false,
             enabled: true, reason: .forced(variable: "FORCE_COLOR"), testDescription: "FORCE_COLOR=0 is non-empty: on"),
        Case(flag: nil, environment: ["FORCE_COLOR": "", "CLICOLOR_FORCE": ""], isTTY: false,
             enabled: false, reason: .terminal(isTTY: false), testDescription: "empty FORCE_COLOR is ignored"),
        // 4. TERM=dumb beats a tty.
        Case(flag: nil, environment: ["TERM": "dumb"], isTTY: true,
             enabled: false, reason: .dumbTerminal, testDescription: "TERM=dumb beats a tty"),
        Case(flag: nil, environment: ["TERM": "xterm-256color"], isTTY: true,
             enabled: true, reason: .terminal(isTTY: true), testDescription: "another TERM leaves it to isatty"),
        // 5. isatty decides the rest.
        Case(flag: .auto, environment: [:], isTTY: true,
             enabled: true, reason: .terminal(isTTY: true), testDescription: "a tty: on"),
        Case(flag: nil, environment: [:], isTTY: false,
             enabled: false, reason: .terminal(isTTY: false), testDescription: "not a tty: off"),
    ]

    @Test("precedence", arguments: cases)
    func precedence(_ c: Case) {
        let choice = ColorChoice.resolve(flag: c.flag, environment: c.environment, isTTY: c.isTTY)
        #expect(choice == ColorChoice(enabled: c.enabled, reason: c.reason))
    }

    @Test("flag values parse from their --color spelling")
    func flagValues() {
        #expect(Flag.allCases.map(\.rawValue) == ["always", "never", "auto"])
        #expect(Flag(rawValue: "always") == .always)
        #expect(Flag(rawValue: "yes") == nil)
    }

    @Test("reasons read as diagnostics")
    func reasons() {
        #expect(ColorChoice.Reason.noColor.description == "NO_COLOR is set")
        #expect(ColorChoice.Reason.flag(.never).description == "--color=never")
        #expect(ColorChoice.Reason.terminal(isTTY: false).description == "the stream is not a terminal")
    }

    @Test("a pipe is not a terminal")
    func pipeIsNotATerminal() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(ColorChoice.forStream(fds[1], flag: nil, environment: [:]).enabled == false)
        #expect(ColorChoice.forStream(fds[1], flag: .always, environment: [:]).enabled == true)
    }
}

@Suite("Standard reporters")
struct StandardReportersTests {
    @Test("every listed format has a reporter of that format")
    func formats() throws {
        #expect(StandardReporters.formats == ["text", "json", "html", "junit", "sarif", "github", "markdown"])
        for format in StandardReporters.formats {
            let reporter = try #require(StandardReporters.reporter(format: format, color: false, verbose: false))
            #expect(reporter.format == format)
        }
    }

    @Test("options reach the text reporter; unknown formats give nil")
    func options() throws {
        let text = try #require(StandardReporters.reporter(format: "text", color: true, verbose: true) as? TextReporter)
        #expect(text.color && text.verbose)
        #expect(StandardReporters.reporter(format: "xml", color: false, verbose: false) == nil)
        #expect(StandardReporters.reporter(format: "JSON", color: false, verbose: false) == nil)
    }
}
