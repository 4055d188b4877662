import Auditor

/// An element or attribute name in an `xml:` path: a local name, and the namespace URI its
/// prefix stands for.
///
/// A name written without a prefix matches that local name in any namespace (so `entry`
/// reads an Atom feed whose elements are in a default namespace); a prefixed name `a:entry`
/// matches only the namespace URI that `namespaces:` declares for `a`, whatever prefix the
/// document itself uses.
package struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The namespace URI, or `nil` for any namespace.
    public var namespaceURI: String?
    public var localName: String

    public init(_ localName: String, namespaceURI: String? = nil) {
        self.localName = localName
        self.namespaceURI = namespaceURI
    }

    public var description: String {
        namespaceURI.map { "{\($0)}\(localName)" } ?? localName
    }
}

/// Which elements are records.
package enum XMLRecordPath: Sendable, Hashable {
    /// `person`: every `person` element at any depth (outside another record).
    case anywhere(XMLName)
    /// `/people/person`: only `person` elements whose ancestors are exactly these.
    case absolute([XMLName])
}

/// Where a field's value is, relative to the record element.
package struct XMLFieldPath: Sendable, Hashable {
    /// Element steps below the record element; empty for `.` (the record itself) and `@id`.
    public var elements: [XMLName]
    /// A final attribute step (`@id`, `address/@kind`).
    public var attribute: XMLName?

    public init(elements: [XMLName], attribute: XMLName? = nil) {
        self.elements = elements
        self.attribute = attribute
    }
}

/// A path that cannot be read; `message` is ready for a diagnostic.
package struct XMLPathError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The path syntax of the `xml:` block.
///
/// - `record:` `person` (any depth), `//person` (the same), `/people/person` (absolute).
/// - `fields:` paths are relative to the record element: `name`, `address/city`, `@id`,
///   `address/@kind`, `.` (the record element itself). Names may carry a prefix declared in
///   `namespaces:` (`a:title`, `@xlink:href`); the prefix `xml` is predefined.
package enum XMLPathSyntax {
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// Parses a `record:` path.
    public static func record(_ text: String, namespaces: [String: String]) throws(XMLPathError) -> XMLRecordPath {
        let trimmed = trim(text)
        if trimmed.isEmpty { throw XMLPathError("the record path is empty; name the record element, e.g. 'person' or '/people/person'") }
        if trimmed.hasPrefix("//") {
            let rest = trimmed.dropFirst(2)
            if rest.contains("/") {
                throw XMLPathError("'\(trimmed)' is not supported: write one element name ('\(rest.split(separator: "/").last ?? "")', any depth) or an absolute path from the root ('/a/b')")
            }
            return .anywhere(try name(rest, in: trimmed, namespaces: namespaces))
        }
        if trimmed.hasPrefix("/") {
            let steps = trimmed.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            var names = [XMLName]()
            for step in steps {
                if step.hasPrefix("@") {
                    throw XMLPathError("a record is an element, not the attribute '\(step)' in '\(trimmed)'")
                }
                names.append(try name(step, in: trimmed, namespaces: namespaces))
            }
            return .absolute(names)
        }
        if trimmed.contains("/") {
            throw XMLPathError("the relative path '\(trimmed)' is not supported for 'record:'; write an absolute path from the root element ('/\(trimmed)' if it starts at the root) or only the record's element name ('\(trimmed.split(separator: "/").last ?? "")', any depth)")
        }
        if trimmed.hasPrefix("@") || trimmed == "." {
            throw XMLPathError("a record is an element; '\(trimmed)' is not an element name")
        }
        return .anywhere(try name(Substring(trimmed), in: trimmed, namespaces: namespaces))
    }

    /// Parses a field path (relative to the record element).
    public static func field(_ text: String, namespaces: [String: String]) throws(XMLPathError) -> XMLFieldPath {
        var trimmed = Substring(trim(text))
        if trimmed.isEmpty { throw XMLPathError("the field path is empty; write a child element ('name'), a nested path ('address/city') or an attribute ('@id')") }
        if trimmed.hasPrefix("/") {
            throw XMLPathError("field paths are relative to the record element; write '\(trimmed.drop { $0 == "/" })' instead of '\(trimmed)'")
        }
        if trimmed == "." { return XMLFieldPath(elements: []) }
        if trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
        let whole = String(trimmed)
        let steps = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        var elements = [XMLName]()
        var attribute: XMLName?
        for (i, step) in steps.enumerated() {
            if step.hasPrefix("@") {
                guard i == steps.count - 1 else {
                    throw XMLPathError("the attribute '\(step)' must be the last step of '\(whole)'")
                }
                attribute = try name(step.dropFirst(), in: whole, namespaces: namespaces)
            } else {
                elements.append(try name(step, in: whole, namespaces: namespaces))
            }
        }
        return XMLFieldPath(elements: elements, attribute: attribute)
    }

    /// Parses one `prefix:local` or `local` step.
    static func name(_ step: Substring, in path: String, namespaces: [String: String]) throws(XMLPathError) -> XMLName {
        if step.isEmpty { throw XMLPathError("'\(path)' has an empty step") }
        if step == "*" || step == "." || step == ".." || step.contains("[") {
            throw XMLPathError("'\(step)' in '\(path)' is not supported: paths are plain element names separated by '/'")
        }
        let parts = step.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw XMLPathError("'\(step)' in '\(path)' is not a valid XML name") }
        let local = parts[parts.count - 1]
        guard isNCName(local) else { throw XMLPathError("'\(step)' in '\(path)' is not a valid XML name") }
        guard parts.count == 2 else { return XMLName(String(local)) }
        let prefix = String(parts[0])
        guard isNCName(parts[0]) else { throw XMLPathError("'\(step)' in '\(path)' is not a valid XML name") }
        if prefix == "xml" { return XMLName(String(local), namespaceURI: xmlNamespace) }
        guard let uri = namespaces[prefix] else {
            var message = "the namespace prefix '\(prefix)' in '\(path)' is not declared; add it under 'namespaces:' (prefix: URI)"
            if let s = Suggest.closest(to: prefix, in: Array(namespaces.keys).sorted()) {
                message += ", or did you mean '\(s)'?"
            }
            throw XMLPathError(message)
        }
        return XMLName(String(local), namespaceURI: uri)
    }

    /// An XML name without a colon: no spaces or delimiters, not starting with a digit, `-` or `.`.
    static func isNCName(_ s: Substring) -> Bool {
        guard let first = s.unicodeScalars.first else { return false }
        if first.properties.numericType != nil || first == "-" || first == "." { return false }
        for c in s.unicodeScalars {
            if c.value < 0x80 {
                let ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9")
                    || c == "_" || c == "-" || c == "."
                if !ok { return false }
            } else if c.properties.isWhitespace {
                return false
            }
        }
        return true
    }
}

extension XMLPathSyntax {
    /// The text without leading and trailing spaces and tabs.
    static func trim(_ text: String) -> String {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
