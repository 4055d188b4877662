/// English plurals for counted nouns, in messages and reports.
package enum Plural {
    /// `1 rule`, `2 rules`, `2,000 records` (grouped).
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        grouped(n) + " " + noun(n, singular, plural)
    }

    /// `1,000,000`.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// The noun alone, agreeing with `n`.
    public static func noun(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        n == 1 ? singular : (plural ?? singular + "s")
    }
}
