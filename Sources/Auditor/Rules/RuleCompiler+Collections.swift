/// List and map constraints on fields that are neither (issue 13 §1): a rules-file mistake,
/// not one "must be a list" finding per record.
extension RuleCompiler {
    /// The constraint kinds that apply to lists only.
    static let listKinds: Set<ConstraintKind> = [.each, .uniqueItems]
    /// The constraint kinds that apply to lists and maps (a map's number of entries).
    static let countKinds: Set<ConstraintKind> = [.minCount, .maxCount]
    /// The constraint kinds that apply to maps only.
    static let mapKinds: Set<ConstraintKind> = [.keys, .requiredKeys, .allowedKeys, .eachKey, .eachValue, .pairs]

    /// Checks that every list constraint is on a list and every map constraint on a map.
    /// - Parameters:
    ///   - spec: The parsed rules file.
    ///   - shapes: The shapes a source's options or schema give its fields (``ReaderOptions/fieldShapes``,
    ///     ``ReaderFactory/schemaShapes``); a field it does not name is a scalar unless its
    ///     attribute has `split:` (a list; a map with `keySeparator:`). Nil: not known before
    ///     the run (a Parquet file not there yet), and the source's constraints are not checked.
    ///   - schema: The format whose file schema gave the source's shapes (`Parquet`), if any: its
    ///     columns are what they are, so the message does not tell how to declare them otherwise.
    ///   - open: Whether a field that `shapes` does not name may be a list or a map (JSON Lines,
    ///     whose values carry their own shape): its constraints are then checked on each value
    ///     in the run ("must be a list"), not refused here, since the data decides.
    /// - Returns: One diagnostic per misplaced constraint, located at the constraint, saying
    ///   how to make the field a list or a map.
    package static func collectionDiagnostics(_ spec: RulesSpec, schema: (SourceSpec) -> String? = { _ in nil },
                                             open: (SourceSpec) -> Bool = { _ in false },
                                             shapes: (SourceSpec) -> [String: FieldShape]?) -> [Diagnostic] {
        var d = [Diagnostic]()
        for e in spec.entities {
            let source = spec.sources.first { $0.name == e.source }
            guard let known = source.map(shapes) ?? [:] else { continue }
            let format = source.flatMap(schema)
            let undeclared: FieldShape? = source.map(open) == true ? nil : .scalar
            for a in e.attributes {
                guard let shape = a.split == nil ? known[a.name] ?? undeclared : a.keySeparator == nil ? FieldShape.list : .map else { continue }
                for c in a.constraints {
                    let fits = countKinds.contains(c.kind) ? shape != .scalar : listKinds.contains(c.kind) ? shape == .list
                        : mapKinds.contains(c.kind) ? shape == .map : true
                    if let format, a.split == nil, !fits {
                        // A column of the file's schema: nothing to declare otherwise.
                        let wanted = mapKinds.contains(c.kind) ? "a map" : countKinds.contains(c.kind) ? "a list or a map" : "a list"
                        let what = known[a.name] == nil ? "no column of the \(format) file"
                            : shape == .list ? "a LIST column of the \(format) file" : shape == .map ? "a MAP column of the \(format) file"
                            : "a column of the \(format) file that is neither a LIST nor a MAP"
                        d.append(Diagnostic(mark: c.mark, message: "'\(c.kind.rawValue)' applies to \(wanted), but '\(a.name)' is \(what); "
                            + "remove '\(c.kind.rawValue)' from '\(a.name)'"))
                        continue
                    }
                    if countKinds.contains(c.kind), shape == .scalar {
                        d.append(Diagnostic(mark: c.mark, message: listMessage(c.kind, a.name, shape)
                            + ", or a map: 'fields: { \(a.name): { path: ..., as: map } }'"))
                    } else if listKinds.contains(c.kind), shape != .list {
                        d.append(Diagnostic(mark: c.mark, message: listMessage(c.kind, a.name, shape)))
                    } else if mapKinds.contains(c.kind), shape != .map {
                        d.append(Diagnostic(mark: c.mark, message: mapMessage(c.kind, a.name, shape)))
                    }
                }
            }
        }
        return d
    }

    private static func listMessage(_ kind: ConstraintKind, _ name: String, _ shape: FieldShape) -> String {
        let what = shape == .map ? "a map (as: map)" : "a single value"
        return "'\(kind.rawValue)' applies to a list, but '\(name)' is \(what); make it a list: add 'split: \";\"' "
            + "to '\(name)' (text of separated items), or in the source's xml or jsonl block read it "
            + "'fields: { \(name): { path: ..., as: list } }'"
    }

    private static func mapMessage(_ kind: ConstraintKind, _ name: String, _ shape: FieldShape) -> String {
        let what = shape == .list ? "a list" : "a single value"
        return "'\(kind.rawValue)' applies to a map, but '\(name)' is \(what); in the source's xml or jsonl block read it "
            + "'fields: { \(name): { path: ..., as: map } }' (an element's children, an object), add "
            + "'split: \";\", keySeparator: \"=\"' (text of key=value entries), or remove '\(kind.rawValue)'"
    }
}
