import Foundation
import Testing

/// ``Auditor/ended(_:)``: a child's end seen without Foundation, which may miss it.
@Suite("Children's ends, seen directly")
struct AuditorProcessTests {
    /// Starts `/bin/sh -c script` with posix_spawn, out of Foundation's sight.
    static func spawn(_ script: String) throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", script].map { (text: String) in strdup(text) } + [nil]
        defer { argv.forEach { free($0) } }
        try #require(posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0)
        return pid
    }

    static func waitForEnd(_ pid: pid_t) -> Int32? {
        for _ in 0 ..< 200 {
            if let status = Auditor.ended(pid) { return status }
            usleep(10_000)
        }
        return nil
    }

    @Test("an exit status, a signal, and nothing while the child runs; the child stays to be reaped")
    func ends() throws {
        let exited = try Self.spawn("exit 3")
        #expect(Self.waitForEnd(exited) == 3)
        #expect(Auditor.ended(exited) == 3, "seen again: not reaped")
        var status: Int32 = 0
        #expect(waitpid(exited, &status, 0) == exited)
        let running = try Self.spawn("sleep 30")
        usleep(50_000)
        #expect(Auditor.ended(running) == nil)
        kill(running, SIGKILL)
        #expect(Self.waitForEnd(running) == SIGKILL)
        #expect(waitpid(running, &status, 0) == running)
    }
}
