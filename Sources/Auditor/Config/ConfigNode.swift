/// A parsed YAML node that remembers where it was written, independent of the YAML library,
/// so that readers (and third-party readers) can decode their own option blocks and point
/// their errors at the rules file.
public struct ConfigNode: Sendable {
    public enum Kind: Sendable {
        /// A scalar and whether it was quoted (a quoted `"true"` is a string, not a boolean).
        case scalar(String, quoted: Bool)
        case sequence([ConfigNode])
        case mapping([(key: ConfigNode, value: ConfigNode)])
    }

    public var kind: Kind
    /// Where the node starts; for a block scalar (`|`, `>`), where its text starts.
    public var mark: ConfigMark
    /// How a scalar was written.
    public var style: ScalarStyle = .plain
    /// The source line a single-line scalar is written on (to map offsets in its value back
    /// to columns, see ``column(ofOffset:)``).
    public var sourceLine: String?

    public enum ScalarStyle: Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public init(_ kind: Kind, mark: ConfigMark) {
        self.kind = kind
        self.mark = mark
    }

    /// The column of the character at `offset` (in Unicode scalars) of this scalar's value,
    /// following escapes of quoted scalars; the node's own column when unknown.
    public func column(ofOffset offset: Int) -> Int {
        guard case .scalar(let value, _) = kind, !value.contains("\n"), let line = sourceLine else { return mark.column }
        let raw = Array(line.unicodeScalars)
        var i = mark.column - 1                 // index of the node's first character
        switch style {
        case .plain, .literal, .folded:
            return mark.column + offset
        case .singleQuoted, .doubleQuoted:
            i += 1                              // the opening quote
        }
        var consumed = 0
        while consumed < offset, i < raw.count {
            if style == .singleQuoted, raw[i] == "'", i + 1 < raw.count, raw[i + 1] == "'" {
                i += 2
            } else if style == .doubleQuoted, raw[i] == "\\", i + 1 < raw.count {
                switch raw[i + 1] {
                case "x": i += 4
                case "u": i += 6
                case "U": i += 10
                default: i += 2
                }
            } else {
                i += 1
            }
            consumed += 1
        }
        return i + 1
    }

    /// A short name of this node's kind for messages.
    public var kindName: String {
        switch kind {
        case .scalar: return "a scalar"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// The scalar text, or `nil` for lists and mappings.
    public var scalar: String? {
        if case .scalar(let s, _) = kind { return s }
        return nil
    }

    /// True for an unquoted `null`, `~` or empty scalar.
    public var isNull: Bool {
        if case .scalar(let s, let quoted) = kind, !quoted {
            return s.isEmpty || s == "~" || s == "null" || s == "Null" || s == "NULL"
        }
        return false
    }
}

// MARK: - Typed access with located errors

extension ConfigNode {
    /// A diagnostic located at this node.
    public func error(_ message: String) -> Diagnostic {
        Diagnostic(mark: mark, message: message)
    }

    public func string(_ what: String) throws(Diagnostic) -> String {
        guard case .scalar(let s, _) = kind else { throw error("\(what) must be a string, not \(kindName)") }
        return s
    }

    public func bool(_ what: String) throws(Diagnostic) -> Bool {
        if case .scalar(let s, let quoted) = kind, !quoted {
            switch s {
            case "true", "True", "TRUE", "yes", "Yes": return true
            case "false", "False", "FALSE", "no", "No": return false
            default: break
            }
        }
        throw error("\(what) must be true or false; got \(describe)")
    }

    public func int(_ what: String) throws(Diagnostic) -> Int {
        if case .scalar(let s, let quoted) = kind, !quoted, let v = Int(s) { return v }
        throw error("\(what) must be an integer; got \(describe)")
    }

    public func double(_ what: String) throws(Diagnostic) -> Double {
        if case .scalar(let s, let quoted) = kind, !quoted, let v = Double(s), v.isFinite { return v }
        throw error("\(what) must be a number; got \(describe)")
    }

    public func sequence(_ what: String) throws(Diagnostic) -> [ConfigNode] {
        guard case .sequence(let items) = kind else { throw error("\(what) must be a list, not \(kindName)") }
        return items
    }

    /// The node's items if it is a list, or the node itself as a one-element list.
    public func sequenceOrSingle() -> [ConfigNode] {
        if case .sequence(let items) = kind { return items }
        return [self]
    }

    public func mapping(_ what: String) throws(Diagnostic) -> ConfigMapping {
        guard case .mapping(let pairs) = kind else { throw error("\(what) must be a mapping, not \(kindName)") }
        return ConfigMapping(node: self, pairs: pairs)
    }

    /// The value quoted for a message: `'abc'` or "a list".
    public var describe: String {
        if case .scalar(let s, _) = kind { return "'\(s)'" }
        return kindName
    }
}

/// A mapping being decoded: look up known keys, then call `finish(allowed:)` to reject
/// the unknown ones with a suggestion.
public struct ConfigMapping: Sendable {
    public let node: ConfigNode
    public let pairs: [(key: ConfigNode, value: ConfigNode)]

    public init(node: ConfigNode, pairs: [(key: ConfigNode, value: ConfigNode)]) {
        self.node = node
        self.pairs = pairs
    }

    /// The keys in file order.
    public var keys: [String] { pairs.compactMap { $0.key.scalar } }

    public subscript(_ key: String) -> ConfigNode? {
        pairs.first { $0.key.scalar == key }?.value
    }

    /// The node of a key (for locating errors about the key itself).
    public func keyNode(_ key: String) -> ConfigNode? {
        pairs.first { $0.key.scalar == key }?.key
    }

    /// Diagnostics for every key not in `allowed`, each with a did-you-mean suggestion.
    public func unknownKeys(allowed: [String], context: String) -> [Diagnostic] {
        var result = [Diagnostic]()
        var seen = Set<String>()
        for (key, _) in pairs {
            guard let name = key.scalar else {
                result.append(key.error("keys in \(context) must be strings"))
                continue
            }
            if !seen.insert(name).inserted {
                result.append(key.error("duplicate key '\(name)' in \(context)"))
                continue
            }
            if !allowed.contains(name) {
                var message = "unknown key '\(name)' in \(context)"
                if let s = Suggest.closest(to: name, in: allowed) {
                    message += "; did you mean '\(s)'?"
                } else {
                    message += " (expected one of: \(allowed.joined(separator: ", ")))"
                }
                result.append(key.error(message))
            }
        }
        return result
    }
}
