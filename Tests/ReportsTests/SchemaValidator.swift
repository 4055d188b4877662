import Foundation

/// A minimal JSON Schema validator for the keywords `schemas/report.schema.json` uses
/// (`$ref` to `#/$defs/…`, `type`, `properties`, `required`, `additionalProperties` (`false` or a schema),
/// `items`, `enum`, `const`, `minimum`, `maximum`, `minLength`, `pattern`, `oneOf`), so the report is
/// checked against the schema even on a machine without Python's `jsonschema`, which runs the
/// full draft 2020-12 check in ``SchemaTests``.
struct SchemaValidator {
    let root: [String: Any]

    init(schemaData: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: schemaData) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        self.root = root
    }

    /// Every violation as `path: problem`; empty when the document is valid.
    func errors(in document: Any) -> [String] {
        var errors: [String] = []
        check(document, against: root, path: "", errors: &errors)
        return errors
    }

    private func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let ref = schema["$ref"] as? String, ref.hasPrefix("#/$defs/"),
              let defs = root["$defs"] as? [String: Any],
              let target = defs[String(ref.dropFirst("#/$defs/".count))] as? [String: Any] else { return schema }
        return resolve(target)
    }

    private func check(_ value: Any, against rawSchema: [String: Any], path: String, errors: inout [String]) {
        let schema = resolve(rawSchema)
        let at = path.isEmpty ? "(root)" : path
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
           !types.contains(where: { Self.matches(value, type: $0) }) {
            errors.append("\(at): \(value) is not of type \(types)")
            return
        }
        if let allowed = schema["enum"] as? [String], !allowed.contains(where: { $0 == value as? String }) {
            errors.append("\(at): \(value) is not one of \(allowed)")
        }
        if let constant = schema["const"] as? String, constant != value as? String {
            errors.append("\(at): \(value) is not \(constant)")
        }
        if let number = Self.number(value) {
            if let minimum = schema["minimum"] as? Double, number < minimum { errors.append("\(at): \(number) < \(minimum)") }
            if let maximum = schema["maximum"] as? Double, number > maximum { errors.append("\(at): \(number) > \(maximum)") }
        }
        if let text = value as? String {
            if let minLength = schema["minLength"] as? Int, text.count < minLength { errors.append("\(at): too short") }
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(at): '\(text)' does not match \(pattern)")
            }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                errors.append("\(at): missing required property '\(key)'")
            }
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if let propertySchema = properties[key] as? [String: Any] {
                    check(member, against: propertySchema, path: path + "/" + key, errors: &errors)
                } else if schema["additionalProperties"] as? Bool == false {
                    errors.append("\(at): additional property '\(key)' is not allowed")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    check(member, against: additional, path: path + "/" + key, errors: &errors)
                }
            }
        }
        if let alternatives = schema["oneOf"] as? [[String: Any]] {
            let passing = alternatives.filter { alternative in
                var scratch: [String] = []
                check(value, against: alternative, path: path, errors: &scratch)
                return scratch.isEmpty
            }.count
            if passing != 1 { errors.append("\(at): \(value) matches \(passing) of the oneOf alternatives, not exactly 1") }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                check(element, against: items, path: path + "/\(index)", errors: &errors)
            }
        }
    }

    /// The number in a JSONSerialization value, excluding booleans (which bridge as NSNumber).
    private static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        // JSONSerialization gives true/false as a boolean NSNumber whose objCType is "c"; numbers
        // from JSON text are never of C type char. (`value is Bool` is also true for 0 and 1.)
        String(cString: number.objCType) == "c"
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "string": return value is String
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "boolean": return (value as? NSNumber).map(isBoolean) ?? (value is Bool)
        case "integer":
            guard let number = number(value) else { return false }
            return number == number.rounded()
        case "number": return number(value) != nil
        default: return false
        }
    }
}
