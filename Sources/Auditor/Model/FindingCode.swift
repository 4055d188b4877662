/// Every code that a finding, a rule or a record group of a report can carry by default: the
/// single source of truth behind ``ValidationCode``, `ConstraintKind.defaultCode(for:)`, the
/// relationship and table rules, and the readers' structural rules. The README's "Codes"
/// table documents exactly these cases (a test compares the two).
///
/// Core Data's validation codes (NSValidation…Error, 1550–1680) where one fits, ours
/// (2xxx for rules, 2101+ for CSV, 3101+ for XML and 4101+ for JSON Lines structure) otherwise. A rule's `code:`
/// option may replace any of them with a number of the user's choice.
public enum FindingCode: Int, Sendable, CaseIterable {
    /// NSManagedObjectValidationError: a record rule (`rules:`) or a Swift hook failed.
    case generic = 1550
    /// NSManagedObjectConstraintValidationError: `unique`, a duplicate key.
    case unique = 1551
    /// NSValidationMultipleErrorsError: a record group with more than one finding.
    case multipleErrors = 1560
    /// NSValidationMissingMandatoryPropertyError: `required`, `requiredKeys`, `NotNull`.
    case required = 1570
    /// NSValidationRelationshipLacksMinimumCountError: `minCount` of a list or a relationship.
    case minCount = 1580
    /// NSValidationRelationshipExceedsMaximumCountError: `maxCount` of a list or a relationship.
    case maxCount = 1590
    /// NSValidationRelationshipDeniedDeleteError: a deleted record is still referenced (`deleteRule: deny`).
    case deniedDelete = 1600
    /// NSValidationNumberTooLargeError: `max`, `exclusiveMax` on a number.
    case numberTooLarge = 1610
    /// NSValidationNumberTooSmallError: `min`, `exclusiveMin` on a number.
    case numberTooSmall = 1620
    /// NSValidationDateTooLateError: `max`, `exclusiveMax` on a date or date-time.
    case dateTooLate = 1630
    /// NSValidationDateTooSoonError: `min`, `exclusiveMin` on a date or date-time.
    case dateTooSoon = 1640
    /// NSValidationInvalidDateError: `type` of a date or date-time attribute.
    case invalidDate = 1650
    /// NSValidationStringTooLongError: `maxLength`.
    case tooLong = 1660
    /// NSValidationStringTooShortError: `minLength`.
    case tooShort = 1670
    /// NSValidationStringPatternMatchingError: `pattern`.
    case pattern = 1680
    /// `type` of a non-date attribute: not an integer, a decimal, a boolean, a list...
    case type = 2001
    /// `enum`: not one of the allowed values.
    case `enum` = 2002
    /// `integral`: not a whole number.
    case integral = 2003
    /// `NullValidator`: not null where null is required.
    case null = 2004
    /// `uniqueItems`: a list repeats an item.
    case uniqueItems = 2005
    /// `allowedKeys`: a map has a key that is not allowed.
    case unknownKey = 2006
    /// `allOf`, `each`, `keys`, `eachValue`, `pairs`: a part, an item or a map value fails its constraints.
    case part = 2007
    /// `allowsNull: false`: the value is an explicit null (JSON `null`, `xsi:nil="true"`, a
    /// CSV `explicitNullValues` token). A refinement of 1570, which forbids both kinds of missing.
    case nullNotAllowed = 2008
    /// `allowsMissing: false`: the value is absent (no JSON key, no XML element, a CSV
    /// `nullValues` text, SQL NULL). A refinement of 1570, which forbids both kinds of missing.
    case missingNotAllowed = 2009
    /// `anyOf`: no alternative holds.
    case anyOf = 2010
    /// `oneOf`: not exactly one alternative holds.
    case oneOf = 2011
    /// `not`: the negated constraint holds.
    case not = 2012
    /// `rowCount`: too few or too many records.
    case rowCount = 2020
    /// `columns`: a required column is missing or an undeclared one is present.
    case columns = 2021
    /// `freshness`: the newest value is too old.
    case freshness = 2022
    /// `references`: a value matches no record of the referenced entity.
    case foreignKey = 2030
    /// `immutable`: the value changed on update.
    case immutable = 2040
    /// `transitions`: the change is not an allowed transition.
    case transitions = 2041
    /// `deleteRule: nullify`: a child still references a deleted parent.
    case nullify = 2042
    /// `deleteRule: cascade`: a child of a deleted parent was not deleted.
    case cascade = 2043
    /// `csv.row.ragged`: a CSV row has too few or too many fields.
    case csvRagged = 2101
    /// `csv.encoding`: a CSV field is not valid UTF-8.
    case csvEncoding = 2102
    /// `csv.decimal.point`: a number of a `decimalComma:` column is written with a decimal point.
    case csvDecimalPoint = 2103
    /// `xml.field.repeated`: an XML record repeats a scalar field.
    case xmlRepeatedField = 3101
    /// `xml.decimal.point`: a number of a `decimalComma:` field is written with a decimal point.
    case xmlDecimalPoint = 3102
    /// `jsonl.line.malformed`: a JSON Lines line is not one JSON object.
    case jsonlMalformedLine = 4101
    /// `jsonl.encoding`: a JSON Lines line is not valid UTF-8.
    case jsonlEncoding = 4102
    /// `jsonl.key.duplicate`: a JSON Lines object repeats a key that a field reads.
    case jsonlDuplicateKey = 4103

    /// The code of a group of findings of one record: its only finding's code, or
    /// ``multipleErrors`` (1560) for several, as Core Data's multiple-errors error.
    /// - Parameter codes: The codes of the group's findings.
    /// - Returns: `codes[0]` when there is exactly one, else 1560.
    public static func group(_ codes: [Int]) -> Int {
        codes.count == 1 ? codes[0] : multipleErrors.rawValue
    }
}
