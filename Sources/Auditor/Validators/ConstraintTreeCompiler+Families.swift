/// The number, text, list and map families of a constraint mapping.
extension ConstraintTreeCompiler {
    func number(_ map: ConfigMapping, type: ValueType?, _ d: inout [Diagnostic]) -> (any Validator)? {
        let before = d.count
        if let type, type != .integer, type != .decimal {
            for key in ["min", "max", "exclusiveMin", "exclusiveMax", "integral"] {
                guard let node = map[key] else { continue }
                let hint = type == .string ? "; use minLength/maxLength for text"
                    : type == .boolean ? "" : "; inside compound constraints bounds are numbers: put date bounds on the attribute itself"
                d.append(node.error("'\(key)' applies to numbers, but these constraints check \(type.rawValue) values\(hint)"))
            }
            return nil
        }
        var v = NumberValidator()
        v.min = bound(map, "min", &d)
        v.max = bound(map, "max", &d)
        v.exclusiveMin = bound(map, "exclusiveMin", &d)
        v.exclusiveMax = bound(map, "exclusiveMax", &d)
        if let node = map["integral"] {
            do { v.integral = try node.bool("integral") } catch { d.append(error) }
        }
        if let node = map["enum"] {
            var numbers = [Double]()
            for (item, text) in enumTexts(node, &d) {
                let parsed = Array(text.utf8).withUnsafeBufferPointer { ByteParsers.decimal($0) }
                if parsed.valid { numbers.append(parsed.value) } else {
                    d.append(item.error("enum value '\(text)' is not \((type ?? .decimal).phrase)"))
                }
            }
            v.allowedValues = numbers
        }
        if let lo = v.min ?? v.exclusiveMin, let hi = v.max ?? v.exclusiveMax, lo > hi,
           let node = map["max"] ?? map["exclusiveMax"] {
            d.append(node.error("the upper bound \(ValueText.canonical(hi)) is less than the lower bound \(ValueText.canonical(lo)); no number satisfies both"))
        }
        return d.count == before ? v : nil
    }

    func text(_ map: ConfigMapping, numericEnum: Bool, _ d: inout [Diagnostic]) -> (any Validator)? {
        let before = d.count
        var v = StringValidator()
        v.minLength = count(map, "minLength", &d)
        v.maxLength = count(map, "maxLength", &d)
        if let lo = v.minLength, let hi = v.maxLength, lo > hi, let node = map["maxLength"] {
            d.append(node.error("maxLength \(hi) is less than minLength \(lo); no text satisfies both"))
        }
        if let node = map["pattern"] {
            do {
                let source = try node.string("pattern")
                do {
                    v.pattern = try Pattern(source)
                } catch {
                    // Point at the offending character, as the rule compiler does.
                    var mark = node.mark
                    if case .scalar(_, let quoted) = node.kind, !source.contains("\n") {
                        mark.column += error.offset + (quoted ? 1 : 0)
                    }
                    d.append(Diagnostic(mark: mark, message: "invalid pattern: \(error.message)"))
                }
            } catch { d.append(error) }
        }
        if !numericEnum, let node = map["enum"] {
            v.allowedValues = enumTexts(node, &d).map(\.1)
        }
        return d.count == before ? v : nil
    }

    func list(_ map: ConfigMapping, _ d: inout [Diagnostic]) -> (any Validator)? {
        let before = d.count
        var v = CollectionValidator()
        v.minCount = count(map, "minCount", &d)
        v.maxCount = count(map, "maxCount", &d)
        if let lo = v.minCount, let hi = v.maxCount, lo > hi, let node = map["maxCount"] {
            d.append(node.error("maxCount \(hi) is less than minCount \(lo); no list satisfies both"))
        }
        if let node = map["each"] {
            v.each = tree(node, type: nil, context: "'each'", &d)
        }
        if let node = map["uniqueItems"] {
            do { v.uniqueItems = try node.bool("uniqueItems") } catch { d.append(error) }
        }
        return d.count == before ? v : nil
    }

    func keyed(_ map: ConfigMapping, _ d: inout [Diagnostic]) -> (any Validator)? {
        let before = d.count
        var v = KeyedCollectionValidator()
        var keyNodes = [(String, ConfigNode)]()
        if let node = map["keys"] {
            do {
                for (k, value) in try node.mapping("keys").pairs {
                    guard let name = k.scalar else {
                        d.append(k.error("keys in 'keys' must be strings"))
                        continue
                    }
                    if v.keys[name] != nil {
                        d.append(k.error("duplicate key '\(name)' in 'keys'"))
                        continue
                    }
                    keyNodes.append((name, k))
                    if let c = tree(value, type: nil, context: "key '\(name)' of 'keys'", &d) { v.keys[name] = c }
                }
            } catch { d.append(error) }
        }
        if let node = map["eachKey"] {
            v.eachKey = tree(node, type: .string, context: "'eachKey'", &d)
        }
        if let node = map["eachValue"] {
            v.eachValue = tree(node, type: nil, context: "'eachValue'", &d)
        }
        if let node = map["pairs"] {
            v.pairs = pairs(node, &d)
        }
        let required = names(map, "requiredKeys", &d)
        v.requiredKeys = required.map(\.0)
        if map["allowedKeys"] != nil {
            let allowed = names(map, "allowedKeys", &d).map(\.0)
            v.allowedKeys = allowed
            for (name, node) in required + keyNodes where !allowed.contains(name) {
                d.append(node.error("key '\(name)' is not in allowedKeys, so no map can have it; add it to allowedKeys"))
            }
        }
        return d.count == before ? v : nil
    }

    /// `pairs: [{ keyPattern: "tel_.*", value: { pattern: "[0-9 ]+" } }]`: the value of every
    /// entry whose key matches `keyPattern` (a full match) must pass `value`.
    private func pairs(_ node: ConfigNode, _ d: inout [Diagnostic]) -> [KeyedCollectionValidator.Pair] {
        let items: [ConfigNode]
        do { items = try node.sequence("pairs") } catch {
            d.append(error)
            return []
        }
        if items.isEmpty { d.append(node.error("pairs must list at least one { keyPattern, value } rule")) }
        var out = [KeyedCollectionValidator.Pair]()
        for (i, item) in items.enumerated() {
            let context = "pair \(i + 1) of 'pairs'"
            let map: ConfigMapping
            do { map = try item.mapping(context) } catch {
                d.append(error)
                continue
            }
            d += map.unknownKeys(allowed: ["keyPattern", "value"], context: context)
            guard let patternNode = map["keyPattern"], let valueNode = map["value"] else {
                d.append(item.error("\(context) needs 'keyPattern' (the keys it applies to) and 'value' (their values' constraints), "
                    + "for example { keyPattern: \"tel_.*\", value: { pattern: \"[0-9 ]+\" } }"))
                continue
            }
            var keyPattern: Pattern?
            do {
                let source = try patternNode.string("keyPattern")
                do { keyPattern = try Pattern(source) } catch {
                    d.append(patternNode.error("invalid keyPattern: \(error.message)"))
                }
            } catch { d.append(error) }
            let value = tree(valueNode, type: nil, context: "the value of \(context)", &d)
            if let keyPattern, let value { out.append(KeyedCollectionValidator.Pair(keyPattern: keyPattern, value: value)) }
        }
        return out
    }

    /// A number bound, parsed like the rule compiler's (`-?[0-9]+(\.[0-9]+)?`).
    private func bound(_ map: ConfigMapping, _ key: String, _ d: inout [Diagnostic]) -> Double? {
        guard let node = map[key] else { return nil }
        if case .scalar(let text, quoted: false) = node.kind {
            let r = Array(text.utf8).withUnsafeBufferPointer { ByteParsers.decimal($0) }
            if r.valid { return r.value }
        }
        d.append(node.error("\(key) must be a number like 0 or -12.5; got \(node.describe)"))
        return nil
    }

    /// A non-negative integer (a length or a count).
    private func count(_ map: ConfigMapping, _ key: String, _ d: inout [Diagnostic]) -> Int? {
        guard let node = map[key] else { return nil }
        do {
            let n = try node.int(key)
            guard n >= 0 else {
                d.append(node.error("\(key) must not be negative; got \(n)"))
                return nil
            }
            return n
        } catch {
            d.append(error)
            return nil
        }
    }

    /// The items of an `enum` list, as text.
    private func enumTexts(_ node: ConfigNode, _ d: inout [Diagnostic]) -> [(ConfigNode, String)] {
        let items: [ConfigNode]
        do { items = try node.sequence("enum") } catch {
            d.append(error)
            return []
        }
        if items.isEmpty { d.append(node.error("enum must list at least one value")) }
        var out = [(ConfigNode, String)]()
        for item in items {
            do { out.append((item, try item.string("an enum value"))) } catch { d.append(error) }
        }
        return out
    }

    /// A list of key names.
    private func names(_ map: ConfigMapping, _ key: String, _ d: inout [Diagnostic]) -> [(String, ConfigNode)] {
        guard let node = map[key] else { return [] }
        let items: [ConfigNode]
        do { items = try node.sequence(key) } catch {
            d.append(error)
            return []
        }
        var out = [(String, ConfigNode)]()
        for item in items {
            do { out.append((try item.string("a key in \(key)"), item)) } catch { d.append(error) }
        }
        return out
    }
}
