import Auditor

/// The `jsonl:` option block of a source.
///
/// ```yaml
/// jsonl:
///   fields:
///     city: address.city                 # a key of a nested object
///     tags: { path: tags, as: list }      # an array, for list constraints
///     address: { path: address, as: map } # an object, for map constraints
/// ```
/// A field the rules need that `fields:` does not map reads the top-level key of its own
/// name. A path is keys separated by `.`. The reader turns arrays and objects into lists and
/// maps whatever `as:` says, so list and map constraints apply to any field; `as:` tells the
/// rules compiler what the value must be: `as: value` refuses them before the run, `as: list`
/// refuses map constraints, `as: map` list constraints.
@_spi(Testing) public struct JSONLOptions: ReaderOptions, Sendable, Hashable {
    /// How one field is read.
    public struct Field: Sendable, Hashable {
        /// What the value is expected to be, for the rules compiler.
        public enum Kind: String, Sendable, CaseIterable {
            case value, list, map
        }

        /// The keys from the record object down to the value.
        public var path: [String]
        /// What `as:` says; nil when it says nothing (each line's value decides).
        public var kind: Kind?

        public init(path: [String], kind: Kind? = nil) {
            self.path = path
            self.kind = kind
        }
    }

    /// Field name → where its value is. Unmapped fields read the top-level key of their name.
    public var fields: [String: Field]

    public init(fields: [String: Field] = [:]) {
        self.fields = fields
    }

    static let keys = ["fields"]
    static let fieldKeys = ["path", "as"]

    /// The fields whose `as:` declares a shape (`value` a scalar); the others are what each
    /// line's value is: an array a list, an object a map, anything else a scalar.
    public var fieldShapes: [String: FieldShape] {
        var shapes = [String: FieldShape]()
        for (name, field) in fields {
            switch field.kind {
            case nil: break
            case .value?: shapes[name] = .scalar
            case .list?: shapes[name] = .list
            case .map?: shapes[name] = .map
            }
        }
        return shapes
    }

    /// The key path of a field: its mapping, or its own name.
    func path(of name: String) -> [String] {
        fields[name]?.path ?? [name]
    }

    /// Decodes a `jsonl:` block, collecting every problem as a diagnostic located in the
    /// rules file (unknown keys get a did-you-mean).
    /// - Returns: The options when there is no problem, and the diagnostics.
    public static func decode(_ node: ConfigNode) -> (options: JSONLOptions?, diagnostics: [Diagnostic]) {
        var diagnostics = [Diagnostic]()
        let block: ConfigMapping
        do {
            block = try node.mapping("the jsonl block")
        } catch {
            return (nil, [error])
        }
        diagnostics += block.unknownKeys(allowed: keys, context: "the jsonl block")
        var fields = [String: Field]()
        if let f = block["fields"], !f.isNull {
            do {
                let map = try f.mapping("jsonl.fields")
                diagnostics += map.unknownKeys(allowed: map.keys, context: "jsonl.fields")
                for (key, value) in map.pairs {
                    guard let name = key.scalar else { continue }
                    let (field, problems) = decodeField(name, value)
                    diagnostics += problems
                    if let field { fields[name] = field }
                }
            } catch {
                diagnostics.append(error)
            }
        }
        return diagnostics.isEmpty ? (JSONLOptions(fields: fields), []) : (nil, diagnostics)
    }

    static func decodeField(_ name: String, _ node: ConfigNode) -> (Field?, [Diagnostic]) {
        var diagnostics = [Diagnostic]()
        var pathNode = node
        var kind: Field.Kind?
        if case .mapping = node.kind {
            guard let map = try? node.mapping("jsonl.fields.\(name)") else { return (nil, []) }
            diagnostics += map.unknownKeys(allowed: fieldKeys, context: "jsonl.fields.\(name)")
            guard let p = map["path"] else {
                diagnostics.append(node.error("jsonl.fields.\(name) needs 'path:' (e.g. 'path: address.city')"))
                return (nil, diagnostics)
            }
            pathNode = p
            if let k = map["as"] {
                if let s = k.scalar, let parsed = Field.Kind(rawValue: s) {
                    kind = parsed
                } else {
                    let all = Field.Kind.allCases.map(\.rawValue)
                    var message = "'as' must be one of \(all.joined(separator: ", ")); got \(k.describe)"
                    if let s = k.scalar, let suggestion = Suggest.closest(to: s, in: all) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    diagnostics.append(k.error(message))
                }
            }
        }
        let text: String
        do {
            text = try pathNode.string("the path of field '\(name)'")
        } catch {
            diagnostics.append(error)
            return (nil, diagnostics)
        }
        let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if keys.contains("") {
            diagnostics.append(pathNode.error("the path '\(text)' of field '\(name)' has an empty key; write keys separated by single dots, e.g. 'address.city'"))
        }
        return diagnostics.isEmpty ? (Field(path: keys, kind: kind), []) : (nil, diagnostics)
    }
}
