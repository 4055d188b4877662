/// The typed parse: a column's cells classified once per declared type (missing, not of the
/// type, valid) with their comparable numbers. Everything that reads typed values reads this:
/// property rules, keys, expressions, validators and hooks (through ``ChunkColumns``), and the
/// profiler. Depends only on the ground floor (`Model`).
enum TypedParse {
    enum Classified {
        static let skip: UInt8 = 0      // excluded by a structural issue
        static let missing: UInt8 = 1
        static let invalid: UInt8 = 2
        static let valid: UInt8 = 3
    }

    /// Classifies every row of a column as missing, wrong type or valid, parsing ordered values
    /// into `numbers` and integers into `ints`.
    ///
    /// `numbers` holds what the fast comparisons use: a number's correctly rounded double when
    /// it has at most 15 significant digits, NaN when it has more (a SQLite REAL: its double);
    /// a date's day; a date-time's whole second (floor), with `ints` 1 when it has a non-zero
    /// fraction. See ``OrderedBound`` for how the exact values decide the rest.
    // Never inlined: called once per column, its per-type loops optimise best as one
    // function of their own (inlined into a caller, every store re-checked its array's
    // uniqueness: measured 5 % of the benchmark).
    @inline(never)
    static func classify(_ type: ValueType, _ column: [Cell], _ bytes: UnsafeBufferPointer<UInt8>,
                         _ excluded: [Bool], _ state: inout [UInt8], _ numbers: inout [Double],
                         _ ints: inout [Int64]) {
        // One loop per declared type: the type is loop-invariant, the cell tag is not.
        switch type {
        case .string:
            classifyRows(column, excluded, &state) { _, _ in Classified.valid }
        case .integer:
            classifyRows(column, excluded, &state) { r, cell in
                switch cell.tag {
                case .text:
                    let p = ByteParsers.integer(text(cell, bytes))
                    guard p.valid else { return Classified.invalid }
                    ints[r] = p.value
                    numbers[r] = comparableDouble(p.value)
                    return Classified.valid
                case .integer:
                    ints[r] = cell.integerValue
                    numbers[r] = comparableDouble(cell.integerValue)
                    return Classified.valid
                default:
                    return Classified.invalid
                }
            }
        case .decimal:
            classifyRows(column, excluded, &state) { r, cell in
                switch cell.tag {
                case .text:
                    let p = ByteParsers.comparableDecimal(text(cell, bytes))
                    guard p.valid else { return Classified.invalid }
                    numbers[r] = p.value
                    return Classified.valid
                case .integer:
                    ints[r] = cell.integerValue
                    numbers[r] = comparableDouble(cell.integerValue)
                    return Classified.valid
                case .real:
                    numbers[r] = cell.realValue
                    return Classified.valid
                default:
                    return Classified.invalid
                }
            }
        case .boolean:
            classifyRows(column, excluded, &state) { _, cell in
                switch cell.tag {
                case .text: return ByteParsers.boolean(text(cell, bytes)) != nil ? Classified.valid : Classified.invalid
                case .integer: return cell.integerValue == 0 || cell.integerValue == 1 ? Classified.valid : Classified.invalid
                default: return Classified.invalid
                }
            }
        case .date:
            classifyRows(column, excluded, &state) { r, cell in
                guard cell.tag == .text, let d = ByteParsers.date(text(cell, bytes)) else { return Classified.invalid }
                numbers[r] = Double(d)
                return Classified.valid
            }
        case .datetime:
            classifyRows(column, excluded, &state) { r, cell in
                guard cell.tag == .text, let t = ByteParsers.instant(text(cell, bytes)) else { return Classified.invalid }
                numbers[r] = Double(t.seconds)
                ints[r] = t.hasFraction ? 1 : 0
                return Classified.valid
            }
        }
    }

    /// Sets `state` for excluded and missing rows, and asks `present` for the others.
    @inline(__always)
    private static func classifyRows(_ column: [Cell], _ excluded: [Bool], _ state: inout [UInt8],
                                     _ present: (Int, Cell) -> UInt8) {
        for r in 0 ..< column.count {
            let cell = column[r]
            state[r] = excluded[r] ? Classified.skip : cell.tag == .missing ? Classified.missing : present(r, cell)
        }
    }

    @inline(__always)
    static func text(_ cell: Cell, _ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)])
    }

    /// The double an integer is compared by: exact below 10^15 (at most 15 digits), NaN
    /// above, where the exact value decides.
    @inline(__always)
    static func comparableDouble(_ value: Int64) -> Double {
        value > -1_000_000_000_000_000 && value < 1_000_000_000_000_000 ? Double(value) : .nan
    }
}
