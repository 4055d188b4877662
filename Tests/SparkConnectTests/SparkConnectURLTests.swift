#if Spark
@testable import SparkConnect
import Testing

@Suite struct SparkConnectURLTests {
    @Test func hostPortAndDefaults() throws {
        let url = try SparkConnectURL(parsing: "sc://spark.example.com")
        #expect(url.host == "spark.example.com")
        #expect(url.port == 15002)
        #expect(url.token == nil && url.userID == nil && url.sessionID == nil && url.headers.isEmpty)
        #expect(try SparkConnectURL(parsing: "sc://127.0.0.1:4242/").port == 4242)
        #expect(try SparkConnectURL(parsing: "sc://[::1]:4242").host == "::1")
    }

    @Test func sparkParameters() throws {
        let url = try SparkConnectURL(parsing:
            "sc://localhost:15003/;token=secret;user_id=ana;user_agent=nightly;session_id=550E8400-E29B-41D4-A716-446655440000;x-tenant=blue")
        #expect(url.token == "secret")
        #expect(url.userID == "ana")
        #expect(url.userAgent == "nightly")
        #expect(url.sessionID == "550e8400-e29b-41d4-a716-446655440000")
        #expect(url.headers.map(\.0) == ["x-tenant"] && url.headers.map(\.1) == ["blue"])
        #expect(url.description == "sc://localhost:15003/;token=***;user_id=ana;user_agent=nightly;session_id=550e8400-e29b-41d4-a716-446655440000;x-tenant=blue")
        let client = SparkConnectClient(url: url)
        #expect(client.sessionID == "550e8400-e29b-41d4-a716-446655440000")
        #expect(client.metadata[stringValues: "authorization"].map { $0 } == ["Bearer secret"])
        #expect(client.metadata[stringValues: "x-tenant"].map { $0 } == ["blue"])
    }

    @Test func tlsIsRefusedNotIgnored() {
        #expect(throws: SparkConnectError.self) { try SparkConnectURL(parsing: "sc://host:443/;use_ssl=true") }
        do {
            _ = try SparkConnectURL(parsing: "sc://host:443/;use_ssl=true")
        } catch let error as SparkConnectError {
            #expect(error.code == .unsupported)
            #expect(error.message.contains("TLS"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect((try? SparkConnectURL(parsing: "sc://host/;use_ssl=false")) != nil)
    }

    @Test func aTokenIsNotSentInClearTextOverTheNetwork() throws {
        #expect(throws: SparkConnectError.self) { try SparkConnectURL(parsing: "sc://spark.example.com/;token=x") }
        #expect(try SparkConnectURL(parsing: "sc://127.0.0.1/;token=x").token == "x")
        #expect(try SparkConnectURL(parsing: "sc://localhost/;token=x").token == "x")
    }

    @Test(arguments: [
        "http://host:15002", "sc://", "sc://host:0", "sc://host:99999", "sc://host:abc", "sc://host/path",
        "sc://host/;novalue", "sc://host/;session_id=42", "sc://host/;use_ssl=maybe", "sc://ho st", "sc://[::1",
        "sc://host/;grpc-timeout=1", "sc://host/;authorization=x",
    ])
    func invalid(_ text: String) {
        do {
            _ = try SparkConnectURL(parsing: text)
            Issue.record("'\(text)' was accepted")
        } catch let error as SparkConnectError {
            #expect(error.code == .invalidURL)
            #expect(error.message.contains(text))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
#endif
