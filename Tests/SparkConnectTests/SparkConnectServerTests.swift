#if Spark
import Foundation
import SparkConnect
import Testing

/// The client against a real Spark Connect server (see SparkTestServer). Expected values for
/// decimals, dates and timestamps are what Python's decimal and datetime give for the same
/// literals (format(Decimal(s), "f"); days and microseconds since the epoch in UTC).
@Suite("Spark Connect against a real server", .enabled(if: SparkTestServer.available, SparkTestServer.skipReason))
struct SparkConnectServerTests {
    func client() async throws -> SparkConnectClient {
        try SparkConnectClient(try await SparkTestServer.get().url, timeout: .seconds(300))
    }

    @Test func literalsAndNull() async throws {
        let result = try await client().sql("SELECT 1 AS a, 'x' AS b, CAST(NULL AS INT) AS c")
        #expect(result.columns.map(\.name) == ["a", "b", "c"])
        #expect(result.columns[0].type == .int(bitWidth: 32, signed: true))
        #expect(result.columns[2].type == .int(bitWidth: 32, signed: true))
        #expect(result.rows == [[.int(1), .string("x"), .null]])
    }

    @Test func severalArrowBatches() async throws {
        let result = try await client().sql("SELECT id, CAST(id AS STRING) s FROM range(0, 200000, 1, 4)")
        #expect(result.rows.count == 200_000)
        #expect(result.batchCount > 1, "200,000 rows in 4 partitions come in more than one Arrow batch")
        var sum: Int64 = 0
        var seen = Set<Int64>()
        var textMatches = true
        for row in result.rows {
            guard case .int(let id) = row[0], case .string(let s) = row[1] else {
                Issue.record("unexpected row \(row)")
                return
            }
            sum += id
            seen.insert(id)
            if s != String(id) { textMatches = false }
        }
        #expect(sum == 19_999_900_000)  // sum(range(200000)) in Python
        #expect(seen.count == 200_000)
        #expect(textMatches)
    }

    @Test func decimalsDatesTimestampsAndOtherTypes() async throws {
        let spark = try await client()
        _ = try await spark.sql("SET spark.sql.session.timeZone=UTC")
        let result = try await spark.sql("""
            SELECT CAST('12345678901234567890.123456789' AS DECIMAL(38,9)) d1, CAST('-0.001' AS DECIMAL(10,3)) d2,
                   CAST('0.10' AS DECIMAL(4,2)) d3, DATE'2024-02-29' dt1, DATE'1900-01-01' dt2,
                   TIMESTAMP'2024-02-29 12:34:56.789012' ts, TIMESTAMP_NTZ'1969-12-31 23:59:59.5' ntz,
                   1.5D dbl, true b, CAST(7 AS TINYINT) t, CAST(-8 AS SMALLINT) sm, 9000000000L bg, CAST(NULL AS DATE) nd
            """)
        #expect(result.rows.count == 1)
        let row = try #require(result.rows.first)
        // format(Decimal(...), "f") in Python: 12345678901234567890.123456789, -0.001, 0.10.
        #expect(row[0] == .decimal("12345678901234567890.123456789"))
        #expect(row[1] == .decimal("-0.001"))
        #expect(row[2] == .decimal("0.10"))
        #expect(result.columns[0].type == .decimal(precision: 38, scale: 9, bitWidth: 128))
        // (date(2024, 2, 29) - date(1970, 1, 1)).days and the same for 1900-01-01.
        #expect(row[3] == .date(days: 19782))
        #expect(row[4] == .date(days: -25567))
        #expect(row[3].description == "2024-02-29")
        // Microseconds since the epoch of datetime(2024, 2, 29, 12, 34, 56, 789012, tzinfo=utc).
        guard case .timestamp(let micros, let zone) = row[5] else { Issue.record("ts is \(row[5])"); return }
        #expect(micros == 1_709_210_096_789_012)
        #expect(zone == "UTC")
        #expect(row[6] == .timestamp(microseconds: -500_000, timeZone: nil))
        #expect(row[7] == .double(1.5))
        #expect(row[8] == .bool(true))
        #expect(row[9] == .int(7))
        #expect(row[10] == .int(-8))
        #expect(row[11] == .int(9_000_000_000))
        #expect(row[12] == .null)
    }

    @Test func emptyResultKeepsItsColumns() async throws {
        let result = try await client().sql("SELECT id FROM range(0, 10) WHERE id < 0")
        #expect(result.rows.isEmpty)
        #expect(result.columns.map(\.name) == ["id"])
    }

    @Test func temporaryViewsLiveInTheClientsSession() async throws {
        let spark = try await client()
        _ = try await spark.sql("CREATE OR REPLACE TEMPORARY VIEW people AS SELECT * FROM VALUES (1, 'ana'), (2, 'bo') AS t(id, name)")
        let result = try await spark.sql("SELECT count(*) AS n, max(name) AS m FROM people")
        #expect(result.rows == [[.int(2), .string("bo")]])
        // Another client is another session: the view is not there.
        await #expect(throws: SparkConnectError.self) { try await client().sql("SELECT * FROM people") }
    }

    /// A command's rows come inline (SqlCommandResult's LocalRelation); its settings hold for
    /// the session's later queries; a query sent as a command still runs; its errors are a query's.
    @Test func commandsRunAtOnce() async throws {
        let spark = try await client()
        let set = try await spark.command("SET spark.sql.session.timeZone=Asia/Tokyo")
        #expect(set.columns.map(\.name) == ["key", "value"])
        #expect(set.rows == [[.string("spark.sql.session.timeZone"), .string("Asia/Tokyo")]])
        #expect(try await spark.sql("SELECT current_timezone()").rows == [[.string("Asia/Tokyo")]])
        let explained = try await spark.command("EXPLAIN COST SELECT id FROM range(0, 10)")
        guard case .string(let plan)? = explained.rows.first?.first else {
            Issue.record("no plan: \(explained.rows)")
            return
        }
        #expect(plan.contains("== Optimized Logical Plan ==\nRange (0, 10, step=1), Statistics(sizeInBytes=80.0 B"), "\(plan)")
        #expect(try await spark.command("SELECT id * 2 FROM range(0, 3)").rows == [[.int(0)], [.int(2)], [.int(4)]])
        _ = try await spark.command("CREATE OR REPLACE TEMPORARY VIEW auditor_command_view AS SELECT 7 AS n")
        #expect(try await spark.sql("SELECT n FROM auditor_command_view").rows == [[.int(7)]])
        do {
            _ = try await spark.command("CREATE OR REPLACE TEMPORARY VIEW auditor_bad_view AS SELECT * FROM no_such_table_for_auditor")
            Issue.record("the command succeeded")
        } catch let error as SparkConnectError {
            #expect(error.code == .analysis && error.errorClass == "TABLE_OR_VIEW_NOT_FOUND", "\(error)")
        }
    }

    @Test func missingTableIsAnAnalysisError() async throws {
        do {
            _ = try await client().sql("SELECT * FROM no_such_table_for_auditor")
            Issue.record("the query succeeded")
        } catch let error as SparkConnectError {
            #expect(error.code == .analysis)
            #expect(error.errorClass == "TABLE_OR_VIEW_NOT_FOUND")
            #expect(error.sqlState == "42P01")
            #expect(error.message.contains("no_such_table_for_auditor"))
        }
    }

    @Test func syntaxErrorIsAnAnalysisError() async throws {
        do {
            _ = try await client().sql("SELEC 1")
            Issue.record("the query succeeded")
        } catch let error as SparkConnectError {
            #expect(error.code == .analysis)
            #expect(error.errorClass == "PARSE_SYNTAX_ERROR")
        }
    }

    @Test func aFailureWhileRunningIsAServerError() async throws {
        do {
            _ = try await client().sql("SELECT assert_true(id < 5) FROM range(0, 10)")
            Issue.record("the query succeeded")
        } catch let error as SparkConnectError {
            #expect(error.code == .server)
            #expect(error.message.contains("id < 5") || error.message.contains("assert"))
        }
    }

    @Test func aWrongTokenIsRefused() async throws {
        let server = try await SparkTestServer.get()
        // Only for a server this process started, with a token (not one from SPARK_CONNECT_URL).
        guard server.token != nil else { return }
        do {
            _ = try await SparkConnectClient("sc://127.0.0.1:\(server.port)/;token=wrong", timeout: .seconds(60)).sql("SELECT 1")
            Issue.record("the query succeeded")
        } catch let error as SparkConnectError {
            #expect(error.code == .unauthenticated)
            #expect(!error.description.contains("wrong"), "the token is not echoed")
        }
    }
}

/// Failures that need no Spark: each is a clear error, quickly, never a hang.
@Suite struct SparkConnectFailureTests {
    @Test func connectionRefused() async throws {
        let port = SparkTestServer.freePort()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await SparkConnectClient("sc://127.0.0.1:\(port)", timeout: .seconds(60)).sql("SELECT 1")
            Issue.record("the query succeeded")
        } catch let error as SparkConnectError {
            #expect(error.code == .unreachable)
            #expect(error.message.contains("127.0.0.1:\(port)"))
        }
        #expect(clock.now - start < .seconds(20))
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let silent = try SilentListener()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await SparkConnectClient("sc://127.0.0.1:\(silent.port)", timeout: .seconds(2)).sql("SELECT 1")
            Issue.record("the query succeeded")
        } catch let error as SparkConnectError {
            #expect(error.code == .timedOut || error.code == .unreachable)
        }
        #expect(clock.now - start < .seconds(20))
        withExtendedLifetime(silent) {}
    }
}
#endif
