import Foundation
import TestSupport
import Testing

/// A throwaway PostgreSQL server for the tests: Debian's `postgresql` binaries, `initdb` into a
/// temporary folder, a Unix socket in that folder plus a free loopback port, started once per
/// test process on first use and stopped (`pg_ctl -m immediate stop`) when the process exits.
///
/// PostgreSQL refuses to run as root: as root, the folder is given to the `postgres` user and
/// `initdb`/`pg_ctl` run through `runuser -u postgres --`; otherwise they run directly.
/// Local (socket) connections are trusted; TCP connections need a SCRAM password, so that
/// the tests can try a wrong one. Tests skip, saying why, when the binaries are absent.
final class PostgresServer: Sendable {
    let folder: URL
    let socketFolder: String
    let port: Int
    let binaries: URL

    /// The shared server, or why there is none.
    static let shared: Result<PostgresServer, Failure> = start()

    /// Whether the tests can run here.
    static var available: Bool { binariesFolder() != nil }

    static var skipReason: Comment {
        "skipped, not passed: needs Debian's postgresql package (/usr/lib/postgresql/*/bin/initdb); install it with apt-get install postgresql"
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private init(folder: URL, socketFolder: String, port: Int, binaries: URL) {
        self.folder = folder
        self.socketFolder = socketFolder
        self.port = port
        self.binaries = binaries
    }

    /// The URL of a database over the Unix socket (trusted, user `postgres`).
    func url(database: String, user: String = "postgres") -> String {
        "postgresql:///\(database)?host=\(socketFolder)&port=\(port)&user=\(user)"
    }

    /// The URL of a database over TCP on the loopback (SCRAM password required).
    func tcpURL(database: String, user: String) -> String {
        "postgresql://\(user)@127.0.0.1:\(port)/\(database)"
    }

    /// Runs SQL with psql as the superuser over the socket; returns its unaligned output.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try Self.run(binaries.appendingPathComponent("psql").path,
                                  ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url(database: database), "-c", sql],
                                  asPostgres: false)
        guard result.status == 0 else { throw Failure(description: "psql failed (\(result.status)): \(result.output)\nSQL: \(sql)") }
        return result.output
    }

    /// A fresh database named after the test, filled by `setup` (SQL run in it).
    func makeDatabase(_ label: String, setup: String = "") throws -> String {
        let name = "t_\(label.lowercased().filter { $0.isLetter || $0.isNumber })_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \(name)")
        if !setup.isEmpty { try psql(setup, database: name) }
        return name
    }

    // MARK: - Starting and stopping

    static func binariesFolder() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        guard let versions = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return nil }
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = root.appendingPathComponent(version).appendingPathComponent("bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        return nil
    }

    /// Starts a server; the shared one is stopped at exit, others with ``stop()``.
    /// - Parameters:
    ///   - configure: Runs after `initdb`, before the start, with the data folder (as root, the
    ///     files it writes there must be given to `postgres`); for TLS certificates and
    ///     `pg_hba.conf`.
    ///   - settings: More `-c name=value` server settings.
    static func start(stopAtExit: Bool = true, configure: ((URL) throws -> Void)? = nil,
                      settings: [String] = []) -> Result<PostgresServer, Failure> {
        guard let bin = binariesFolder() else { return .failure(Failure(description: "no PostgreSQL binaries")) }
        // A short folder name: a socket path is limited to 107 bytes.
        let folder = URL(fileURLWithPath: "/tmp/aupg-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(6))")
        let data = folder.appendingPathComponent("data")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if getuid() == 0 {
                // Only the folder we just made is handed over.
                let chown = try run("/bin/chown", ["postgres:postgres", folder.path], asPostgres: false)
                guard chown.status == 0 else { return .failure(Failure(description: "chown failed: \(chown.output)")) }
            }
            let port = freePort()
            let initdb = try run(bin.appendingPathComponent("initdb").path,
                                 ["-D", data.path, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                                  "-E", "UTF8", "--locale=C", "--no-sync"], asPostgres: true)
            guard initdb.status == 0 else { return .failure(Failure(description: "initdb failed: \(initdb.output)")) }
            try configure?(data)
            let options = "-k \(folder.path) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
                + settings.map { " -c \($0)" }.joined()
            let start = try run(bin.appendingPathComponent("pg_ctl").path,
                                ["-D", data.path, "-o", options, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60", "start"],
                                asPostgres: true)
            guard start.status == 0 else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
                return .failure(Failure(description: "pg_ctl start failed: \(start.output)\n\(log)"))
            }
            if stopAtExit { Self.stopAtExit(pgctl: bin.appendingPathComponent("pg_ctl").path, data: data.path, folder: folder.path) }
            return .success(PostgresServer(folder: folder, socketFolder: folder.path, port: port, binaries: bin))
        } catch {
            return .failure(Failure(description: "cannot start PostgreSQL: \(error)"))
        }
    }

    /// Stops the server at once (as a crash would) and removes its folder.
    func stop() {
        _ = try? Self.run(binaries.appendingPathComponent("pg_ctl").path,
                          ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"], asPostgres: true)
        try? FileManager.default.removeItem(at: folder)
    }

    // The servers to stop at exit; under the lock, since two servers may start at once.
    nonisolated(unsafe) private static var cleanups: [(pgctl: String, data: String, folder: String)] = []
    private static let cleanupLock = NSLock()

    private static func stopAtExit(pgctl: String, data: String, folder: String) {
        cleanupLock.lock()
        defer { cleanupLock.unlock() }
        cleanups.append((pgctl, data, folder))
        guard cleanups.count == 1 else { return }
        atexit {
            PostgresServer.cleanupLock.lock()
            let all = PostgresServer.cleanups
            PostgresServer.cleanupLock.unlock()
            for c in all {
                _ = try? PostgresServer.run(c.pgctl, ["-D", c.data, "-m", "immediate", "-w", "stop"], asPostgres: true)
                try? FileManager.default.removeItem(atPath: c.folder)
            }
        }
    }

    /// A loopback port that nothing listens on right now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program (as `postgres` through runuser when we are root and `asPostgres`) and
    /// waits for it, at most `timeout` seconds: a ``ChildProcess``, whose end is seen by its pid
    /// even though the server that `pg_ctl start` leaves running outlives it.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], asPostgres: Bool,
                    timeout: Double = 300) throws -> (status: Int32, output: String) {
        let argv = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments
                                              : [program] + arguments
        let result = try ChildProcess.run(argv, mergeErrors: true, timeout: timeout)
        return (result.status, result.stdoutText)
    }
}
