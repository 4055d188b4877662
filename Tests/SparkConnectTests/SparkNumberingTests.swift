#if Spark
import Foundation
@testable import AuditorReaders
import SparkConnect
import Testing

/// The query that numbers a pushed-down read's rows per range and tallies each range
/// (`SparkReader.evaluating`), run by the real server, and the ordinals and counts that the
/// reader makes of its answer (`SparkReader.numbered`), against the same computed here.
@Suite("spark: the pushed-down numbering and tallies", .enabled(if: SparkTestServer.available, SparkTestServer.skipReason))
struct SparkNumberingTests {
    /// `x` is a permutation of 0 ..< count, so its order numbers the rows: a row's ordinal is
    /// x + 1. Ranges of 100 values of `x`; range 3 passes whole (only its tally row is sent),
    /// the last row of range 6 fails, range 7 fails whole, and range 13 is a single row. Seven
    /// counted conditions, NULL at times: packed in 11 bits (1201 rows), five to a sum, or not.
    @Test("ordinals, the rows that may fail and the counts, whichever row of a range fails",
          arguments: [1, 2, 3] as [UInt64], [false, true])
    func numbering(seed: UInt64, packed: Bool) async throws {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let count = 1201
        var rows: [(x: Int, range: Int, pass: Bool, c: [Bool?])] = []
        for i in 0 ..< count {
            let x = (i * 7919) % count
            let range = 1 + x / 100
            var pass = next() % 5 != 0
            if range == 3 { pass = true }
            if range == 7 || x == 599 { pass = false }
            rows.append((x, range, pass, (0 ..< 7).map { k in next() % 7 == 0 ? nil : next() % UInt64(k + 2) == 0 }))
        }
        func literal(_ b: Bool?) -> String { b.map { $0 ? "TRUE" : "FALSE" } ?? "NULL" }
        let values = rows.map { "(\($0.x), \($0.range), \(literal($0.pass)), \($0.c.map(literal).joined(separator: ", ")))" }
        let names = (0 ..< 7).map { "c\($0)" }
        let source = "(SELECT * FROM VALUES \(values.joined(separator: ", ")) "
            + "AS t(x, auditor_bucket, auditor_pass, \(names.joined(separator: ", ")))) AS s"
        let tallies = SparkReader.Tallies(conditions: names.map { "coalesce(\($0), FALSE)" }, rows: packed ? count : nil)
        #expect(tallies.columns.count == (packed ? 4 : 9))
        let query = SparkReader.evaluating(source, tallies: tallies.columns, order: "`x` ASC NULLS FIRST", columns: "`x`")
        let client = try SparkConnectClient(try await SparkTestServer.get().url, timeout: .seconds(300))
        let answer = try await client.sql(query).rows
        let (sums, sent, ordinals) = try SparkReader.numbered(answer, tallies: tallies.columns.count, at: "test")

        let passing = rows.filter(\.pass)
        #expect(tallies.counts(sums) == [count, passing.count] + (0 ..< 7).map { k in passing.filter { $0.c[k] == true }.count })
        let failing = rows.filter { !$0.pass }.map(\.x).sorted()
        #expect(ordinals == failing.map { Int64($0 + 1) })
        #expect(sent.map { answer[$0][SparkReader.prefix] } == failing.map { SparkValue.int(Int64($0)) })
        // Besides those, the last row of each range whose last row passes: it carries the tallies.
        let last = Dictionary(grouping: rows, by: \.range).values.map { $0.max { $0.x < $1.x }! }
        #expect(answer.count == failing.count + last.filter(\.pass).count)
    }

    @Test("an answer without a range's tallies, or with them twice, is an internal error")
    func brokenAnswers() throws {
        func row(_ range: Int64, _ n: Int64, pass: Bool, tallies: String?) -> [SparkValue] {
            [.int(range), .int(n), .bool(pass), tallies.map { .string($0) } ?? .null, .int(n)]
        }
        let good = [row(1, 1, pass: false, tallies: nil), row(1, 2, pass: true, tallies: "2,1"), row(2, 1, pass: false, tallies: "1,0")]
        let numbered = try SparkReader.numbered(good, tallies: 2, at: "t")
        #expect(numbered.counts == [3, 1] && numbered.ordinals == [1, 3])
        // No tallies for a range; tallies twice; tallies on a row that is not the range's last; a row past the range's size.
        for broken in [[row(1, 1, pass: false, tallies: nil)],
                       [row(1, 2, pass: false, tallies: "2,1"), row(1, 2, pass: true, tallies: "2,1")],
                       [row(1, 3, pass: false, tallies: "2,1")],
                       [row(1, 2, pass: false, tallies: "2,0"), row(1, 3, pass: false, tallies: nil)]] {
            #expect(throws: (any Error).self) { try SparkReader.numbered(broken, tallies: 2, at: "t") }
        }
    }
}
#endif
