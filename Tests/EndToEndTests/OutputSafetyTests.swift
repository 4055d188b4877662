import Foundation
import Testing

/// Outputs never destroy anything (issue 13 §3): no output may be an input, however reached;
/// links are written through, devices and FIFOs written directly; a failed write leaves nothing.
@Suite("Output safety")
struct OutputSafetyTests {
    /// A folder with `people.csv` (one short name: exit 1) and `rules.yml` over it.
    static func scratch(_ label: String) throws -> Scratch {
        let tmp = try Scratch(label)
        try tmp.write("people.csv", "id,name,age\n1,Alice,30\n2,Bo,40\n")
        try tmp.write("rules.yml", Fixture.rules(path: "people.csv"))
        return tmp
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    @Test("An output that is an input (same path, symlink, hard link, '..', rules file, previous snapshot) is refused with 64 and the input is unchanged",
          arguments: [
              ["-o", "people.csv"], ["-o", "link.csv"], ["-o", "hard.csv"], ["-o", "UP/people.csv"],
              ["--report", "json:people.csv"], ["--report", "html:rules.yml"], ["--failures-out", "hard.csv"],
              ["-o", "old.csv", "--previous", "people=old.csv"], ["--report", "json:people.csv-journal"],
          ])
    func outputIsAnInput(_ options: [String]) throws {
        let tmp = try Self.scratch("out-input")
        defer { tmp.remove() }
        try tmp.write("old.csv", "id,name,age\n1,Alice,30\n")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("link.csv"), withDestinationPath: "people.csv")
        try FileManager.default.linkItem(atPath: tmp.path("people.csv"), toPath: tmp.path("hard.csv"))
        let before = try InputSafetyTests.Snapshot(tmp.url)
        // UP: a path through '..' ("../<this folder>").
        let options = options.map { $0.replacingOccurrences(of: "UP", with: "../" + tmp.url.lastPathComponent) }
        let run = try assertExecute(["run", "rules.yml"] + options, in: tmp.url, exitCode: 64,
                                    stderrContains: ["auditor never writes to what it reads"])
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(try InputSafetyTests.Snapshot(tmp.url) == before, "\(run)")
        #expect(Self.kind(tmp.path("link.csv")) == S_IFLNK)
    }

    @Test("An SQLite input's -wal/-shm sidecar names (not yet existing) are refused for every output, and for --history",
          arguments: ["-wal", "-shm", "-journal"])
    func sqliteSidecars(_ suffix: String) throws {
        let tmp = try Scratch("out-sidecar")
        defer { tmp.remove() }
        try tmp.copy(fromPackage: "examples/people/people.sqlite", as: "people.sqlite")
        let db = tmp.path("people.sqlite")
        let before = try InputSafetyTests.Snapshot(tmp.url)
        for options in [["-o", db + suffix], ["--report", "junit:" + db + suffix], ["--failures-out", db + suffix + ".csv"],
                        ["--history", db + suffix]] {
            // The .csv failures name is not a sidecar: it must pass the check (and be written).
            let isSidecar = !(options.last ?? "").hasSuffix(".csv")
            let run = try Auditor.run(["run", "rules/people.yml", "--source", "people=\(db)"] + options)
            if isSidecar {
                #expect(run.status == 64, "\(run)")
                #expect(run.stderrText.contains("sidecar"), "\(run)")
            } else {
                #expect(run.status == 1, "\(run)")
                try FileManager.default.removeItem(atPath: db + suffix + ".csv")
            }
        }
        #expect(try InputSafetyTests.Snapshot(tmp.url) == before)
    }

    @Test("-o through a symbolic link writes the link's target and keeps the link (also a dangling one)")
    func symlinkIsWrittenThrough() throws {
        let tmp = try Self.scratch("out-link")
        defer { tmp.remove() }
        try tmp.write("reports/real.json", "old\n")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("latest.json"), withDestinationPath: "reports/real.json")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("next.json"), withDestinationPath: "reports/new.json")
        try assertExecute(["run", "rules.yml", "--format", "json", "-o", "latest.json", "--report", "json:next.json"],
                          in: tmp.url, exitCode: 1)
        #expect(Self.kind(tmp.path("latest.json")) == S_IFLNK)
        #expect(Self.kind(tmp.path("next.json")) == S_IFLNK)
        let report = try ReportJSON(contentsOf: URL(fileURLWithPath: tmp.path("reports/real.json")))
        #expect(report.summary["outcome"] as? String == "failed")
        _ = try ReportJSON(contentsOf: URL(fileURLWithPath: tmp.path("reports/new.json")))
        #expect(try tmp.listing("reports") == ["new.json", "real.json"])
    }

    @Test("-o - writes the report to stdout and creates no file named '-'")
    func dashIsStdout() throws {
        let tmp = try Self.scratch("out-dash")
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--format", "json", "-o", "-"], in: tmp.url, exitCode: 1)
        _ = try ReportJSON(run.stdout)
        #expect(try tmp.listing() == ["people.csv", "rules.yml"])
    }

    @Test("-o to a link to /dev/stdout writes stdout directly; the link stays a link")
    func linkToStdout() throws {
        let tmp = try Self.scratch("out-stdout")
        defer { tmp.remove() }
        try FileManager.default.createSymbolicLink(atPath: tmp.path("out"), withDestinationPath: "/dev/stdout")
        let run = try assertExecute(["run", "rules.yml", "--format", "json", "-o", "out"], in: tmp.url, exitCode: 1)
        _ = try ReportJSON(run.stdout)
        #expect(Self.kind(tmp.path("out")) == S_IFLNK)
        #expect(try tmp.listing() == ["out", "people.csv", "rules.yml"])
    }

    @Test("A FIFO output is written directly (not replaced); one with no reader is 73 at once, not a hang")
    func fifoOutput() throws {
        let tmp = try Self.scratch("out-fifo")
        defer { tmp.remove() }
        let fifo = tmp.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let lonely = try assertExecute(["run", "rules.yml", "-o", "pipe"], in: tmp.url, exitCode: 73,
                                       stderrContains: ["no process reads this FIFO"], timeout: 30)
        #expect(lonely.seconds < 20)
        // A reader, open before the run starts, collects on a background thread what is written.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        let box = DataBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var p = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 60_000)        // until the writer has written (or 60 s)
            _ = fcntl(reader, F_SETFL, 0)
            var collected = Data()
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(reader, &chunk, chunk.count)
                if n <= 0 { break }
                collected.append(contentsOf: chunk[..<n])
            }
            close(reader)
            box.set(collected)
            done.signal()
        }
        try assertExecute(["run", "rules.yml", "--format", "json", "-o", "pipe"], in: tmp.url, exitCode: 1, timeout: 60)
        #expect(done.wait(timeout: .now() + 30) == .success)
        _ = try ReportJSON(box.get())
        #expect(Self.kind(fifo) == S_IFIFO)
        #expect(try tmp.listing() == ["people.csv", "pipe", "rules.yml"])
    }

    @Test("Character devices made in the scratch folder (root only): a null device stays a device; a full device gives 74 and leaves no file")
    func characterDevices() throws {
        guard getuid() == 0 else { return }      // mknod needs root; the CI container runs as root
        let tmp = try Self.scratch("out-dev")
        defer { tmp.remove() }
        #expect(mknod(tmp.path("null"), S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
        #expect(mknod(tmp.path("full"), S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0)
        try assertExecute(["run", "rules.yml", "-o", "null", "--failures-out", "f.csv"], in: tmp.url, exitCode: 1)
        #expect(Self.kind(tmp.path("null")) == S_IFCHR)
        let full = try assertExecute(["run", "rules.yml", "-o", "full"], in: tmp.url, exitCode: 74,
                                     stderrContains: ["cannot write the report", "No space left on device"])
        #expect(full.stdout.isEmpty)
        let failures = try assertExecute(["run", "rules.yml", "--report", "json:full", "-o", "r.txt"],
                                         in: tmp.url, exitCode: 74)
        #expect(Self.kind(tmp.path("full")) == S_IFCHR, "\(failures)")
        // The other report is written all the same; nothing else is left.
        #expect(try tmp.listing() == ["f.csv", "full", "null", "people.csv", "r.txt", "rules.yml"])
    }

    @Test("--output onto a full disk through the failures file: 74 and no partial or temporary file (root: a full device as the failures target)")
    func failuresOntoFullDevice() throws {
        guard getuid() == 0 else { return }
        let tmp = try Self.scratch("out-full")
        defer { tmp.remove() }
        #expect(mknod(tmp.path("full.csv"), S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0)
        try assertExecute(["run", "rules.yml", "--failures-out", "full.csv", "-o", "report.txt"], in: tmp.url, exitCode: 74,
                          stderrContains: ["cannot write the failures file"])
        #expect(Self.kind(tmp.path("full.csv")) == S_IFCHR)
        #expect(try tmp.listing() == ["full.csv", "people.csv", "rules.yml"])
    }
}

/// Hands bytes from a background thread to the test (guarded by a lock).
final class DataBox: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = Data()
    func set(_ v: Data) { lock.lock(); value = v; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return value }
}
