/// What a field's values are, as its reader delivers them.
public enum FieldShape: String, Sendable {
    /// One value (text, a number...): the default.
    case scalar
    /// A list of items: an attribute with `split:`, an XML field read `as: list`.
    case list
    /// A map of keys to values: an XML field read `as: map`.
    case map
}
