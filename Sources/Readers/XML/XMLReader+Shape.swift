import Auditor
import CXMLShim

/// What an XML document turned out to hold, checked once it was read to its end: nothing the
/// rules declare may go unchecked because a path matched nothing.
///
/// - **The record path.** A document in which the `record:` path matched no element is a
///   data error (`.malformedInput`, exit 65), with the document's root element, its first
///   element paths and a did-you-mean, unless the document is legitimately empty: for an
///   absolute path (`/people/person`) when an element matched its parent path and no such
///   element has any child element (`<people/>` holds zero people; `<people><staff/></people>`
///   shows that the path is wrong); for a name (`person`, any depth) when the root element
///   has no child element at all (`<people/>`). A one-step absolute path (`/person`) names
///   the root element itself, so it always matches when it is right.
/// - **The fields.** A field that no record has (no child element or attribute that its path
///   reaches, in any record) is a data error naming the field, the path searched and the
///   closest name the records do have, as an unknown CSV column is; unless a `columns:` rule
///   watches the schema (``ReaderRequest/missingFieldsAllowed``), which then reports it.
/// - **The columns.** ``availableFields``, what `columns:` compares with the declared
///   attributes: the declared fields that some record has, then the local names of the
///   record elements' child elements and attributes that no declared field reads (a field
///   reads the first element step of its path, or the record's attribute it names; a field
///   without a mapping reads the child element and the attribute of its own name).
extension XMLReader {
    /// The fields of the records: see the extension's documentation. Before the end of the
    /// document, the fields seen so far.
    public var availableFields: [String] {
        let shape = axml_shape(handle).pointee
        var fields = [String]()
        var used = Set<String>()
        for (i, name) in schema.fields.enumerated() {
            if fieldSeen[i] { fields.append(name) }
            used.insert(name)
            used.formUnion(readNames(field: i))
        }
        let extra = Self.names(Int(shape.child_name_count)) { axml_child_name(handle, $0) }
            + Self.names(Int(shape.attribute_name_count)) { axml_attribute_name(handle, $0) }
        for name in extra where used.insert(name).inserted {
            fields.append(name)
        }
        return fields
    }

    /// Checks that the document did not change while it was read, that the record path
    /// matched, and that every field was found (see the extension's documentation).
    /// - Throws: ``AuditError`` `.transient` when the file changed during the audit;
    ///   `.malformedInput` for a record path that matched nothing or a field that no record has.
    public func finish() throws {
        try watch?.check(bytesRead: ended ? bytesRead : nil)
        guard ended else { return }
        let shape = axml_shape(handle).pointee
        if shape.records == 0 {
            if let error = unmatchedRecordPath(shape) { throw error }
            return
        }
        if !missingFieldsAllowed, let error = missingFields(shape) { throw error }
    }

    // MARK: - The record path

    /// The error for a document with no record, or nil when it is legitimately empty.
    func unmatchedRecordPath(_ shape: AXMLShape) -> AuditError? {
        let paths = Self.names(Int(shape.path_count)) { axml_seen_path(handle, $0) }
        let empty: Bool
        switch recordPath {
        case .anywhere: empty = shape.root_has_children == 0 && !paths.isEmpty
        case .absolute(let steps):
            empty = steps.count >= 2 && shape.parent_matched != 0 && shape.parent_has_children == 0
        }
        if empty { return nil }
        guard let root = paths.first else {
            return AuditError(.malformedInput, "the document has no element, so the record path '\(recordText)' "
                                  + "matched nothing; check that this is the XML file you meant",
                              location: displayPath)
        }
        var message = "the record path '\(recordText)' matched no element"
        let suggestion: String?
        switch recordPath {
        case .anywhere(let name):
            let locals = paths.compactMap { $0.split(separator: "/").last.map(String.init) }
            suggestion = Suggest.closest(to: name.localName, in: Self.unique(locals))
        case .absolute(let steps):
            let written = "/" + steps.map(\.localName).joined(separator: "/")
            let sameDepth = paths.filter { $0.split(separator: "/").count == steps.count }
            suggestion = Suggest.closest(to: written, in: sameDepth)
                ?? steps.last.flatMap { last in
                    paths.first { $0.hasSuffix("/" + last.localName) }
                }
        }
        if let suggestion, suggestion != recordText { message += "; did you mean '\(suggestion)'?" }
        let shown = paths.prefix(8).joined(separator: ", ")
        message += " The document's root element is '\(root.dropFirst())'; its first element paths: \(shown)"
        if paths.count > 8 { message += ", ..." }
        message += ". Set the source's 'xml: { record: ... }' to the element that is one record "
            + "(a name matches at any depth, '/a/b' from the root)"
        return AuditError(.malformedInput, message, location: displayPath)
    }

    // MARK: - The fields

    /// The error for the fields that no record has, or nil.
    func missingFields(_ shape: AXMLShape) -> AuditError? {
        let children = Self.names(Int(shape.child_name_count)) { axml_child_name(handle, $0) }
        let attributes = Self.names(Int(shape.attribute_name_count)) { axml_attribute_name(handle, $0) }
        var problems = [String]()
        for (i, name) in schema.fields.enumerated() where !fieldSeen[i] {
            var text: String
            var target = name
            if let path = fieldPaths[i] {
                text = "no record has the field '\(name)' (path '\(path)')"
                let trimmed = XMLPathSyntax.trim(path)
                let first = trimmed.split(separator: "/").first.map(String.init) ?? trimmed
                target = first.hasPrefix("@") ? String(first.dropFirst()) : first
                if let colon = target.lastIndex(of: ":") { target = String(target[target.index(after: colon)...]) }
            } else {
                text = "no record has the field '\(name)' (a child element <\(name)> or an attribute '\(name)' of the record)"
            }
            let candidates = Self.unique(children + attributes).filter { $0 != target }
            if let s = Suggest.closest(to: target, in: candidates) {
                text += "; did you mean '\(s)'?"
            }
            problems.append(text)
        }
        guard !problems.isEmpty else { return nil }
        var seen = Self.unique(children + attributes.map { "@" + $0 })
        let more = seen.count > 20 || shape.names_truncated != 0
        seen = Array(seen.prefix(20))
        let list = seen.isEmpty ? "no child element or attribute" : seen.joined(separator: ", ") + (more ? ", ..." : "")
        var message = problems.joined(separator: "; ")
        if !message.hasSuffix("?") { message += "." }
        message += " Searched every '\(recordText)' record (\(shape.records)); the records have: \(list). "
            + "Map the field to where its value is ('xml: { fields: { name: path } }') or fix the attribute's name in the rules"
        return AuditError(.malformedInput, message, location: displayPath)
    }

    /// The names an XML field reads directly below the record: its first element step's local
    /// name, or its attribute's (`@id`), or its own name (both, for the default mapping).
    private func readNames(field i: Int) -> [String] {
        guard let path = fieldPaths[i] else { return [schema.fields[i]] }
        let trimmed = XMLPathSyntax.trim(path)
        guard let first = trimmed.split(separator: "/").first(where: { $0 != "." }) else { return [] }
        var name = first.hasPrefix("@") ? first.dropFirst() : first
        if let colon = name.lastIndex(of: ":") { name = name[name.index(after: colon)...] }
        return [String(name)]
    }

    private static func names(_ count: Int, _ get: (Int32) -> UnsafePointer<CChar>?) -> [String] {
        (0 ..< max(0, count)).compactMap { i in get(Int32(i)).map { String(cString: $0) } }
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
