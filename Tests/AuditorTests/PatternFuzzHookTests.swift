@_spi(Testing) import Auditor
import Testing

/// `Pattern.everyMatcher`, which the FuzzPattern target compares matchers with: every strategy
/// the pattern can use, failing exactly as `Pattern.init` does.
@Suite struct PatternFuzzHookTests {
    @Test(arguments: ["[a-z]+", "(?:ab|a)*c", "\\d{2,4}-x"])
    func everyMatcherAnswersAlike(_ source: String) throws {
        let patterns = try Pattern.everyMatcher(source)
        #expect(patterns.count == 3)
        for text in ["", "abc", "ababc", "12-x", "12345-x", "é"] {
            #expect(Set(patterns.map { $0.matches(text) }).count == 1, "\(source) on \(text)")
            #expect(patterns[0].matches(text) == (try Pattern(source)).matches(text))
        }
    }

    @Test(arguments: ["(a", "a{2,1}", "(?=a)"])
    func everyMatcherFailsLikeInit(_ source: String) throws {
        var thrown: PatternError?
        do { _ = try Pattern(source) } catch { thrown = error }
        let expected = try #require(thrown)
        #expect(throws: expected) { try Pattern.everyMatcher(source) }
    }
}
