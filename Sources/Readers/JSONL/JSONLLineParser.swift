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

/// What a line said about one field: an absent key or `null` (in the cells, ``Cell/missing``
/// and ``Cell/null``, which `allowsMissing` and `allowsNull` tell apart).
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
    var problem: JSONLProblem?
    /// When not nil, the keys of the record object are appended to it (for `auditor profile`,
    /// which asks a reader without fields what fields it has).
    var topLevelKeys: [String]?

    // Internal, not private: the token scanners live in JSONLLineParser+Tokens.swift.
    var p: UnsafePointer<UInt8>
    var i = 0
    var end = 0
    private var seen: [UInt32]
    private var generation: UInt32 = 0
    private var keyScratch: [UInt8] = []
    /// Per node: the child to try first (``lookUp(node:_:)``), or -1.
    private var predicted: [Int]

    init(tree: JSONLFieldTree, width: Int) {
        self.tree = tree
        cells = Array(repeating: .missing, count: width)
        presence = Array(repeating: .absent, count: width)
        seen = Array(repeating: 0, count: tree.nodes.count)
        predicted = tree.nodes.map { $0.children.first ?? -1 }
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

    mutating func parseObject(node: Int, depth: Int) -> Bool {
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
            if node == 0, topLevelKeys != nil {
                var text = [UInt8]()
                Self.decode(p, key.start, key.end, into: &text)
                topLevelKeys?.append(String(decoding: text, as: UTF8.self))
            }
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
    mutating func readField(_ child: Int, depth: Int) -> Bool {
        // Fields read one by one: a copy of the node would retain its arrays for every value.
        let column = tree.nodes[child].column
        let valueStart = i
        if column >= 0 {
            guard let cell = parseValue(depth: depth) else { return false }
            cells[column] = cell
            presence[column] = cell.isMissing ? .null : .value
        }
        guard !tree.nodes[child].children.isEmpty else { return true }
        let valueEnd = i
        i = valueStart
        if i < end, p[i] == UInt8(ascii: "{") {
            return parseObject(node: child, depth: depth)
        }
        if column >= 0 {
            i = valueEnd
            return true
        }
        return skipValue(depth: depth)
    }

    /// The child of `node` named by the key string `[start, end)` (raw, or unescaped when it has escapes).
    /// Lines of one file mostly list their keys in the same order: the child after the one
    /// found last is tried first.
    mutating func lookUp(node: Int, _ key: (start: Int, end: Int, escaped: Bool)) -> Int {
        if !key.escaped {
            let raw = UnsafeRawBufferPointer(start: p + key.start, count: key.end - key.start)
            let next = predicted[node]
            if next >= 0, tree.isChild(next, of: node, named: raw) {
                predicted[node] = tree.following(next, of: node)
                return next
            }
            let found = tree.child(of: node, key: raw)
            if found >= 0 { predicted[node] = tree.following(found, of: node) }
            return found
        }
        keyScratch.removeAll(keepingCapacity: true)
        Self.decode(p, key.start, key.end, into: &keyScratch)
        return keyScratch.withUnsafeBytes { tree.child(of: node, key: $0) }
    }

    // MARK: Values

    /// Parses a value into a cell (text, integer, list, map; `null` is ``Cell/null``, an
    /// explicit null, where an absent key stays ``Cell/missing``).
    mutating func parseValue(depth: Int) -> Cell? {
        guard i < end else { _ = fail(expecting: "a value"); return nil }
        switch p[i] {
        case UInt8(ascii: "\""):
            guard let s = scanString() else { return nil }
            let offset = bytes.count
            if s.escaped {
                Self.decode(p, s.start, s.end, into: &bytes)
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
            return .null
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

    mutating func textCell(_ text: StaticString) -> Cell {
        let offset = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        return .text(offset: offset, length: text.utf8CodeUnitCount)
    }

    mutating func parseList(depth: Int) -> Cell? {
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

    mutating func parseMap(depth: Int) -> Cell? {
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
                Self.decode(p, s.start, s.end, into: &keyScratch)
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
    mutating func skipValue(depth: Int) -> Bool {
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

    // MARK: Problems

    mutating func fail(_ reason: String) -> Bool {
        problem = .malformed(at: i, reason: reason)
        return false
    }

    mutating func fail(expecting what: String) -> Bool {
        let found = i < end ? Self.describe(p[i]) : "the end of the line"
        return fail("expected \(what), found \(found)")
    }

    mutating func tooDeep() -> Bool {
        fail("arrays and objects nest deeper than \(Self.maxDepth) levels")
    }
}
