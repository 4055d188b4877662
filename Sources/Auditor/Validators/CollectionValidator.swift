/// Constraints on a list value (TWTValidation's `TWTCollectionValidator`): its count, its
/// elements (`each`) and their uniqueness.
///
/// A map passes `minCount`/`maxCount` on its number of entries when the validator has neither
/// `each` nor `uniqueItems` (TWTValidation's keyed collections have counts too).
/// Any other value that is not a list (`.null` included) is one `type` violation (2001,
/// "must be a list"). Otherwise, in order: `minCount` (1580), `maxCount` (1590), then element by
/// element the violations of `each`, moved to the element's path `[i]` (0-based), and a
/// `uniqueItems` violation (2005) at each element that repeats an earlier one.
/// Uniqueness compares with ``Value/isSameItem(as:)``: `1` and `1.0` are the same item,
/// the text `"1"` and the number `1` are not.
public struct CollectionValidator: Validator {
    public var minCount: Int?
    public var maxCount: Int?
    /// Applied to every element.
    public var each: (any Validator)?
    public var uniqueItems: Bool
    /// Replaces the default message of this validator's own violations (count, uniqueness,
    /// not a list); the violations of `each` keep theirs.
    public var message: MessageTemplate?
    public var code: Int?

    public init(minCount: Int? = nil, maxCount: Int? = nil, each: (any Validator)? = nil, uniqueItems: Bool = false,
                message: MessageTemplate? = nil, code: Int? = nil) {
        self.minCount = minCount
        self.maxCount = maxCount
        self.each = each
        self.uniqueItems = uniqueItems
        self.message = message
        self.code = code
    }

    /// A violation of this validator; the parameters are built only for failures.
    private func make(_ kind: String, _ defaultCode: Int, _ template: MessageTemplate, _ value: Value,
                      _ extra: [String: String] = [:]) -> Violation {
        var params = ["type": "list", "typeName": "a list"]
        if let minCount { params["minCount"] = String(minCount) }
        if let maxCount { params["maxCount"] = String(maxCount) }
        return ViolationMaker(message: message, code: code, parameters: params).make(kind, defaultCode, template, value, extra)
    }

    /// Whether this validator only counts, so that it applies to a map's entries as well.
    private var countsOnly: Bool { each == nil && !uniqueItems }

    /// The count violations of a map (when `countsOnly`).
    private func validateMap(_ map: ValueMap, _ value: Value) -> [Violation] {
        var out = [Violation]()
        let n = map.entries.count
        if let minCount, n < minCount {
            out.append(make("minCount", ValidationCode.minCount, ValidatorMessages.minEntries, value,
                            ["count": String(n), "type": "map", "typeName": "a map"]))
        }
        if let maxCount, n > maxCount {
            out.append(make("maxCount", ValidationCode.maxCount, ValidatorMessages.maxEntries, value,
                            ["count": String(n), "type": "map", "typeName": "a map"]))
        }
        return out
    }

    public func validate(_ value: Value) -> [Violation] {
        if case .map(let map) = value, countsOnly { return validateMap(map, value) }
        guard case .list(let items) = value else {
            return [make("type", ValidationCode.type, ValidatorMessages.type, value)]
        }
        var out = [Violation]()
        if let minCount, items.count < minCount {
            out.append(make("minCount", ValidationCode.minCount, ValidatorMessages.minCount, value,
                            ["count": String(items.count)]))
        }
        if let maxCount, items.count > maxCount {
            out.append(make("maxCount", ValidationCode.maxCount, ValidatorMessages.maxCount, value,
                            ["count": String(items.count)]))
        }
        var firstIndex = [Value: Int]()
        if uniqueItems { firstIndex.reserveCapacity(items.count) }
        for (i, item) in items.enumerated() {
            if let each {
                let found = each.validate(item)
                if !found.isEmpty { out += found.map { $0.nested(under: "[\(i)]") } }
            }
            if uniqueItems {
                let key = item.itemKey
                if let first = firstIndex[key] {
                    out.append(make("uniqueItems", ValidationCode.uniqueItems, ValidatorMessages.uniqueItems, item,
                                    ["first": String(first)]).nested(under: "[\(i)]"))
                } else {
                    firstIndex[key] = i
                }
            }
        }
        return out
    }

    public func isValid(_ value: Value) -> Bool {
        if case .map(let map) = value, countsOnly {
            return minCount.map { map.entries.count >= $0 } ?? true && maxCount.map { map.entries.count <= $0 } ?? true
        }
        guard case .list(let items) = value else { return false }
        if let minCount, items.count < minCount { return false }
        if let maxCount, items.count > maxCount { return false }
        if let each, !items.allSatisfy({ each.isValid($0) }) { return false }
        guard uniqueItems, items.count > 1 else { return true }
        var seen = Set<Value>(minimumCapacity: items.count)
        return items.allSatisfy { seen.insert($0.itemKey).inserted }
    }

    public var summary: String {
        var parts = [String]()
        if let minCount { parts.append("have at least \(minCount) item\(minCount == 1 ? "" : "s")") }
        if let maxCount { parts.append("have at most \(maxCount) item\(maxCount == 1 ? "" : "s")") }
        if let each { parts.append("have every item \(each.summary)") }
        if uniqueItems { parts.append("have unique items") }
        return parts.isEmpty ? "be a list" : parts.joined(separator: " and ")
    }
}

/// Constraints on a map value (TWTValidation's `TWTKeyedCollectionValidator`, Core Data's
/// per-key validation): validators per key, keys that must be present, keys that may be.
///
/// A value that is not a map (`.null` included) is one `type` violation (2001, "must be a
/// map"). Otherwise, in order: each missing required key (kind `requiredKeys`, 1570, at path
/// `.key`), then entry by entry in the map's order: a key not in `allowedKeys` (kind
/// `allowedKeys`, 2006, once per key), the violations of `eachKey` on the key's name (moved to
/// `[key 'name']`), and the violations of the key's validator, of `eachValue` and of every
/// pair whose `keyPattern` matches the key, moved to `.key`. An absent key is not validated
/// (list it in `requiredKeys` to require it); a key present with `.null` is (wrap its
/// validator with ``Validator/allowingNull()`` to accept null).
public struct KeyedCollectionValidator: Validator {
    /// A constraint on the values of the entries whose key matches a pattern
    /// (`pairs: [{ keyPattern: "tel_.*", value: { pattern: "[0-9 ]+" } }]`).
    public struct Pair: Sendable {
        /// The keys it applies to (a full match).
        public var keyPattern: Pattern
        /// What their values must pass.
        public var value: any Validator

        public init(keyPattern: Pattern, value: any Validator) {
            self.keyPattern = keyPattern
            self.value = value
        }
    }

    /// A validator per key.
    public var keys: [String: any Validator]
    /// Keys that must be present.
    public var requiredKeys: [String]
    /// The only keys that may be present, or `nil` for any. Keys of `keys` and
    /// `requiredKeys` are not added implicitly: list them too.
    public var allowedKeys: [String]?
    /// Applied to every key's name (a `.string`).
    public var eachKey: (any Validator)?
    /// Applied to every value.
    public var eachValue: (any Validator)?
    /// Applied to the values of the keys each pair's pattern matches.
    public var pairs: [Pair]
    public var message: MessageTemplate?
    public var code: Int?

    public init(keys: [String: any Validator] = [:], requiredKeys: [String] = [], allowedKeys: [String]? = nil,
                eachKey: (any Validator)? = nil, eachValue: (any Validator)? = nil, pairs: [Pair] = [],
                message: MessageTemplate? = nil, code: Int? = nil) {
        self.keys = keys
        self.requiredKeys = requiredKeys
        self.allowedKeys = allowedKeys
        self.eachKey = eachKey
        self.eachValue = eachValue
        self.pairs = pairs
        self.message = message
        self.code = code
    }

    /// The path segment of a violation of a key's name.
    static func keySegment(_ key: String) -> String { "[key '\(key)']" }

    /// A violation of this validator; the parameters are built only for failures.
    private func make(_ kind: String, _ defaultCode: Int, _ template: MessageTemplate, _ value: Value,
                      _ extra: [String: String] = [:]) -> Violation {
        var params = ["type": "map", "typeName": "a map"]
        if !requiredKeys.isEmpty { params["requiredKeys"] = requiredKeys.joined(separator: ", ") }
        if let allowedKeys { params["allowedKeys"] = allowedKeys.joined(separator: ", ") }
        return ViolationMaker(message: message, code: code, parameters: params).make(kind, defaultCode, template, value, extra)
    }

    public func validate(_ value: Value) -> [Violation] {
        guard case .map(let map) = value else {
            return [make("type", ValidationCode.type, ValidatorMessages.type, value)]
        }
        var out = [Violation]()
        for key in requiredKeys where map[key] == nil {
            out.append(make("requiredKeys", ValidationCode.required, ValidatorMessages.required, .null,
                                  ["key": key]).nested(under: "." + key))
        }
        var reported = Set<String>()
        for entry in map.entries {
            if let allowedKeys, !allowedKeys.contains(entry.key), reported.insert(entry.key).inserted {
                out.append(make("allowedKeys", ValidationCode.unknownKey, ValidatorMessages.unknownKey,
                                entry.value, ["key": entry.key]).nested(under: "." + entry.key))
            }
            if let eachKey {
                let found = eachKey.validate(.string(entry.key))
                if !found.isEmpty { out += found.map { $0.nested(under: Self.keySegment(entry.key)) } }
            }
            var found = keys[entry.key]?.validate(entry.value) ?? []
            if let eachValue { found += eachValue.validate(entry.value) }
            for pair in pairs where pair.keyPattern.matches(entry.key) { found += pair.value.validate(entry.value) }
            if !found.isEmpty { out += found.map { $0.nested(under: "." + entry.key) } }
        }
        return out
    }

    public func isValid(_ value: Value) -> Bool {
        guard case .map(let map) = value else { return false }
        for key in requiredKeys where map[key] == nil { return false }
        for entry in map.entries {
            if let allowedKeys, !allowedKeys.contains(entry.key) { return false }
            if let v = keys[entry.key], !v.isValid(entry.value) { return false }
            if let eachKey, !eachKey.isValid(.string(entry.key)) { return false }
            if let eachValue, !eachValue.isValid(entry.value) { return false }
            for pair in pairs where pair.keyPattern.matches(entry.key) && !pair.value.isValid(entry.value) { return false }
        }
        return true
    }

    public var summary: String {
        var parts = [String]()
        if !requiredKeys.isEmpty { parts.append("have the keys \(requiredKeys.joined(separator: ", "))") }
        if let allowedKeys { parts.append("have no keys but \(allowedKeys.joined(separator: ", "))") }
        for key in keys.keys.sorted() {
            if let v = keys[key] { parts.append("have \(key) \(v.summary)") }
        }
        if let eachKey { parts.append("have every key \(eachKey.summary)") }
        if let eachValue { parts.append("have every value \(eachValue.summary)") }
        for pair in pairs { parts.append("have the values of keys matching \(pair.keyPattern.source) \(pair.value.summary)") }
        return parts.isEmpty ? "be a map" : parts.joined(separator: " and ")
    }
}
