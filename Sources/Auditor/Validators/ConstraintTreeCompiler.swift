/// Turns a YAML constraint tree into a ``Validator``, reporting every mistake as a
/// ``Diagnostic`` located in the rules file.
///
/// ```yaml
/// anyOf: [ { pattern: "[0-9]{5}" }, { enum: [n/a, unknown] } ]
/// each: { type: string, maxLength: 10 }
/// keys: { zip: { pattern: "[0-9]{5}" } }
/// eachKey: { pattern: "[a-z_]+" }
/// pairs: [ { keyPattern: "tel_.*", value: { pattern: "\\+?[0-9 ]+" } } ]
/// not: { enum: [x] }
/// ```
///
/// A constraint mapping may hold any of ``keys``; its parts must all hold (``AllOf``), in
/// the order written: `type`; the number checks `min max exclusiveMin exclusiveMax integral`
/// (and `enum` when the type is a number) as one ``NumberValidator``; the text checks
/// `minLength maxLength pattern enum` as one ``StringValidator``; `allOf anyOf oneOf not`;
/// the list checks `minCount maxCount each uniqueItems` as one ``CollectionValidator``; the
/// map checks `keys requiredKeys allowedKeys eachKey eachValue pairs` as one
/// ``KeyedCollectionValidator`` (`minCount`/`maxCount` count a map's entries too). With a
/// `type`, a value that is not of the type gets only the type violation. Where a mapping is
/// expected, a type name stands for `{ type: name }` (`each: string`, `anyOf: [integer, ...]`).
///
/// The type given to the compiler (the attribute's) applies to `allOf`/`anyOf`/`oneOf`/`not`
/// alternatives, which check the same value; `each` and `keys` check other values and start
/// without a type.
public struct ConstraintTreeCompiler: Sendable {
    /// Every key of a constraint mapping.
    public static let keys = ["type", "minLength", "maxLength", "pattern", "enum", "min", "max", "exclusiveMin",
                              "exclusiveMax", "integral", "allOf", "anyOf", "oneOf", "not", "minCount", "maxCount",
                              "each", "uniqueItems", "keys", "requiredKeys", "allowedKeys", "eachKey", "eachValue",
                              "pairs"]
    /// The keys an attribute takes besides its own constraints (the compound, list and map keys).
    public static let attributeKeys = ["allOf", "anyOf", "oneOf", "not", "minCount", "maxCount", "each",
                                       "uniqueItems", "keys", "requiredKeys", "allowedKeys", "eachKey", "eachValue", "pairs"]

    static let numberKeys: Set<String> = ["min", "max", "exclusiveMin", "exclusiveMax", "integral"]
    static let textKeys: Set<String> = ["minLength", "maxLength", "pattern"]
    static let listKeys: Set<String> = ["minCount", "maxCount", "each", "uniqueItems"]
    static let mapKeys: Set<String> = ["keys", "requiredKeys", "allowedKeys", "eachKey", "eachValue", "pairs"]

    public init() {}

    /// Compiles a constraint mapping (or a type name standing for `{ type: name }`).
    /// - Parameters:
    ///   - node: The mapping.
    ///   - type: The type of the value it constrains, if known (an attribute's type).
    ///   - context: How diagnostics name the mapping: `attribute 'phones'`, `'each'`.
    ///   - diagnostics: Every mistake is appended here.
    /// - Returns: The validator, or `nil` when the tree has mistakes.
    public func compile(_ node: ConfigNode, type: ValueType? = nil, context: String = "constraints",
                        into diagnostics: inout [Diagnostic]) -> (any Validator)? {
        let before = diagnostics.count
        let result = tree(node, type: type, context: context, &diagnostics)
        return diagnostics.count == before ? result : nil
    }

    /// Compiles the compound, list and map keys of an attribute's mapping (``attributeKeys``;
    /// the others are left to the rule compiler), as one validator.
    /// - Returns: `nil` when the mapping has none of those keys, or when they have mistakes.
    public func compile(attribute name: String, type: ValueType, mapping: ConfigMapping,
                        into diagnostics: inout [Diagnostic]) -> (any Validator)? {
        let pairs = mapping.pairs.filter { Self.attributeKeys.contains($0.key.scalar ?? "") }
        guard !pairs.isEmpty else { return nil }
        let node = ConfigNode(.mapping(pairs), mark: mapping.node.mark)
        return compile(node, type: type, context: "attribute '\(name)'", into: &diagnostics)
    }

    /// Compiles one key of a constraint mapping on its own (`minCount: 1`, `each: {...}`),
    /// for callers that make each key a rule of its own.
    /// - Parameters:
    ///   - key: One of ``keys``.
    ///   - value: Its value node.
    ///   - type: The type of the constrained value, if known.
    ///   - keyNode: The key's node, to locate an unknown key.
    ///   - diagnostics: Receives every mistake, located in the rules file.
    /// - Returns: The validator, or `nil` with diagnostics.
    public func compile(key: String, value: ConfigNode, type: ValueType? = nil, keyNode: ConfigNode? = nil,
                        into diagnostics: inout [Diagnostic]) -> (any Validator)? {
        let k = keyNode ?? ConfigNode(.scalar(key, quoted: false), mark: value.mark)
        return compile(ConfigNode(.mapping([(k, value)]), mark: k.mark), type: type, into: &diagnostics)
    }

    func tree(_ node: ConfigNode, type: ValueType?, context: String, _ d: inout [Diagnostic]) -> (any Validator)? {
        if case .scalar(let s, _) = node.kind {
            if let t = ValueType(rawValue: s) { return TypeValidator(t) }
            var m = "\(context) must be a mapping of constraints or a type name; got \(node.describe)"
            if let t = Suggest.closest(to: s, in: ValueType.allCases.map(\.rawValue)) { m += "; did you mean '\(t)'?" }
            d.append(node.error(m))
            return nil
        }
        let map: ConfigMapping
        do { map = try node.mapping(context) } catch {
            d.append(error)
            return nil
        }
        d += map.unknownKeys(allowed: Self.keys, context: context)
        var declared: ValueType?
        if let t = map["type"] {
            if let s = t.scalar, let vt = ValueType(rawValue: s) {
                declared = vt
            } else {
                let names = ValueType.allCases.map(\.rawValue)
                var m = "unknown type \(t.describe)"
                if let s = Suggest.closest(to: t.scalar ?? "", in: names) { m += "; did you mean '\(s)'?" } else {
                    m += " (expected one of: \(names.joined(separator: ", ")))"
                }
                d.append(t.error(m))
            }
        }
        let effective = declared ?? type
        let numericEnum = effective == .integer || effective == .decimal
        var parts = [any Validator]()
        var built = Set<String>()        // families already built
        for (k, _) in map.pairs {
            guard let key = k.scalar, key != "type", Self.keys.contains(key) else { continue }
            let family = Self.numberKeys.contains(key) || (key == "enum" && numericEnum) ? "number"
                : Self.textKeys.contains(key) || key == "enum" ? "text"
                : Self.listKeys.contains(key) ? "list" : Self.mapKeys.contains(key) ? "map" : key
            // The keys of a family build one validator, at the family's first key.
            if family != key, !built.insert(family).inserted { continue }
            switch family {
            case "number": if let v = number(map, type: effective, &d) { parts.append(v) }
            case "text": if let v = text(map, numericEnum: numericEnum, &d) { parts.append(v) }
            case "list": if let v = list(map, &d) { parts.append(v) }
            case "map": if let v = keyed(map, &d) { parts.append(v) }
            default: if let v = compound(key, map[key] ?? k, type: effective, &d) { parts.append(v) }
            }
        }
        let body: any Validator = parts.count == 1 ? parts[0] : AllOf(parts)
        guard let declared else { return body }
        return parts.isEmpty ? TypeValidator(declared) : TypedValidator(declared, then: body)
    }

    func compound(_ key: String, _ node: ConfigNode, type: ValueType?, _ d: inout [Diagnostic]) -> (any Validator)? {
        if key == "not" {
            return tree(node, type: type, context: "'not'", &d).map { Not($0) }
        }
        let items: [ConfigNode]
        do { items = try node.sequence(key) } catch {
            d.append(error)
            return nil
        }
        guard !items.isEmpty else {
            d.append(node.error("\(key) must list at least one alternative"))
            return nil
        }
        var validators = [any Validator]()
        for (i, item) in items.enumerated() {
            if let v = tree(item, type: type, context: "'\(key)' alternative \(i + 1)", &d) { validators.append(v) }
        }
        guard validators.count == items.count else { return nil }
        switch key {
        case "allOf": return AllOf(validators)
        case "anyOf": return AnyOf(validators)
        default: return OneOf(validators)
        }
    }
}
