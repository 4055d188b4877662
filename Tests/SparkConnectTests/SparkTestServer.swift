#if Spark
import Foundation
import TestSupport
import Testing

/// The Spark Connect server the tests talk to: `$SPARK_CONNECT_URL` when set (a server that
/// `.ci/run` started), else one that this test process starts on first use with
/// `scripts/spark-connect.sh` (local mode, a free loopback port, a random token) and that is
/// stopped when the process exits (an `atexit` hook, and the script's watchdog if the process
/// dies). Tests skip, saying why, when neither pyspark 4.x nor Java 17 is available.
final class SparkTestServer: Sendable {
    /// The URL to connect with (token included).
    let url: String
    /// The token the server requires, when this process started it with one.
    let token: String?
    let port: Int

    /// Starting takes 20-40 s: it runs on a thread of its own, so that the tests waiting for
    /// it do not hold the (two, on this machine) threads of Swift's cooperative pool, which the
    /// other tests need, and whose timings would otherwise include the wait.
    private static let starting = Task<Result<SparkTestServer, Failure>, Never> {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: start()) }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/spark-connect.sh").path

    /// Whether a server is at hand or can be started here (`spark-connect.sh check`).
    static let available: Bool = {
        if ProcessInfo.processInfo.environment["SPARK_CONNECT_URL"] != nil { return true }
        return (try? run([script, "check"]).status) == 0
    }()

    static var skipReason: Comment {
        "skipped, not passed: needs pyspark 4.x and Java 17 (see scripts/spark-connect.sh check), or SPARK_CONNECT_URL"
    }

    private init(url: String, token: String?, port: Int) {
        self.url = url
        self.token = token
        self.port = port
    }

    /// The server, started on first use.
    static func get() async throws -> SparkTestServer { try await starting.value.get() }

    private static func start() -> Result<SparkTestServer, Failure> {
        if let url = ProcessInfo.processInfo.environment["SPARK_CONNECT_URL"] {
            return .success(SparkTestServer(url: url, token: nil, port: 0))
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("auditor-spark-\(ProcessInfo.processInfo.processIdentifier)").path
        let port = freePort()
        let token = UUID().uuidString.lowercased()
        do {
            let result = try run([script, "start", folder, String(port), String(getpid())],
                                 environment: ["SPARK_CONNECT_TOKEN": token])
            guard result.status == 0 else {
                return .failure(Failure(description: "scripts/spark-connect.sh start failed (\(result.status)):\n\(result.output)"))
            }
            print("Spark Connect test server: \(result.output.trimmingCharacters(in: .whitespacesAndNewlines))")
            stopAtExit(folder: folder)
            return .success(SparkTestServer(url: "sc://127.0.0.1:\(port)/;token=\(token)", token: token, port: port))
        } catch {
            return .failure(Failure(description: "cannot start Spark Connect: \(error)"))
        }
    }

    // Written once, inside the shared server's one-time start, before any test reads it.
    nonisolated(unsafe) private static var startedFolder: String?

    private static func stopAtExit(folder: String) {
        startedFolder = folder
        atexit {
            guard let folder = SparkTestServer.startedFolder else { return }
            _ = try? SparkTestServer.run([SparkTestServer.script, "stop", folder])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// A loopback port that nothing listens on right now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// Runs `bash argv` and waits for it, its output and errors in one text: a ``ChildProcess``,
    /// whose end is seen by its pid although the server that the script starts outlives it.
    static func run(_ argv: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let run = try ChildProcess.run(["/bin/bash"] + argv, environment: ProcessInfo.processInfo.environment.merging(extra) { $1 },
                                       mergeErrors: true, timeout: 1200)
        return (run.status, run.stdoutText)
    }
}

/// A loopback TCP listener that never accepts: connections complete (the kernel's backlog) but
/// nothing is ever said, like a hung server or a port of another service that ignores HTTP/2.
final class SilentListener: Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = SparkTestServer.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw SparkTestServer.Failure(description: "cannot listen on loopback: errno \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
#endif
