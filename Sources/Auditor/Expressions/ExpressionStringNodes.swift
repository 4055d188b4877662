/// String kernels: they work on UTF-8 byte slices of the chunk, never on a `String` per row
/// (except `lower`/`upper` of non-ASCII text, which need Unicode case mapping).

/// `len(s)` (Unicode scalars) and `number(s)` (the decimal grammar of rules.md, else null).
struct StringToNumberNode: ExpressionNode {
    enum Operation: Sendable { case length, parse }
    let op: Operation
    let operand: any ExpressionNode<StringColumn>

    func evaluate(_ context: EvaluationContext) -> NumberColumn {
        let column = operand.evaluate(context)
        var out = [Double](repeating: .nan, count: column.count)
        column.withSlices { slice in
            for r in 0 ..< out.count {
                guard let text = slice(r) else { continue }
                switch op {
                case .length:
                    out[r] = Double(ByteParsers.scalarCount(text))
                case .parse:
                    if let v = ExpressionInputs.exactDouble(text) { out[r] = v }
                }
            }
        }
        return NumberColumn(values: out)
    }
}

/// `lower`, `upper`, `trim`.
struct StringTransformNode: ExpressionNode {
    enum Operation: Sendable { case lower, upper, trim }
    let op: Operation
    let operand: any ExpressionNode<StringColumn>

    func evaluate(_ context: EvaluationContext) -> StringColumn {
        var column = operand.evaluate(context)
        if op == .trim {
            // Trimming only moves the slice bounds; the bytes stay where they are.
            column.storage.withUnsafeBufferPointer { b in
                for r in 0 ..< column.count where column.lengths[r] > 0 {
                    var start = column.starts[r]
                    var end = start + Int(column.lengths[r])
                    while start < end, let w = Self.spaceWidth(b, at: start, before: end) { start += w }
                    while start < end, let w = Self.spaceWidthEnding(b, at: end, after: start) { end -= w }
                    column.starts[r] = start
                    column.lengths[r] = Int32(end - start)
                }
            }
            return column
        }
        var out = StringColumnBuilder(capacity: column.count)
        let upper = op == .upper
        column.withSlices { slice in
            for r in 0 ..< column.count {
                guard let text = slice(r) else {
                    out.append(nil)
                    continue
                }
                if text.allSatisfy({ $0 < 0x80 }) {
                    out.append(contentsOf: text.lazy.map { b in
                        upper ? (b >= 0x61 && b <= 0x7A ? b - 32 : b) : (b >= 0x41 && b <= 0x5A ? b + 32 : b)
                    })
                } else {
                    let s = String(decoding: text, as: UTF8.self)
                    out.append(contentsOf: (upper ? s.uppercased() : s.lowercased()).utf8)
                }
            }
        }
        return out.column
    }

    /// Whitespace that `trim` removes: ASCII space, tab, LF, VT, FF, CR and U+00A0 (no-break space).
    @inline(__always)
    static func spaceWidth(_ b: UnsafeBufferPointer<UInt8>, at i: Int, before end: Int) -> Int? {
        let c = b[i]
        if c == 0x20 || (c >= 0x09 && c <= 0x0D) { return 1 }
        if c == 0xC2, i + 1 < end, b[i + 1] == 0xA0 { return 2 }
        return nil
    }

    @inline(__always)
    static func spaceWidthEnding(_ b: UnsafeBufferPointer<UInt8>, at end: Int, after start: Int) -> Int? {
        let c = b[end - 1]
        if c == 0x20 || (c >= 0x09 && c <= 0x0D) { return 1 }
        if c == 0xA0, end - 2 >= start, b[end - 2] == 0xC2 { return 2 }
        return nil
    }
}

/// `a + b` on strings.
struct ConcatenationNode: ExpressionNode {
    let left: any ExpressionNode<StringColumn>
    let right: any ExpressionNode<StringColumn>

    func evaluate(_ context: EvaluationContext) -> StringColumn {
        let a = left.evaluate(context)
        let b = right.evaluate(context)
        var out = StringColumnBuilder(capacity: a.count)
        a.withSlices { sa in
            b.withSlices { sb in
                for r in 0 ..< a.count {
                    if let x = sa(r), let y = sb(r) { out.append(x, y) } else { out.append(nil) }
                }
            }
        }
        return out.column
    }
}

/// `startsWith`, `endsWith`, `contains` (byte-wise on UTF-8, which is scalar-wise).
struct StringTestNode: ExpressionNode {
    enum Operation: Sendable { case startsWith, endsWith, contains }
    let op: Operation
    let text: any ExpressionNode<StringColumn>
    let part: any ExpressionNode<StringColumn>

    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        let a = text.evaluate(context)
        let b = part.evaluate(context)
        var out = [UInt8](repeating: BoolColumn.unknown, count: a.count)
        a.withSlices { sa in
            b.withSlices { sb in
                for r in 0 ..< out.count {
                    guard let x = sa(r), let y = sb(r) else { continue }
                    let hit: Bool
                    switch op {
                    case .startsWith: hit = y.count <= x.count && Bytes.equal(UnsafeBufferPointer(rebasing: x[0 ..< y.count]), y)
                    case .endsWith: hit = y.count <= x.count && Bytes.equal(UnsafeBufferPointer(rebasing: x[(x.count - y.count)...]), y)
                    case .contains: hit = Self.find(y, in: x)
                    }
                    out[r] = hit ? 1 : 0
                }
            }
        }
        return BoolColumn(values: out)
    }

    static func find(_ needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= hay.count else { return false }
        let first = needle[0]
        var i = 0
        while i <= hay.count - needle.count {
            if hay[i] == first, Bytes.equal(UnsafeBufferPointer(rebasing: hay[i ..< i + needle.count]), needle) { return true }
            i += 1
        }
        return false
    }
}

/// `matches(s, "regex")`: a full match with the pattern compiled once.
struct MatchNode: ExpressionNode {
    let pattern: Pattern
    let operand: any ExpressionNode<StringColumn>

    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        let column = operand.evaluate(context)
        var out = [UInt8](repeating: BoolColumn.unknown, count: column.count)
        column.withSlices { slice in
            for r in 0 ..< out.count {
                if let text = slice(r) { out[r] = pattern.matches(text) ? 1 : 0 }
            }
        }
        return BoolColumn(values: out)
    }
}

/// `isEmpty(s)`: true for null or "" (never unknown).
struct EmptyStringNode: ExpressionNode {
    let operand: any ExpressionNode<StringColumn>
    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        BoolColumn(values: Rows.map(operand.evaluate(context).lengths) { $0 <= 0 ? 1 : 0 })
    }
}
