import Auditor

/// One field's cells for the rows of a chunk, with their own text bytes and composites
/// (moved into the chunk by ``shift(bytes:composites:)`` then concatenation).
struct ParquetColumnOutput {
    enum Result {
        case success(ParquetColumnOutput)
        case failure(String)
    }

    var cells: [Cell] = []
    var bytes: [UInt8] = []
    var composites: [Composite] = []

    /// Decodes `rows` rows of a field from its cursors (one, or key and value for a map).
    static func decode(_ field: ParquetField, _ cursors: [ParquetColumnCursor], rows: Int) -> Result {
        var out = ParquetColumnOutput()
        out.cells.reserveCapacity(rows)
        do {
            switch field.shape {
            case .scalar:
                try out.scalars(cursors[0], rows: rows)
            case .list(_, let present):
                for _ in 0 ..< rows { try out.list(cursors[0], present: present) }
            case .map(_, _, let present):
                for _ in 0 ..< rows { try out.map(cursors[0], cursors[1], present: present) }
            case .unsupported(let why):
                return .failure(why)
            }
        } catch {
            let c = cursors.first
            let at = c.map { " (row group \($0.rowGroup), page from row \($0.rowsBefore))" } ?? ""
            return .failure(error.message + at)
        }
        return .success(out)
    }

    private static func ended(_ c: ParquetColumnCursor) -> ParquetFailure {
        ParquetFailure("the column holds fewer rows than its row group declares")
    }

    private mutating func scalars(_ c: ParquetColumnCursor, rows: Int) throws(ParquetFailure) {
        var r = 0
        let kind = c.leaf.kind
        while r < rows {
            guard try c.hasEntry() else { throw Self.ended(c) }
            let k = min(rows - r, c.entries - c.entry)
            let values = c.values
            for _ in 0 ..< k {
                if let j = c.advance() {
                    cells.append(ParquetCells.cell(kind, values, j, &bytes))
                } else {
                    cells.append(.missing)
                }
            }
            r += k
        }
    }

    private mutating func list(_ c: ParquetColumnCursor, present: Int) throws(ParquetFailure) {
        guard try c.hasEntry() else { throw Self.ended(c) }
        guard c.repetition == 0 else { throw ParquetFailure("a list continues where a row should start") }
        if c.definition < present {
            _ = c.advance()
            cells.append(.missing)
            return
        }
        var items = [Cell]()
        repeat {
            let def = c.definition
            let values = c.values
            if let j = c.advance() {
                items.append(ParquetCells.cell(c.leaf.kind, values, j, &bytes))
            } else if def > present {
                items.append(.missing)
            } else if !items.isEmpty || def < present {
                throw ParquetFailure("an empty or null list has more than one entry")
            }
        } while try c.hasEntry() && c.repetition > 0
        composites.append(.list(items))
        cells.append(Cell(tag: .list, payload: Int64(composites.count - 1)))
    }

    private mutating func map(_ k: ParquetColumnCursor, _ v: ParquetColumnCursor, present: Int) throws(ParquetFailure) {
        guard try k.hasEntry(), try v.hasEntry() else { throw Self.ended(k) }
        guard k.repetition == 0, v.repetition == 0 else { throw ParquetFailure("a map continues where a row should start") }
        if k.definition < present {
            _ = k.advance()
            _ = v.advance()
            cells.append(.missing)
            return
        }
        var entries = [Composite.MapEntry]()
        repeat {
            let def = k.definition
            let keys = k.values, values = v.values
            let keyIndex = k.advance()
            let valueIndex = v.advance()
            if let keyIndex {
                let a = keys.offsets[keyIndex], b = keys.offsets[keyIndex + 1]
                let key = String(decoding: keys.data[a ..< b], as: UTF8.self)
                let cell = valueIndex.map { ParquetCells.cell(v.leaf.kind, values, $0, &bytes) } ?? .missing
                entries.append(Composite.MapEntry(key: key, value: cell))
            } else if def > present {
                throw ParquetFailure("a MAP key is null")
            }
            guard try v.hasEntry() == (try k.hasEntry()) else { throw ParquetFailure("a MAP's keys and values differ in number") }
        } while try k.hasEntry() && k.repetition > 0
        composites.append(.map(entries))
        cells.append(Cell(tag: .map, payload: Int64(composites.count - 1)))
    }

    /// Moves text offsets by `bytes` and composite indexes by `composites` (for concatenation).
    mutating func shift(bytes base: Int, composites compositeBase: Int) {
        guard base != 0 || compositeBase != 0 else { return }
        func moved(_ c: Cell) -> Cell {
            var c = c
            switch c.tag {
            case .text, .blob: c.payload += Int64(base)
            case .list, .map: c.payload += Int64(compositeBase)
            default: break
            }
            return c
        }
        for i in cells.indices { cells[i] = moved(cells[i]) }
        if base != 0 {
            for i in composites.indices {
                switch composites[i] {
                case .list(let items): composites[i] = .list(items.map(moved))
                case .map(let entries):
                    composites[i] = .map(entries.map { Composite.MapEntry(key: $0.key, value: moved($0.value)) })
                }
            }
        }
    }
}
