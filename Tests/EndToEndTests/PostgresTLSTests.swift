import Foundation
import Testing

/// The `openssl` command that makes the test certificates.
enum OpenSSL {
    static let path: String? = ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// TLS to PostgreSQL follows `sslmode` as libpq does (issue 16), against a throwaway server of
/// its own that admits TCP clients only over TLS (`hostssl`), with a certificate for
/// `localhost` signed by a test CA that `openssl` makes here. The server logs every connection,
/// so a test can see that the audit's connection really was encrypted.
@Suite("PostgreSQL over TLS", .enabled(if: PostgresServer.available && OpenSSL.path != nil,
                                       "skipped, not passed: needs Debian's postgresql package and openssl"))
struct PostgresTLSTests {
    struct Setup {
        var server: PostgresServer
        var database: String
        /// The CA that signed the server's certificate, and one that did not.
        var ca: String
        var otherCA: String
    }

    static let password = "tls-secret-0xC0FFEE"
    static let setup: Result<Setup, PostgresServer.Failure> = makeSetup()

    private static func makeSetup() -> Result<Setup, PostgresServer.Failure> {
        guard let openssl = OpenSSL.path else { return .failure(.init(description: "no openssl")) }
        let certs = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-pg-tls-\(UUID().uuidString.prefix(8))")
        func sh(_ arguments: [String]) throws {
            let result = try PostgresServer.run(openssl, arguments, asPostgres: false)
            guard result.status == 0 else { throw PostgresServer.Failure(description: "openssl \(arguments.first ?? ""): \(result.output)") }
        }
        func path(_ name: String) -> String { certs.appendingPathComponent(name).path }
        do {
            try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true)
            for ca in ["ca", "other-ca"] {
                try sh(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("\(ca).key"), "-out", path("\(ca).crt"),
                        "-days", "2", "-subj", "/CN=auditor test \(ca)"])
            }
            try sh(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"),
                    "-subj", "/CN=localhost"])
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: path("san.ext"), atomically: true, encoding: .utf8)
            try sh(["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"), "-CAcreateserial",
                    "-out", path("server.crt"), "-days", "2", "-extfile", path("san.ext")])
        } catch let error as PostgresServer.Failure {
            return .failure(error)
        } catch {
            return .failure(.init(description: "cannot make the certificates: \(error)"))
        }
        let started = PostgresServer.start(configure: { data in
            let fm = FileManager.default
            for name in ["server.crt", "server.key"] {
                let target = data.appendingPathComponent(name).path
                try fm.copyItem(atPath: path(name), toPath: target)
                if getuid() == 0 { _ = try PostgresServer.run("/bin/chown", ["postgres:postgres", target], asPostgres: false) }
            }
            try fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: data.appendingPathComponent("server.key").path)
            // Trusted on the socket (for setting up); over TCP only with TLS and a password.
            let hba = data.appendingPathComponent("pg_hba.conf").path
            try "local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\n".write(toFile: hba, atomically: false, encoding: .utf8)
        }, settings: ["ssl=on", "log_connections=on"])
        switch started {
        case .failure(let failure):
            try? FileManager.default.removeItem(at: certs)
            return .failure(failure)
        case .success(let server):
            // The CAs move into the server's folder, which goes when the tests end; the rest
            // of the certificates' folder goes now.
            defer { try? FileManager.default.removeItem(at: certs) }
            do {
                for ca in ["ca.crt", "other-ca.crt"] {
                    try FileManager.default.copyItem(atPath: path(ca), toPath: server.folder.appendingPathComponent(ca).path)
                }
                let database = try server.makeDatabase("tls", setup: """
                    CREATE ROLE tlsuser LOGIN PASSWORD '\(password)';
                    CREATE TABLE people (id integer PRIMARY KEY, email text);
                    INSERT INTO people VALUES (1, 'a@example.com'), (2, 'not-an-email'), (3, 'c@example.com');
                    GRANT SELECT ON people TO tlsuser;
                    """)
                return .success(Setup(server: server, database: database, ca: server.folder.appendingPathComponent("ca.crt").path,
                                      otherCA: server.folder.appendingPathComponent("other-ca.crt").path))
            } catch let error as PostgresServer.Failure {
                return .failure(error)
            } catch {
                return .failure(.init(description: "\(error)"))
            }
        }
    }

    static let rules = """
        version: 1
        sources:
          people: { path: "postgresql:///unused", postgres: { table: people } }
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id:    { type: integer, required: true }
              email: { type: string, pattern: "[a-z]+@[a-z]+\\\\.com" }

        """

    /// Audits the table over TCP with `query` appended to the URL (host `host`).
    @discardableResult
    func audit(host: String = "127.0.0.1", _ query: String, exitCode: Int32,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> Execution {
        let setup = try Self.setup.get()
        let scratch = try Scratch("pg-tls")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Self.rules)
        let url = "postgresql://tlsuser@\(host):\(setup.server.port)/\(setup.database)?\(query)"
        let run = try assertExecute(["run", "rules.yml", "--source", "people=\(url)"], in: scratch.url, exitCode: exitCode,
                                    environment: ["PGPASSWORD": Self.password], timeout: 60, sourceLocation: sourceLocation)
        #expect(!run.stdoutText.contains(Self.password) && !run.stderrText.contains(Self.password), sourceLocation: sourceLocation)
        return run
    }

    /// The server log's lines that authorised `tlsuser`.
    func authorizations() throws -> [String] {
        let setup = try Self.setup.get()
        let log = try String(contentsOf: setup.server.folder.appendingPathComponent("log"), encoding: .utf8)
        return log.split(separator: "\n").map(String.init).filter { $0.contains("connection authorized: user=tlsuser") }
    }

    @Test("sslmode=require encrypts the audit's connection, and the audit runs")
    func require() throws {
        let before = try authorizations().count
        let run = try audit("sslmode=require", exitCode: 1)
        #expect(run.stdoutText.contains("email"), "\(run)")
        let new = try authorizations().dropFirst(before)
        #expect(!new.isEmpty && new.allSatisfy { $0.contains("SSL enabled") }, "\(new)")
    }

    @Test("sslmode=verify-full with the CA that signed the server's certificate: the audit runs")
    func verifyFull() throws {
        let setup = try Self.setup.get()
        try audit(host: "localhost", "sslmode=verify-full&sslrootcert=\(setup.ca)", exitCode: 1)
    }

    @Test("sslmode=verify-full with another CA: exit 66, the TLS advice and libpq's reason")
    func verifyFullWithTheWrongCA() throws {
        let setup = try Self.setup.get()
        let run = try audit(host: "localhost", "sslmode=verify-full&sslrootcert=\(setup.otherCA)", exitCode: 66)
        #expect(run.stderrText.contains("cannot connect to PostgreSQL at localhost:\(setup.server.port)/\(setup.database)"), "\(run)")
        #expect(run.stderrText.contains("TLS"), "\(run)")
        #expect(run.stderrText.contains("certificate verify failed"), "\(run)")
    }

    @Test("sslmode=verify-full to 127.0.0.1 with a certificate for localhost and 127.0.0.1: the audit runs")
    func verifyFullByAddress() throws {
        let setup = try Self.setup.get()
        try audit("sslmode=verify-full&sslrootcert=\(setup.ca)", exitCode: 1)
    }

    @Test("sslmode=disable where the server admits only TLS: exit 66, and the advice says why")
    func disableIsRefused() throws {
        let run = try audit("sslmode=disable", exitCode: 66)
        #expect(run.stderrText.contains("does not admit this user, database and address without encryption; set sslmode=require"), "\(run)")
        #expect(run.stderrText.contains("no encryption"), "libpq's own words: \(run)")
    }
}
