#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor

/// Why a line is not a record (a finding of one of the reader's structural rules).
enum JSONLProblem: Equatable {
    /// Not one JSON object: bad syntax, truncated, an array or a scalar, nested too deep.
    case malformed(at: Int, reason: String)
    /// A string holds bytes that are not UTF-8, or a `\u` escape that is a lone surrogate.
    case encoding(at: Int, reason: String)
    /// A key that a rule reads occurs twice in one object.
    case duplicate(at: Int, key: String)
}

/// What a line said about one field: the difference between an absent key and `null` is
/// kept here (both are a missing cell) for rules that will tell them apart.
enum JSONLPresence: UInt8 {
    case absent, null, value
}

/// A byte-level parser for one JSON Lines record: checks the whole line against RFC 8259,
/// stores the values of the fields the tree names as cells, and skips (but checks) the rest.
///
/// Nesting is parsed recursively up to ``maxDepth`` levels, then the line is malformed: a line
/// of 100,000 `[` is a finding, never a stack overflow. No `String` is built except for the
/// keys of a map value and for a problem's message.
struct JSONLLineParser {
    /// The deepest nesting accepted (Python's `json` stops near 1,000 with RecursionError).
    static let maxDepth = 512

    let tree: JSONLFieldTree
    /// Per column, the record's value (valid after a successful ``parse(_:from:to:)``).
    var cells: [Cell]
    var presence: [JSONLPresence]
    /// The chunk's text bytes and composites, which the cells point into.
    var bytes: [UInt8] = []
    var composites: [Composite] = []
    private(set) var problem: JSONLProblem?

    private var p: UnsafePointer<UInt8>
    private var i = 0
    private var end = 0
    private var seen: [UInt32]
    private var generation: UInt32 = 0
    private var keyScratch: [UInt8] = []

    init(tree: JSONLFieldTree, width: Int) {
        self.tree = tree
        cells = Array(repeating: .missing, count: width)
        presence = Array(repeating: .absent, count: width)
        seen = Array(repeating: 0, count: tree.nodes.count)
        p = UnsafePointer(bitPattern: 1).unsafelyUnwrapped  // replaced before every use
    }

    /// Parses `[start, end)`, one line without its line feed and not blank.
    /// - Returns: True when the line is one object: ``cells`` and ``presence`` hold its fields.
    ///   False with ``problem`` set otherwise (bytes and composites are rolled back).
    mutating func parse(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        p = base
        i = start
        self.end = end
        problem = nil
        for c in cells.indices {
            cells[c] = .missing
            presence[c] = .absent
        }
        let byteMark = bytes.count
        let compositeMark = composites.count
        skipSpace()
        var ok: Bool
        if i < end, p[i] == UInt8(ascii: "{") {
            ok = parseObject(node: 0, depth: 1)
            if ok {
                skipSpace()
                if i < end { ok = fail("unexpected \(Self.describe(p[i])) after the object; a line holds exactly one object") }
            }
        } else {
            ok = fail(i < end ? "a line must hold one JSON object, not \(Self.describeValue(p[i]))"
                              : "a line must hold one JSON object")
        }
        if !ok {
            bytes.removeSubrange(byteMark...)
            composites.removeSubrange(compositeMark...)
            return false
        }
        for (column, earlier) in tree.aliases {
            cells[column] = cells[earlier]
            presence[column] = presence[earlier]
        }
        return true
    }

    // MARK: Objects of the tree

    private mutating func parseObject(node: Int, depth: Int) -> Bool {
        i += 1  // {
        generation &+= 1
        if generation == 0 {
            for n in seen.indices { seen[n] = 0 }
            generation = 1
        }
        let visit = generation
        skipSpace()
        if i < end, p[i] == UInt8(ascii: "}") {
            i += 1
            return true
        }
        let children = !tree.nodes[node].children.isEmpty
        while true {
            guard i < end, p[i] == UInt8(ascii: "\"") else { return fail(expecting: "a key in double quotes") }
            let keyAt = i
            guard let key = scanString() else { return false }
            skipSpace()
            guard i < end, p[i] == UInt8(ascii: ":") else { return fail(expecting: "':' after the key") }
            i += 1
            skipSpace()
            let child = children ? lookUp(node: node, key) : -1
            if child >= 0 {
                if seen[child] == visit {
                    problem = .duplicate(at: keyAt, key: String(decoding: tree.nodes[child].key, as: UTF8.self))
                    return false
                }
                seen[child] = visit
                guard readField(child, depth: depth + 1) else { return false }
            } else {
                guard skipValue(depth: depth + 1) else { return false }
            }
            skipSpace()
            guard i < end else { return fail(expecting: "',' or '}'") }
            if p[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
            } else if p[i] == UInt8(ascii: "}") {
                i += 1
                return true
            } else {
                return fail(expecting: "',' or '}'")
            }
        }
    }

    /// The value of a tree node: stored in its column, and descended into for its children.
    private mutating func readField(_ child: Int, depth: Int) -> Bool {
        let node = tree.nodes[child]
        let valueStart = i
        if node.column >= 0 {
            guard let cell = parseValue(depth: depth) else { return false }
            cells[node.column] = cell
            presence[node.column] = cell.isMissing ? .null : .value
        }
        guard !node.children.isEmpty else { return true }
        let valueEnd = i
        i = valueStart
        if i < end, p[i] == UInt8(ascii: "{") {
            return parseObject(node: child, depth: depth)
        }
        if node.column >= 0 {
            i = valueEnd
            return true
        }
        return skipValue(depth: depth)
    }

    /// The child of `node` named by the key string `[start, end)` (raw, or unescaped when it has escapes).
    private mutating func lookUp(node: Int, _ key: (start: Int, end: Int, escaped: Bool)) -> Int {
        if !key.escaped {
            return tree.child(of: node, key: UnsafeRawBufferPointer(start: p + key.start, count: key.end - key.start))
        }
        keyScratch.removeAll(keepingCapacity: true)
        decode(key.start, key.end, into: &keyScratch)
        return keyScratch.withUnsafeBytes { tree.child(of: node, key: $0) }
    }

    // MARK: Values

    /// Parses a value into a cell (text, integer, list, map; `null` is missing).
    private mutating func parseValue(depth: Int) -> Cell? {
        guard i < end else { _ = fail(expecting: "a value"); return nil }
        switch p[i] {
        case UInt8(ascii: "\""):
            guard let s = scanString() else { return nil }
            let offset = bytes.count
            if s.escaped {
                decode(s.start, s.end, into: &bytes)
            } else {
                bytes.append(contentsOf: UnsafeBufferPointer(start: p + s.start, count: s.end - s.start))
            }
            return .text(offset: offset, length: bytes.count - offset)
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            guard let n = scanNumber() else { return nil }
            return JSONLNumber.cell(UnsafeBufferPointer(start: p + n.start, count: n.end - n.start), appendingTo: &bytes)
        case UInt8(ascii: "t"):
            guard literal("true") else { return nil }
            return textCell("true")
        case UInt8(ascii: "f"):
            guard literal("false") else { return nil }
            return textCell("false")
        case UInt8(ascii: "n"):
            guard literal("null") else { return nil }
            return .missing
        case UInt8(ascii: "["):
            guard depth <= Self.maxDepth else { _ = tooDeep(); return nil }
            return parseList(depth: depth)
        case UInt8(ascii: "{"):
            guard depth <= Self.maxDepth else { _ = tooDeep(); return nil }
            return parseMap(depth: depth)
        default:
            _ = fail(expecting: "a value")
            return nil
        }
    }

    private mutating func textCell(_ text: StaticString) -> Cell {
        let offset = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        return .text(offset: offset, length: text.utf8CodeUnitCount)
    }

    private mutating func parseList(depth: Int) -> Cell? {
        i += 1
        var items = [Cell]()
        skipSpace()
        if i < end, p[i] == UInt8(ascii: "]") {
            i += 1
        } else {
            while true {
                guard let item = parseValue(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard i < end else { _ = fail(expecting: "',' or ']'"); return nil }
                if p[i] == UInt8(ascii: ",") {
                    i += 1
                    skipSpace()
                } else if p[i] == UInt8(ascii: "]") {
                    i += 1
                    break
                } else {
                    _ = fail(expecting: "',' or ']'")
                    return nil
                }
            }
        }
        composites.append(.list(items))
        return Cell(tag: .list, payload: Int64(composites.count - 1))
    }

    private mutating func parseMap(depth: Int) -> Cell? {
        i += 1
        var entries = [Composite.MapEntry]()
        var keys = Set<String>()
        skipSpace()
        if i < end, p[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                guard i < end, p[i] == UInt8(ascii: "\"") else { _ = fail(expecting: "a key in double quotes"); return nil }
                let keyAt = i
                guard let s = scanString() else { return nil }
                keyScratch.removeAll(keepingCapacity: true)
                decode(s.start, s.end, into: &keyScratch)
                let key = String(decoding: keyScratch, as: UTF8.self)
                guard keys.insert(key).inserted else {
                    problem = .duplicate(at: keyAt, key: key)
                    return nil
                }
                skipSpace()
                guard i < end, p[i] == UInt8(ascii: ":") else { _ = fail(expecting: "':' after the key"); return nil }
                i += 1
                skipSpace()
                guard let value = parseValue(depth: depth + 1) else { return nil }
                entries.append(Composite.MapEntry(key: key, value: value))
                skipSpace()
                guard i < end else { _ = fail(expecting: "',' or '}'"); return nil }
                if p[i] == UInt8(ascii: ",") {
                    i += 1
                    skipSpace()
                } else if p[i] == UInt8(ascii: "}") {
                    i += 1
                    break
                } else {
                    _ = fail(expecting: "',' or '}'")
                    return nil
                }
            }
        }
        composites.append(.map(entries))
        return Cell(tag: .map, payload: Int64(composites.count - 1))
    }

    /// Checks a value without storing it.
    private mutating func skipValue(depth: Int) -> Bool {
        guard i < end else { return fail(expecting: "a value") }
        switch p[i] {
        case UInt8(ascii: "\""):
            return scanString() != nil
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            return scanNumber() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard depth <= Self.maxDepth else { return tooDeep() }
            let close = p[i] == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
            let isObject = close == UInt8(ascii: "}")
            i += 1
            skipSpace()
            if i < end, p[i] == close {
                i += 1
                return true
            }
            while true {
                if isObject {
                    guard i < end, p[i] == UInt8(ascii: "\"") else { return fail(expecting: "a key in double quotes") }
                    guard scanString() != nil else { return false }
                    skipSpace()
                    guard i < end, p[i] == UInt8(ascii: ":") else { return fail(expecting: "':' after the key") }
                    i += 1
                    skipSpace()
                }
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                guard i < end else { return fail(expecting: isObject ? "',' or '}'" : "',' or ']'") }
                if p[i] == UInt8(ascii: ",") {
                    i += 1
                    skipSpace()
                } else if p[i] == close {
                    i += 1
                    return true
                } else {
                    return fail(expecting: isObject ? "',' or '}'" : "',' or ']'")
                }
            }
        default:
            return fail(expecting: "a value")
        }
    }

    // MARK: Tokens

    @inline(__always)
    private mutating func skipSpace() {
        while i < end {
            let b = p[i]
            guard b == 0x20 || b == 0x09 || b == 0x0D else { return }
            i += 1
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        if end - i >= n, memcmp(p + i, word.utf8Start, n) == 0 {
            i += n
            return true
        }
        return fail(expecting: "a value")
    }

    /// Checks a number against the JSON grammar.
    private mutating func scanNumber() -> (start: Int, end: Int)? {
        let start = i
        if p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end, p[i] &- 48 < 10 else { _ = fail("a number needs a digit after '-'"); return nil }
        if p[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < end, p[i] &- 48 < 10 { i += 1 }
        }
        if i < end, p[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, p[i] &- 48 < 10 else { _ = fail("a number needs a digit after '.'"); return nil }
            while i < end, p[i] &- 48 < 10 { i += 1 }
        }
        if i < end, p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < end, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
            guard i < end, p[i] &- 48 < 10 else { _ = fail("a number needs a digit in its exponent"); return nil }
            while i < end, p[i] &- 48 < 10 { i += 1 }
        }
        return (start, i)
    }

    /// Checks a string (escapes, control characters, UTF-8) and moves past its closing quote.
    /// - Returns: The bytes between the quotes, and whether they hold escapes.
    private mutating func scanString() -> (start: Int, end: Int, escaped: Bool)? {
        i += 1
        let start = i
        var escaped = false
        while i < end {
            // Eight bytes at a time while none is a quote, a backslash, a control byte or non-ASCII.
            while end - i >= 8 {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let high: UInt64 = 0x8080_8080_8080_8080
                let quote = w ^ (ones &* 0x22)
                let slash = w ^ (ones &* 0x5C)
                let special = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash) | (w &- ones &* 0x20) | w
                if special & high != 0 { break }
                i += 8
            }
            guard i < end else { break }
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                let stop = i
                i += 1
                return (start, stop, escaped)
            }
            if b == UInt8(ascii: "\\") {
                escaped = true
                guard scanEscape() else { return nil }
            } else if b < 0x20 {
                _ = fail("\(Self.describe(b)) must be escaped inside a string (a control character)")
                return nil
            } else if b >= 0x80 {
                let n = Self.utf8Length(p, i, end)
                guard n > 0 else {
                    problem = .encoding(at: i, reason: "the byte \(Self.hex(b)) does not continue valid UTF-8")
                    return nil
                }
                i += n
            } else {
                i += 1
            }
        }
        problem = .malformed(at: start - 1, reason: "the string that starts here is never closed: the line ends inside it")
        return nil
    }

    /// Checks the escape at `i` and moves past it (a surrogate pair counts as one).
    private mutating func scanEscape() -> Bool {
        guard i + 1 < end else { return fail("the line ends inside an escape") }
        switch p[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
            return true
        case UInt8(ascii: "u"):
            guard let unit = hex4(i + 2) else { return fail("'\\u' needs four hexadecimal digits") }
            if unit >= 0xDC00, unit <= 0xDFFF {
                problem = .encoding(at: i, reason: "the escape \\u\(Self.hex4Text(unit)) is a lone low surrogate, not a character")
                return false
            }
            if unit >= 0xD800, unit <= 0xDBFF {
                guard i + 7 < end, p[i + 6] == UInt8(ascii: "\\"), p[i + 7] == UInt8(ascii: "u"),
                      let low = hex4(i + 8), low >= 0xDC00, low <= 0xDFFF else {
                    problem = .encoding(at: i, reason: "the escape \\u\(Self.hex4Text(unit)) is a high surrogate without its low half, not a character")
                    return false
                }
                i += 12
                return true
            }
            i += 6
            return true
        default:
            return fail("a backslash followed by \(Self.describe(p[i + 1])) is not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    private func hex4(_ at: Int) -> UInt32? {
        guard at + 4 <= end else { return nil }
        var v: UInt32 = 0
        for k in at ..< at + 4 {
            let b = p[k]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): d = b - 48
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): d = b - 87
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): d = b - 55
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Unescapes a checked string `[start, stop)` into `out`.
    private func decode(_ start: Int, _ stop: Int, into out: inout [UInt8]) {
        var k = start
        var run = start
        while k < stop {
            guard p[k] == UInt8(ascii: "\\") else {
                k += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: k - run))
            let e = p[k + 1]
            switch e {
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var scalar = hex4(k + 2) ?? 0xFFFD
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    let low = hex4(k + 8) ?? 0xDC00
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                }
                Self.appendUTF8(scalar, to: &out)
                k += 4
            default: out.append(e)  // " \ /
            }
            k += 2
            run = k
        }
        out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: stop - run))
    }

    // MARK: Problems

    private mutating func fail(_ reason: String) -> Bool {
        problem = .malformed(at: i, reason: reason)
        return false
    }

    private mutating func fail(expecting what: String) -> Bool {
        let found = i < end ? Self.describe(p[i]) : "the end of the line"
        return fail("expected \(what), found \(found)")
    }

    private mutating func tooDeep() -> Bool {
        fail("arrays and objects nest deeper than \(Self.maxDepth) levels")
    }
}
