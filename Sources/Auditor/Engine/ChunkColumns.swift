/// The typed columns of one chunk for one bound entity: every attribute classified (missing,
/// wrong type, valid) and parsed from its bytes at most once, lazily, the first time a
/// consumer asks for it. Property rules, key extraction and lifecycle keys, record-rule
/// expressions, YAML validators and Swift hooks all read the same ``TypedColumn``.
///
/// Which rows are classified is decided per attribute, never per consumer, so the order in
/// which consumers ask does not change a result: attributes that take part in a key (and the
/// lifecycle's key) are classified on every row a structural issue does not exclude; the
/// others only on the active rows (under `--changed-only`, unchanged rows are not parsed).
/// A consumer that needs fewer rows masks the state (``state(_:masking:)``).
///
/// Columns that only property rules read are classified into buffers reused from one such
/// attribute to the next (``recycle(_:)``), as the per-attribute loop always did; the others
/// stay until the chunk is done.
///
/// Used by one chunk evaluation on one thread; not `Sendable`. ``hookColumns()`` hands
/// columns to code that needs `Sendable` values (``RecordView``).
final class ChunkColumns {
    let entity: BoundEntity
    let chunk: RecordChunk
    /// Rows a structural issue excludes.
    let excluded: [Bool]
    /// Rows no rule applies to: the excluded ones, and under `--changed-only` the unchanged
    /// ones. Set by the evaluator once the lifecycle has classified the rows, before any
    /// attribute outside ``wide`` is read.
    var inactive: [Bool]
    /// Per attribute: classified on every non-excluded row (keys) rather than the active ones.
    private let wide: [Bool]
    /// Per attribute: read after the property rules (keys, expressions, hooks): kept.
    private let retained: [Bool]
    /// Buffers of a column no one reads any more, for the next column that is not retained.
    private var scratch: (state: [UInt8], numbers: [Double], ints: [Int64])?
    private var columns: [TypedColumn?]
    /// Per attribute: how many times its column was classified (at most once; tests check it).
    private(set) var parses: [Int]

    /// - Parameters:
    ///   - wide: Attributes classified on every row that `excluded` keeps.
    init(_ entity: BoundEntity, _ chunk: RecordChunk, excluded: [Bool], wide: Set<Int>) {
        self.entity = entity
        self.chunk = chunk
        self.excluded = excluded
        self.inactive = excluded
        let count = entity.plan.attributes.count
        self.wide = (0 ..< count).map { wide.contains($0) }
        var retained = self.wide
        for check in entity.plan.checks {
            guard case .record(let when, let assert) = check.test else { continue }
            for name in ((when?.inputs ?? []) + assert.inputs).map({ LifecycleInput($0).attribute }) {
                if let a = entity.plan.attributes.firstIndex(where: { $0.name == name }) { retained[a] = true }
            }
        }
        for name in entity.hooks.attributesRead {
            if let a = entity.plan.attributes.firstIndex(where: { $0.name == name }) { retained[a] = true }
        }
        self.retained = retained
        columns = [TypedColumn?](repeating: nil, count: count)
        parses = [Int](repeating: 0, count: count)
    }

    /// The typed column of attribute `a`, classified on first use.
    /// - Complexity: O(rows) the first time, O(1) after.
    func column(_ a: Int) -> TypedColumn {
        if let c = columns[a] { return c }
        let n = chunk.count
        let type = entity.plan.attributes[a].type
        let cells = entity.columns[a] >= 0 ? chunk.columns[entity.columns[a]] : [Cell](repeating: .missing, count: n)
        var state: [UInt8], numbers: [Double], ints: [Int64]
        if !retained[a], let buffers = scratch {
            (state, numbers, ints) = buffers
            scratch = nil
        } else if !retained[a] {
            // Full-size buffers, reused by every later column that is not retained.
            state = [UInt8](repeating: 0, count: n)
            numbers = [Double](repeating: 0, count: n)
            ints = [Int64](repeating: 0, count: n)
        } else {
            // Only what the type's classification writes and its readers read: strings and
            // booleans keep no numbers, and nothing reads a row that is not valid.
            let numeric = type != .string && type != .boolean
            state = [UInt8](repeating: 0, count: n)
            numbers = [Double](repeating: 0, count: numeric ? n : 0)
            ints = [Int64](repeating: 0, count: numeric ? n : 0)
        }
        chunk.bytes.withUnsafeBufferPointer { bytes in
            TypedParse.classify(type, cells, bytes, wide[a] ? excluded : inactive, &state, &numbers, &ints)
        }
        return finish(a, TypedColumn(type: type, state: state, numbers: numbers, ints: ints, cells: cells))
    }

    /// Applies the storage-class rule, keeps a retained column and counts the parse.
    private func finish(_ a: Int, _ column: TypedColumn) -> TypedColumn {
        var c = column
        StorageClass.restrict(c.type, c.cells, &c.state, storageClasses: chunk.storageClasses)
        if retained[a] { columns[a] = c }
        parses[a] += 1
        return c
    }

    /// Hands back the buffers of a column that is not retained, once its reader is done
    /// with it (and holds no other copy), for the next such column.
    func recycle(_ column: TypedColumn, of a: Int) {
        guard !retained[a], column.numbers.count == column.state.count else { return }
        scratch = (column.state, column.numbers, column.ints)
    }

    /// The state of attribute `a` with the rows of `mask` set to ``ChunkEvaluator/Classified/skip``:
    /// what classifying only the rows outside `mask` gives (the values of those rows are the same).
    /// - Complexity: O(rows); no copy when the column was classified on the same rows.
    func state(_ a: Int, masking mask: [Bool]) -> [UInt8] {
        var state = column(a).state
        if wide[a] ? mask == excluded : mask == inactive { return state }
        for r in 0 ..< min(state.count, mask.count) where mask[r] { state[r] = TypedParse.Classified.skip }
        return state
    }

    /// The typed columns of the attributes that hooks read, by chunk column (what
    /// ``RecordView`` reads typed values from), classifying those not yet classified.
    func hookColumns() -> [Int: any TypedValues] {
        var out = [Int: any TypedValues]()
        for name in entity.hooks.attributesRead {
            guard let a = entity.plan.attributes.firstIndex(where: { $0.name == name }), entity.columns[a] >= 0,
                  entity.layout.fields[name]?.column == entity.columns[a] else { continue }
            out[entity.columns[a]] = column(a)
        }
        return out
    }
}

extension TypedColumn: TypedValues {
    /// The typed value of a valid row from the classification's parsed values; the exact
    /// reading of a decimal with more digits than ``numbers`` keeps is parsed (rare).
    func lookup(_ row: Int, as type: ValueType, in chunk: RecordChunk) -> TypedLookup {
        // A string reads every stored value as itself or its canonical text: nothing to parse.
        guard type == self.type, type != .string, row >= 0, row < state.count else { return .unknown }
        switch state[row] {
        case TypedParse.Classified.valid: break
        case TypedParse.Classified.missing, TypedParse.Classified.invalid: return .notOfType
        default: return .unknown        // a row the classification skipped
        }
        let cell = cells[row]
        switch type {
        case .integer:
            return .typed(.integer(ints[row]))
        case .decimal:
            if !numbers[row].isNaN { return .typed(.decimal(numbers[row])) }
            switch cell.tag {
            case .integer: return .typed(.decimal(Double(cell.integerValue)))
            case .real: return .typed(.decimal(cell.realValue))
            default: return .unknown    // more than 15 significant digits: parse the text
            }
        case .boolean:
            if cell.tag == .integer { return .typed(.boolean(cell.integerValue == 1)) }
            // classify accepted it: the text is exactly "true" or "false".
            let first = Int(cell.payload) < chunk.bytes.count ? chunk.bytes[Int(cell.payload)] : 0
            return .typed(.boolean(first == UInt8(ascii: "t")))
        case .date:
            return .typed(.date(days: Int(numbers[row])))
        case .datetime:
            return .typed(.datetime(seconds: Int64(numbers[row])))
        case .string:
            return .unknown
        }
    }
}
