extension ConstraintKind {
    /// The kinds compiled by ``ConstraintTreeCompiler`` into a ``Validator``.
    public var isValidatorKind: Bool {
        ConstraintTreeCompiler.attributeKeys.contains(rawValue)
    }
}

extension ConstraintKind {
    /// `required`, `allowsNull` and `allowsMissing`: checks of whether a value is there at all,
    /// which a missing value fails and an attribute's `message:` does not cover.
    var isPresenceKind: Bool {
        self == .required || self == .allowsNull || self == .allowsMissing
    }
}
