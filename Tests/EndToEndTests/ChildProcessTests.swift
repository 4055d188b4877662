import Foundation
import TestSupport
import Testing

/// ``ChildProcess``, which every test that runs a program uses: its end is seen by its own pid,
/// whatever its children do, and it never holds the test process's other descriptors.
@Suite("Child processes of the tests")
struct ChildProcessTests {
    @Test("the exit status, stdout and stderr apart or merged, stdin, directory and environment")
    func runs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = "echo out; echo err >&2; cat; pwd; printf %s \"$GREETING\"; exit 3"
        let apart = try ChildProcess.run(["/bin/sh", "-c", script], directory: folder, environment: ["GREETING": "hej"],
                                         input: Data("in\n".utf8))
        #expect(apart.status == 3 && apart.signal == nil)
        #expect(apart.stdoutText == "out\nin\n\(folder.resolvingSymlinksInPath().path)\nhej")
        #expect(apart.stderrText == "err\n")
        let merged = try ChildProcess.run(["/bin/sh", "-c", "echo out; echo err >&2"], mergeErrors: true)
        #expect(merged.status == 0 && merged.stdoutText == "out\nerr\n" && merged.stderr.isEmpty)
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.run(["/nonexistent/program"]) }
    }

    @Test("a signal that ends the child; a child that outlives its time is killed and said so")
    func signalsAndTimeouts() throws {
        let child = try ChildProcess(["/bin/sh", "-c", "sleep 30"])
        #expect(child.isRunning)
        child.send(SIGTERM)
        let ended = try child.wait(timeout: 10)
        #expect(ended.signal == SIGTERM && ended.status == 128 + SIGTERM)
        let start = ContinuousClock.now
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.run(["/bin/sh", "-c", "echo begun; sleep 30"], timeout: 0.5) }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    /// The hang that Foundation's Process and pipes allow: a grandchild that outlives the child
    /// keeps the child's stdout (and Foundation's end-of-child socket) open.
    @Test("a grandchild that outlives the child holds its output open: the child's end is seen at once")
    func grandchildrenDoNotHoldItUp() throws {
        let start = ContinuousClock.now
        let run = try ChildProcess.run(["/bin/sh", "-c", "sleep 5 & echo parent done"], timeout: 20)
        #expect(run.status == 0 && run.stdoutText == "parent done\n")
        #expect(ContinuousClock.now - start < .seconds(4), "waited for the grandchild")
    }

    /// A long-lived child (the throwaway PostgreSQL server) must not keep another test's pipe open.
    @Test("the child keeps only descriptors 0, 1 and 2 of the test process")
    func noInheritedDescriptors() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let open = try ChildProcess.run(["/bin/sh", "-c", "ls /proc/$$/fd"]).stdoutText.split(separator: "\n").compactMap { Int32($0) }
        #expect(open.contains(1) && !open.contains(ends[0]) && !open.contains(ends[1]), "\(open), the pipe: \(ends)")
    }

    /// The rule that keeps the hang away: one way to run a program (the strings are split so
    /// that this file does not match itself).
    @Test("no test runs a program another way: Foundation's Process, a pipe, or a spawn of its own")
    func onlyChildProcess() throws {
        let tests = Auditor.packageRoot.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.subpaths(atPath: tests.path))
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("TestSupport/") }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for needle in [#"\bProcess"# + #"\(\)"#, #"\bwaitUntil"# + "Exit", #"\bPipe"# + #"\(\)"#, #"\bposix_"# + #"spawn\("#] {
                #expect(text.range(of: needle, options: .regularExpression) == nil, "Tests/\(file) matches \(needle): run programs with ChildProcess")
            }
        }
    }
}
