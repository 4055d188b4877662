import Auditor

extension XMLReaderOptions {
    /// The fields an `xml:` block reads as lists or maps (`as: list`, `as: map`); empty when
    /// the block does not decode.
    /// - Parameter node: The source's `xml:` block, if any.
    public static func fieldShapes(_ node: ConfigNode?) -> [String: FieldShape] {
        guard let node, let options = decode(node).options else { return [:] }
        return options.fieldShapes
    }
}

extension XMLReaderOptions: ReaderOptions {
    /// The fields this block reads as lists or maps (`as: list`, `as: map`); the others are scalars.
    public var fieldShapes: [String: FieldShape] {
        var shapes = [String: FieldShape]()
        for (name, spec) in fields {
            switch spec.kind {
            case .text: shapes[name] = .scalar
            case .list: shapes[name] = .list
            case .map: shapes[name] = .map
            }
        }
        return shapes
    }
}
