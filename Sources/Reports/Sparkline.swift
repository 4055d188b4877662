/// A row of bar characters for a series of counts, one character per count: `▁▁▂█`.
///
/// Bars scale from zero (not from the smallest count) to the largest count, because zero
/// violations is the meaningful floor: `100 101 102` shows as three full bars, not as a climb.
/// A zero, and any count below 1/14 of the largest, is the lowest bar; an all-zero series is
/// all lowest bars.
///
/// Unicode block elements U+2581–U+2588 by default; ``ascii`` uses `_.-:=+*#` for terminals
/// and logs that cannot show them (`auditor history --ascii`).
public enum Sparkline {
    public static let unicodeBars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    public static let asciiBars: [Character] = ["_", ".", "-", ":", "=", "+", "*", "#"]

    /// The sparkline of `counts` (negative counts are drawn as zero).
    public static func render(_ counts: [Int], ascii: Bool = false) -> String {
        let bars = ascii ? asciiBars : unicodeBars
        let top = counts.max() ?? 0
        return String(counts.map { c -> Character in
            guard top > 0, c > 0 else { return bars[0] }
            let level = (Double(c) / Double(top) * Double(bars.count - 1)).rounded()
            return bars[min(bars.count - 1, max(0, Int(level)))]
        })
    }
}
