/// A position in a configuration (rules) file: 1-based line and column.
public struct ConfigMark: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the prefix of every diagnostic about a rules file.
    public var description: String { "\(file):\(line):\(column)" }
}

/// One located problem in a rules file.
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    public var mark: ConfigMark
    public var message: String

    public init(mark: ConfigMark, message: String) {
        self.mark = mark
        self.message = message
    }

    /// `rules.yml:14:17: message`.
    public var description: String { "\(mark): \(message)" }

    public static func == (a: Diagnostic, b: Diagnostic) -> Bool {
        a.mark == b.mark && a.message == b.message
    }
}

/// Did-you-mean suggestions.
package enum Suggest {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            if d <= max(1, min(w.count, c.count) / 3), d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        return best?.0
    }

    /// The edit distance counting a swap of two neighbours as one edit (the optimal string
    /// alignment distance): `nmae` is one edit from `name`, as `nme` and `nam` are.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0 ... b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1 ... a.count {
            cur[0] = i
            for j in 1 ... b.count {
                cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = Swift.min(cur[j], before[j - 2] + 1) }
            }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[b.count]
    }
}
