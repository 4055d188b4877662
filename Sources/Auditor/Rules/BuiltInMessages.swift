/// Every built-in English message template that is not a constraint kind's, keyed as a
/// message catalog's `constraints:` section names it (STYLE.md "Wording lives in one place").
///
/// `rules/messages/en.yml` holds exactly these plus ``ConstraintKind/defaultMessage(for:)``
/// for each constraint kind and the readers' structural rules; a test keeps them identical.
package enum BuiltInMessages {
    /// Message kinds of the rules that are not attribute constraints, with their templates.
    public static let templates: [String: String] = [
        "unique.composite": "The combination {attributes} = ({value}) must be unique; it already appears at {first}.",
        "fk": "{field} '{value}' does not reference an existing {target}: no {targetKey} has this value.",
        "fk.composite": "({attributes}) = ({values}) does not reference an existing {target}: no {targetKey} has these values.",
        "relationship.minCount": "{entity} {key} has {count} {relationship}; at least {minCount} required.",
        "relationship.maxCount": "{entity} {key} has {count} {relationship}; at most {maxCount} allowed.",
        "deleteRule.deny": "{entity} {key} was deleted, but {count, plural, one {# {child} record still references} "
            + "other {# {child} records still reference}} it; its {relationship} relationship denies the delete.",
        "deleteRule.nullify": "{entity} {key} still references {parent} {value}, which was deleted; with deleteRule nullify, {field} should be empty.",
        "deleteRule.cascade": "{entity} {key} references {parent} {value}, which was deleted; with deleteRule cascade, this record should have been deleted with it.",
        "rowCount": "{entity} has {count, plural, one {# record} other {# records}}; expected "
            + "{bounds, select, min {at least {min}} max {at most {max}} other {at least {min} and at most {max}}}.",
        "columns": "{reason, select, missing {The input has no column '{column}'; it is required.} "
            + "attribute {The input has no column '{column}'; the attribute is read as missing.} "
            + "other {The input has an unexpected column '{column}'.}}",
        "freshness": "{newest, select, missing {No {field} has a value, so none is within {maxAge} before {asOf}.} "
            + "other {The newest {field} is {newest}, more than {maxAge} before {asOf}.}}",
        "record": "The record does not satisfy '{assert}': {values}.",
    ]

    /// The placeholders a message of a kind may use: its own parameters and those of every
    /// message (`{rule}`, `{code}`, `{severity}`, `{entity}`, `{key}`, `{location}`, …).
    /// A constraint kind's message may also name any constraint parameter of its attribute.
    /// - Parameter kind: A key of ``templates``, or a constraint kind (`min`, `min.date`).
    /// - Returns: `nil` for an unknown kind.
    public static func placeholders(of kind: String) -> Set<String>? {
        let base = kind.hasSuffix(".date") ? String(kind.dropLast(5)) : kind
        if ConstraintKind(rawValue: base) != nil {
            return RuleCompiler.commonPlaceholders.union(["typeName"]).union(ConstraintKind.allCases.map(\.rawValue))
        }
        guard let english = templates[kind], let template = try? MessageTemplate(english) else { return nil }
        var own = Set(template.placeholders)
        switch kind {
        case "columns": own.formUnion(["problem"])
        case "rowCount": own.formUnion(["expected"])
        case "fk.composite", "unique.composite": own.formUnion(["value", "values"])
        case "fk": own.formUnion(["attributes"])
        case "relationship.minCount", "relationship.maxCount": own.formUnion(["child"])
        case "record": break   // and every attribute of the entity (checked against the rules)
        default: break
        }
        return own.union(RuleCompiler.commonPlaceholders)
    }

    /// Every kind a catalog's `constraints:` section accepts, sorted.
    public static var kinds: [String] {
        var keys = Set(templates.keys)
        for kind in ConstraintKind.allCases {
            keys.insert(kind.rawValue)
            if kind.defaultMessage(for: .date) != kind.defaultMessage(for: .integer) {
                keys.insert("\(kind.rawValue).date")
            }
        }
        return keys.sorted()
    }
}
