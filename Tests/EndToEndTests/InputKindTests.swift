import Foundation
import TestSupport
import Testing

/// Inputs that are not regular files never hang a run (issue 13 §4): each is refused with 66
/// and a message naming what it is; `--source` without a name or a path is a usage error.
/// Every run has a short timeout, so a hang fails the test instead of blocking the suite.
@Suite("Input kinds")
struct InputKindTests {
    static let timeout: Double = 30

    /// A unix-domain socket bound at `path` by Python (kept as a file after Python exits).
    static func makeSocket(_ path: String) throws {
        let run = try ChildProcess.run(["python3", "-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path])
        try #require(run.status == 0, "\(run)")
    }

    @Test("A source that is a FIFO with no writer, a directory, a socket or a character device: 66 at once, naming the kind",
          arguments: [("fifo", "FIFO"), ("dir", "directory"), ("sock", "socket"), ("/dev/null", "character device")])
    func sourceKinds(_ path: String, _ kind: String) throws {
        let tmp = try OutputSafetyTests.scratch("in-kind")
        defer { tmp.remove() }
        #expect(mkfifo(tmp.path("fifo"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: tmp.path("dir"), withIntermediateDirectories: false)
        try Self.makeSocket(tmp.path("sock"))
        for format in ["text", "json"] {
            let run = try assertExecute(["run", "rules.yml", "--source", "people=\(path)", "--format", format], in: tmp.url,
                                        exitCode: 66, stderrContains: [kind], timeout: Self.timeout)
            #expect(run.seconds < Self.timeout)
        }
    }

    @Test("A FIFO as --previous snapshot, as the rules file, as --baseline, or hashed for --history: 66, no hang")
    func otherInputs() throws {
        let tmp = try OutputSafetyTests.scratch("in-fifo")
        defer { tmp.remove() }
        #expect(mkfifo(tmp.path("fifo"), 0o600) == 0)
        try assertExecute(["run", "rules.yml", "--previous", "people=fifo"], in: tmp.url, exitCode: 66,
                          stderrContains: ["FIFO"], timeout: Self.timeout)
        try assertExecute(["run", "fifo"], in: tmp.url, exitCode: 66, stderrContains: ["FIFO"], timeout: Self.timeout)
        try assertExecute(["check", "fifo"], in: tmp.url, exitCode: 66, stderrContains: ["FIFO"], timeout: Self.timeout)
        try assertExecute(["run", "rules.yml", "--baseline", "fifo"], in: tmp.url, exitCode: 66,
                          stderrContains: ["FIFO"], timeout: Self.timeout)
        try assertExecute(["run", "rules.yml", "--source", "people=fifo", "--history", "h.sqlite"], in: tmp.url,
                          exitCode: 66, stderrContains: ["FIFO"], timeout: Self.timeout)
    }

    @Test("--source without a name, without '=' or with an empty path is a usage error (64)",
          arguments: ["people=", "=x", "people", "="])
    func malformedSource(_ value: String) throws {
        let tmp = try OutputSafetyTests.scratch("in-usage")
        defer { tmp.remove() }
        try assertExecute(["run", "rules.yml", "--source", value], in: tmp.url, exitCode: 64,
                          stderrContains: ["--source takes NAME=PATH"], timeout: Self.timeout)
    }

    @Test("A source given through a symbolic link to a regular file is still read")
    func symlinkToRegularFile() throws {
        let tmp = try OutputSafetyTests.scratch("in-link")
        defer { tmp.remove() }
        try FileManager.default.createSymbolicLink(atPath: tmp.path("link.csv"), withDestinationPath: "people.csv")
        try assertExecute(["run", "rules.yml", "--source", "people=link.csv"], in: tmp.url, exitCode: 1, timeout: Self.timeout)
    }
}
