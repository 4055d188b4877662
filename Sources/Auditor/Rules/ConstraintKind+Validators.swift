extension ConstraintKind {
    /// The kinds compiled by ``ConstraintTreeCompiler`` into a ``Validator``.
    public var isValidatorKind: Bool {
        ConstraintTreeCompiler.attributeKeys.contains(rawValue)
    }
}
