/// How the reader turns one Parquet column's values into cells.
enum ParquetValueKind: Equatable {
    case boolean            // text `true` / `false`
    case integer            // INT32/INT64 (signed INT logical types too): `.integer`
    case uint32             // INT32 read unsigned: `.integer`
    case uint64             // INT64 read unsigned: `.integer`, or its decimal text above Int64.max
    case date               // INT32 days: text `YYYY-MM-DD`
    case timestamp(unit: Int16)              // INT64: text `YYYY-MM-DDTHH:MM:SS[.f…]Z` (a local one as UTC)
    case time(unit: Int16)  // INT32/INT64: text `HH:MM:SS[.f…]`
    case decimal(scale: Int)                 // INT32/INT64/BYTE_ARRAY/FLBA: exact decimal text
    case real               // FLOAT/DOUBLE: `.real`
    case string             // BYTE_ARRAY STRING/ENUM/JSON: UTF-8 text, checked
    case binary             // BYTE_ARRAY/FLBA without a text type: `.blob`
    case uuid               // FLBA(16) UUID: text `xxxxxxxx-xxxx-…`
}

/// One primitive column of the file (a leaf of the schema tree).
struct ParquetLeaf {
    /// Its position among the leaves: its column chunk's index in every row group.
    var index: Int
    var path: [String]
    var physical: Int32
    var typeLength: Int
    var maxDefinition: Int
    var maxRepetition: Int
    var kind: ParquetValueKind
}

/// A top-level field and how its leaves become one cell per row.
struct ParquetField {
    enum Shape {
        case scalar(ParquetLeaf)
        /// A LIST (or a repeated primitive): `present` is the definition level of an empty list.
        case list(ParquetLeaf, present: Int)
        /// A MAP of keys to values: `present` is the definition level of an empty map.
        case map(key: ParquetLeaf, value: ParquetLeaf, present: Int)
        /// A column the reader cannot read, and why (refused only when a rule needs it).
        case unsupported(String)
    }
    var name: String
    var shape: Shape
}

/// Builds the top-level fields from the footer's flattened schema tree.
enum ParquetSchema {
    typealias Element = ParquetFileMetaData.SchemaElement

    private struct Node {
        var element: Element
        var children: [Node]
    }

    /// - Throws: A message when the tree itself is malformed (child counts that do not add up,
    ///   nesting deeper than 64).
    static func fields(_ elements: [Element]) throws(ParquetFailure) -> (fields: [ParquetField], leafCount: Int) {
        guard let root = elements.first else { throw ParquetFailure("the file's schema is empty") }
        var next = 1
        let tree = try node(root, elements, &next, depth: 0)
        guard next == elements.count else { throw ParquetFailure("the file's schema has elements outside its tree") }
        var leaf = 0
        var fields = [ParquetField]()
        for child in tree.children {
            fields.append(field(child, &leaf))
        }
        return (fields, leaf)
    }

    private static func node(_ e: Element, _ all: [Element], _ next: inout Int, depth: Int) throws(ParquetFailure) -> Node {
        guard depth < 64 else { throw ParquetFailure("the file's schema is nested deeper than 64 levels") }
        let count = Int(e.numChildren ?? 0)
        guard count >= 0, count <= all.count - next else {
            throw ParquetFailure("schema element '\(e.name)' claims \(count) children, more than the schema has")
        }
        var children = [Node]()
        for _ in 0 ..< count {
            let child = all[next]
            next += 1
            children.append(try node(child, all, &next, depth: depth + 1))
        }
        return Node(element: e, children: children)
    }

    private static func leafCount(_ n: Node) -> Int {
        n.children.isEmpty ? 1 : n.children.reduce(0) { $0 + leafCount($1) }
    }

    private static func repetition(_ n: Node) -> Int32 { n.element.repetition ?? 0 }

    /// The field for a top-level node; advances `leaf` past all its leaves.
    private static func field(_ n: Node, _ leaf: inout Int) -> ParquetField {
        let first = leaf
        leaf += leafCount(n)
        let name = n.element.name
        let optional = repetition(n) == 1
        let def = optional ? 1 : 0
        let logical = n.element.logical?.id
        let converted = n.element.convertedType
        if n.children.isEmpty {
            if repetition(n) == 2 {   // a repeated primitive: a list of required elements
                return ParquetField(name: name, shape: shaped(n, [name], index: first, def: 1, rep: 1) { .list($0, present: 0) })
            }
            return ParquetField(name: name, shape: shaped(n, [name], index: first, def: def, rep: 0) { .scalar($0) })
        }
        if logical == 3 || converted == 3 {
            guard n.children.count == 1, repetition(n.children[0]) == 2 else {
                return ParquetField(name: name, shape: .unsupported("a LIST whose layout is not a repeated group of one element"))
            }
            let repeated = n.children[0]
            if repeated.children.isEmpty {   // two-level list
                return ParquetField(name: name, shape: shaped(repeated, [name, repeated.element.name], index: first,
                                                              def: def + 1, rep: 1) { .list($0, present: def) })
            }
            guard repeated.children.count == 1, repeated.children[0].children.isEmpty,
                  repeated.element.name != "array", repeated.element.name != name + "_tuple" else {
                return ParquetField(name: name, shape: .unsupported("a LIST of groups (lists, maps or structs)"))
            }
            let element = repeated.children[0]
            let elementDef = def + 1 + (repetition(element) == 1 ? 1 : 0)
            return ParquetField(name: name, shape: shaped(element, [name, repeated.element.name, element.element.name],
                                                          index: first, def: elementDef, rep: 1) { .list($0, present: def) })
        }
        if logical == 2 || converted == 1 || converted == 2 {
            guard n.children.count == 1, repetition(n.children[0]) == 2, n.children[0].children.count == 2,
                  n.children[0].children.allSatisfy(\.children.isEmpty) else {
                return ParquetField(name: name, shape: .unsupported("a MAP whose values are groups (lists, maps or structs)"))
            }
            let kv = n.children[0]
            let k = kv.children[0], v = kv.children[1]
            let keyLeaf = leafFor(k, [name, kv.element.name, k.element.name], index: first,
                                  def: def + 1 + (repetition(k) == 1 ? 1 : 0), rep: 1)
            let valueLeaf = leafFor(v, [name, kv.element.name, v.element.name], index: first + 1,
                                    def: def + 1 + (repetition(v) == 1 ? 1 : 0), rep: 1)
            switch (keyLeaf, valueLeaf) {
            case (.success(let key), .success(let value)):
                guard key.kind == .string else {
                    return ParquetField(name: name, shape: .unsupported("a MAP whose keys are not strings"))
                }
                return ParquetField(name: name, shape: .map(key: key, value: value, present: def))
            case (.failure(let f), _), (_, .failure(let f)):
                return ParquetField(name: name, shape: .unsupported(f.message))
            }
        }
        return ParquetField(name: name, shape: .unsupported("a group (struct) of \(n.children.count) fields"))
    }

    private static func shaped(_ n: Node, _ path: [String], index: Int, def: Int, rep: Int,
                               _ make: (ParquetLeaf) -> ParquetField.Shape) -> ParquetField.Shape {
        switch leafFor(n, path, index: index, def: def, rep: rep) {
        case .success(let leaf): return make(leaf)
        case .failure(let f): return .unsupported(f.message)
        }
    }

    private static func leafFor(_ n: Node, _ path: [String], index: Int, def: Int, rep: Int) -> Result<ParquetLeaf, ParquetFailure> {
        guard !n.children.isEmpty || n.element.type != nil else { return .failure(ParquetFailure("a primitive without a type")) }
        guard n.children.isEmpty, let physical = n.element.type else {
            return .failure(ParquetFailure("a nested group"))
        }
        switch kind(n.element, physical: physical) {
        case .success(let kind):
            return .success(ParquetLeaf(index: index, path: path, physical: physical, typeLength: Int(n.element.typeLength ?? 0),
                                        maxDefinition: def, maxRepetition: rep, kind: kind))
        case .failure(let f): return .failure(f)
        }
    }

    /// The cell kind for a primitive's physical, logical and converted types.
    static func kind(_ e: Element, physical: Int32) -> Result<ParquetValueKind, ParquetFailure> {
        let names = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"]
        let typeName = physical >= 0 && Int(physical) < names.count ? names[Int(physical)] : "physical type \(physical)"
        func refuse(_ what: String) -> Result<ParquetValueKind, ParquetFailure> { .failure(ParquetFailure("\(what) (\(typeName))")) }
        let logical = e.logical
        let converted = e.convertedType
        let isInt = physical == 1 || physical == 2
        if let l = logical {
            switch l.id {
            case 1, 4, 12: return physical == 6 ? .success(.string) : refuse("a text logical type on a non-BYTE_ARRAY column")
            case 5:
                guard isInt || physical == 6 || physical == 7 else { return refuse("a DECIMAL") }
                return .success(.decimal(scale: Int(l.scale)))
            case 6: return physical == 1 ? .success(.date) : refuse("a DATE not stored as INT32")
            case 7: return isInt ? .success(.time(unit: l.unit)) : refuse("a TIME")
            case 8: return physical == 2 ? .success(.timestamp(unit: l.unit)) : refuse("a TIMESTAMP")
            case 10:
                guard isInt else { return refuse("an INTEGER logical type") }
                if l.signed { return .success(.integer) }
                return .success(physical == 1 ? .uint32 : .uint64)
            case 14: return physical == 7 && e.typeLength == 16 ? .success(.uuid) : refuse("a UUID")
            case 13: return physical == 6 ? .success(.binary) : refuse("a BSON")
            case 15: return refuse("a FLOAT16 (half-precision) value")
            case 11: break     // UNKNOWN: always null; read by its physical type
            default: return refuse("logical type \(l.id)")
            }
        } else if let c = converted {
            switch c {
            case 0, 4, 19: return physical == 6 ? .success(.string) : refuse("a UTF8 converted type on a non-BYTE_ARRAY column")
            case 5:
                guard isInt || physical == 6 || physical == 7 else { return refuse("a DECIMAL") }
                return .success(.decimal(scale: Int(e.scale ?? 0)))
            case 6: return physical == 1 ? .success(.date) : refuse("a DATE")
            case 7: return physical == 1 ? .success(.time(unit: 1)) : refuse("a TIME_MILLIS")
            case 8: return physical == 2 ? .success(.time(unit: 2)) : refuse("a TIME_MICROS")
            case 9: return physical == 2 ? .success(.timestamp(unit: 1)) : refuse("a TIMESTAMP_MILLIS")
            case 10: return physical == 2 ? .success(.timestamp(unit: 2)) : refuse("a TIMESTAMP_MICROS")
            case 11, 12, 13: return physical == 1 ? .success(.uint32) : refuse("an unsigned integer")
            case 14: return physical == 2 ? .success(.uint64) : refuse("an unsigned integer")
            case 15, 16, 17, 18: return isInt ? .success(.integer) : refuse("an integer")
            case 20: return physical == 6 ? .success(.binary) : refuse("a BSON")
            default: return refuse("converted type \(c) (INTERVAL or another type auditor does not read)")
            }
        }
        switch physical {
        case 0: return .success(.boolean)
        case 1, 2: return .success(.integer)
        case 3: return refuse("an INT96 timestamp (deprecated; write timestamps as INT64)")
        case 4, 5: return .success(.real)
        case 6, 7: return .success(.binary)
        default: return refuse("an unknown physical type")
        }
    }
}

/// A decoding problem, located later by the reader (column, row group, page).
struct ParquetFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
