import Auditor

/// A rule's violations over the last runs as one character per run (`▅▄▅▅▆▅▄█`), for the text
/// report and the GitHub job summary; the HTML report draws the same levels as SVG bars.
///
/// Levels run from 0 to 7 on a scale from zero to the largest count (not from the smallest:
/// 100 → 101 must not look like a leap). Level 0 means exactly zero, and any non-zero count
/// is at least level 1, so "a few" never reads as "none".
enum Sparkline {
    /// `▁▂▃▄▅▆▇█` (U+2581–U+2588).
    static let unicodeLevels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// The ASCII stand-ins, lowest to highest, for terminals and locales without UTF-8.
    static let asciiLevels: [Character] = ["_", ".", "-", "~", "=", "+", "*", "#"]

    /// The most runs drawn (the latest ones).
    static let maxRuns = 20

    /// Each count's level, 0...7.
    static func levels(_ counts: [Int]) -> [Int] {
        let top = counts.max() ?? 0
        guard top > 0 else { return counts.map { _ in 0 } }
        return counts.map { c in c <= 0 ? 0 : 1 + Int((Double(c) / Double(top) * 6).rounded()) }
    }

    /// The last ``maxRuns`` counts as characters.
    static func text(_ counts: [Int], unicode: Bool) -> String {
        let symbols = unicode ? unicodeLevels : asciiLevels
        return String(levels(Array(counts.suffix(maxRuns))).map { symbols[$0] })
    }

    /// `▅▄▅▅▆▅▄█ 5 → 12 over 8 runs, recent median 5`: the trend in words, without the jump flag.
    static func summary(_ trend: RuleTrend, unicode: Bool) -> String {
        let counts = trend.counts.suffix(maxRuns)
        var text = Sparkline.text(trend.counts, unicode: unicode)
        if let first = counts.first, let last = counts.last {
            text += " \(NumberText.grouped(first)) \(unicode ? "→" : "->") \(NumberText.grouped(last))"
        }
        text += " over \(Plural.count(counts.count, "run"))"
        if let median = trend.median { text += ", recent median \(medianText(median))" }
        return text
    }

    /// `5`, `3.5`: a median is a whole number or a half.
    static func medianText(_ median: Double) -> String {
        median == median.rounded() ? NumberText.grouped(Int(median)) : NumberText.fixed(median, fractionDigits: 1)
    }

    /// One character per count, for `auditor history` (`ascii`: `_.-~=+*#`).
    static func render(_ counts: [Int], ascii: Bool = false) -> String {
        let symbols = ascii ? asciiLevels : unicodeLevels
        return String(levels(counts).map { symbols[$0] })
    }
}

/// Whether the text report may draw with Unicode symbols (the trend sparkline `▁▂▃▄▅▆▇█`, `→`)
/// or must keep to ASCII.
package enum TextCharset {
    /// Unicode when the locale's character set is UTF-8: the first non-empty of `LC_ALL`,
    /// `LC_CTYPE` and `LANG` (POSIX precedence) names `UTF-8` or `utf8`. No locale, `C` or
    /// `POSIX` (ASCII by definition) and any other character set mean ASCII.
    /// - Parameter environment: The process environment.
    /// - Returns: True when Unicode symbols may be printed.
    public static func allowsUnicode(environment: [String: String]) -> Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let lower = value.lowercased()
            return lower.contains("utf-8") || lower.contains("utf8")
        }
        return false
    }
}
