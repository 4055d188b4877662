import Auditor

/// How one field is read from a record element.
@_spi(Testing) public struct XMLFieldSpec: Sendable, Hashable, ExpressibleByStringLiteral {
    /// What a match becomes.
    public enum Kind: String, Sendable, CaseIterable {
        /// The text of the first match: all its text, CDATA and character references,
        /// descendants included (an attribute path gives the attribute's value).
        case text
        /// Every match, in document order, as a list of texts; no match is a missing value.
        case list
        /// The first match's child elements as a map of local name → text, in document order.
        case map
    }

    /// A path relative to the record element (see ``XMLPathSyntax``).
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind = .text) {
        self.path = path
        self.kind = kind
    }

    public init(stringLiteral path: String) {
        self.init(path: path)
    }

    public static func list(_ path: String) -> XMLFieldSpec { XMLFieldSpec(path: path, kind: .list) }
    public static func map(_ path: String) -> XMLFieldSpec { XMLFieldSpec(path: path, kind: .map) }
}

/// The `xml:` option block of a source.
///
/// ```yaml
/// xml:
///   record: /people/person          # or just: person
///   namespaces: { p: "urn:example:people" }
///   fields:
///     id: "@id"                      # an attribute of the record element
///     city: address/city             # nested element text
///     phones: { path: phones/phone, as: list }
///     address: { path: address, as: map }
///     title: p:title                 # namespace-qualified
///   decimalComma: [price]            # numbers written 1.234,50; also thousandsComma, dateFormat
/// ```
/// A field the rules need that `fields:` does not map is the record's child element of that
/// name, else the record's attribute of that name.
@_spi(Testing) public struct XMLReaderOptions: Sendable, Hashable {
    /// The record element: a name (any depth) or an absolute path.
    public var record: String
    /// Field name → where its value is. Unmapped fields use the default mapping.
    public var fields: [String: XMLFieldSpec]
    /// Prefix → namespace URI, for the prefixes used in `record` and `fields`.
    public var namespaces: [String: String]

    public init(record: String, fields: [String: XMLFieldSpec] = [:], namespaces: [String: String] = [:]) {
        self.record = record
        self.fields = fields
        self.namespaces = namespaces
    }

    /// Fields whose numbers or dates are written otherwise (`decimalComma:`, `thousandsComma:`,
    /// `dateFormat:`), read as a `csv:` block's same options read a column. Default none.
    var formats = ValueFormats()

    static let keys = ["record", "fields", "namespaces"] + ValueFormats.keys
    static let fieldKeys = ["path", "as"]

    /// Decodes an `xml:` block, collecting every problem as a diagnostic located in the rules
    /// file (unknown keys get a did-you-mean).
    /// - Returns: The options when there is no problem, and the diagnostics.
    public static func decode(_ node: ConfigNode) -> (options: XMLReaderOptions?, diagnostics: [Diagnostic]) {
        var diagnostics = [Diagnostic]()
        let block: ConfigMapping
        do {
            block = try node.mapping("the xml block")
        } catch {
            return (nil, [error])
        }
        diagnostics += block.unknownKeys(allowed: keys, context: "the xml block")

        var namespaces = [String: String]()
        if let ns = block["namespaces"], !ns.isNull {
            do {
                let map = try ns.mapping("xml.namespaces")
                diagnostics += map.unknownKeys(allowed: map.keys, context: "xml.namespaces")
                for (key, value) in map.pairs {
                    guard let prefix = key.scalar else { continue }
                    if !XMLPathSyntax.isNCName(Substring(prefix)) {
                        diagnostics.append(key.error("'\(prefix)' is not a valid namespace prefix"))
                    } else if prefix == "xml" || prefix == "xmlns" {
                        diagnostics.append(key.error("the prefix '\(prefix)' is reserved by XML and cannot be redeclared"))
                    }
                    do {
                        let uri = try value.string("the namespace URI of '\(prefix)'")
                        if uri.isEmpty {
                            diagnostics.append(value.error("the namespace URI of '\(prefix)' is empty"))
                        }
                        namespaces[prefix] = uri
                    } catch {
                        diagnostics.append(error)
                    }
                }
            } catch {
                diagnostics.append(error)
            }
        }

        var record: String?
        if let r = block["record"], !r.isNull {
            do {
                let text = try r.string("xml.record")
                _ = try XMLPathSyntax.record(text, namespaces: namespaces)
                record = text
            } catch let error as Diagnostic {
                diagnostics.append(error)
            } catch let error as XMLPathError {
                diagnostics.append(r.error(error.message))
            } catch {
                diagnostics.append(r.error("\(error)"))
            }
        } else {
            let at = block.keyNode("record") ?? node
            diagnostics.append(at.error("the xml block needs 'record:', the element that is one record (e.g. 'record: person' or 'record: /people/person')"))
        }

        var fields = [String: XMLFieldSpec]()
        if let f = block["fields"], !f.isNull {
            do {
                let map = try f.mapping("xml.fields")
                diagnostics += map.unknownKeys(allowed: map.keys, context: "xml.fields")
                for (key, value) in map.pairs {
                    guard let name = key.scalar else { continue }
                    let (spec, problems) = decodeField(name, value, namespaces: namespaces)
                    diagnostics += problems
                    if let spec { fields[name] = spec }
                }
            } catch {
                diagnostics.append(error)
            }
        }

        let formats = ValueFormats(block, &diagnostics)
        let named = [("decimalComma", formats.decimalComma), ("thousandsComma", formats.thousandsComma),
                     ("dateFormat", formats.dateFormats.keys.sorted())]
        for (option, names) in named {
            for name in names {
                guard let kind = fields[name]?.kind, kind != .text else { continue }
                diagnostics.append((block[option] ?? node).error(
                    "\(option) names '\(name)', which is read as a \(kind.rawValue) (as: \(kind.rawValue)); \(option) reads a single value"))
            }
        }
        guard diagnostics.isEmpty, let record else { return (nil, diagnostics) }
        var options = XMLReaderOptions(record: record, fields: fields, namespaces: namespaces)
        options.formats = formats
        return (options, [])
    }

    static func decodeField(_ name: String, _ node: ConfigNode,
                            namespaces: [String: String]) -> (XMLFieldSpec?, [Diagnostic]) {
        var diagnostics = [Diagnostic]()
        var pathNode = node
        var kind = XMLFieldSpec.Kind.text
        if case .mapping = node.kind {
            guard let map = try? node.mapping("xml.fields.\(name)") else { return (nil, []) }
            diagnostics += map.unknownKeys(allowed: fieldKeys, context: "xml.fields.\(name)")
            if let p = map["path"] {
                pathNode = p
            } else {
                diagnostics.append(node.error("xml.fields.\(name) needs 'path:' (e.g. 'path: phones/phone')"))
                return (nil, diagnostics)
            }
            if let k = map["as"] {
                if let s = k.scalar, let parsed = XMLFieldSpec.Kind(rawValue: s) {
                    kind = parsed
                } else {
                    let all = XMLFieldSpec.Kind.allCases.map(\.rawValue)
                    var message = "'as' must be one of \(all.joined(separator: ", ")); got \(k.describe)"
                    if let s = k.scalar, let suggestion = Suggest.closest(to: s, in: all) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    diagnostics.append(k.error(message))
                }
            }
        }
        let path: String
        do {
            path = try pathNode.string("the path of field '\(name)'")
        } catch {
            diagnostics.append(error)
            return (nil, diagnostics)
        }
        do {
            let parsed = try XMLPathSyntax.field(path, namespaces: namespaces)
            if kind == .map, let attribute = parsed.attribute {
                diagnostics.append(pathNode.error("a map is read from an element's children, not from the attribute '@\(attribute.localName)'; use 'as: text'"))
            }
        } catch {
            diagnostics.append(pathNode.error(error.message))
        }
        return diagnostics.isEmpty ? (XMLFieldSpec(path: path, kind: kind), []) : (nil, diagnostics)
    }
}
