import Auditor
import Foundation
@testable import AuditorReaders
import Testing

/// Patterns lowered to PostgreSQL's `~` match exactly what our own matcher matches, on a real
/// server: the subset, and our ASCII classes and `.` written out as bracket classes.
@Suite("PostgreSQL patterns against our matcher (a throwaway server)", .enabled(if: PostgresServer.available, PostgresServer.skipReason))
struct PostgresPatternTests {
    static let patterns = [
        #"\d+"#, #"\d{3}-\d{4}"#, #"[\d.]+"#, #"\w+@\w+\.\w{2,}"#, #"[\w ]+"#, #"\s*\S+\s*"#, #"a.b"#, #".*"#, #"\D+"#,
        #"[a\s]+"#, #".+\d"#, #"[^\d]+"#, #"\W?[A-Za-zÀ-ÿ' ]+"#, #"(\d|x)*"#,
    ]
    static let values = [
        "123", "12a", "", "a b", "a\tb", "a\nb", "a\u{0B}b", "a\u{0C}b", "a\rb", "a\u{85}b", "a\u{A0}b", "٣", "१२", "é", "É", "_x", "🦄",
        "a.b", "axb", "555-1234", "55-1234", "ann@example.org", "ann@ex.o", "Ann O'Neil", "ß", "1.2.3", " x ", "x\n", "\n",
        "ab\u{2028}", "xx1", "xx", "Ⅻ", "ｗ", "90", "x9", "Z_9z", "a\u{0B}a", "a\ta", "a\u{0C}a", "a\ra", "a\na", "a a",
    ]

    @Test("\\d, \\w, \\s, their negations and . written out: the same matches, case by case")
    func writtenOutClasses() throws {
        let server = try PostgresServer.shared.get()
        let dialect = PostgresDialect(columns: ["x": ("v", .text)], table: "t")
        let rows = Self.values.map { "(\(dialect.literal($0)))" }.joined(separator: ", ")
        for source in Self.patterns {
            let pattern = try Pattern(source)
            let condition = try #require(dialect.matches("x", pattern), "\(source) is not lowered")
            let out = try server.psql("SELECT \(condition) FROM (VALUES \(rows)) AS t(v)")
            let got = out.split(separator: "\n").map { $0 == "t" }
            let want = Self.values.map { pattern.matches($0) }
            #expect(got == want, "\(source): \(zip(Self.values, zip(got, want)).filter { $1.0 != $1.1 }.map(\.0))")
        }
        // What still differs, or may: word boundaries, Unicode properties, a range ending in a class.
        for source in [#"\bx"#, #"\p{L}+"#, #"[a-\d]"#, #"[\d-z]"#, #"[\D]"#] {
            #expect(PostgresDialect.regex(source) == nil, "\(source)")
        }
    }
}
