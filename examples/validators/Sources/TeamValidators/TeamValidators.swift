import Auditor

/// A team's Swift validators, by entity. A rules file runs the ones its entities name in
/// `validators: [id, ...]` (see `people.yml` beside `Package.swift`); the stock `auditor`
/// stops on such a file (exit 78) instead of skipping them.
public enum TeamValidators {
    public static var hooks: ValidationHooks {
        var hooks = ValidationHooks()
        // validateForInsert: valid fields, invalid together.
        hooks.add(RecordValidator(id: "person.licence_age", attributes: ["name", "age", "has_licence"],
                                  message: "{name} is {age} and too young to hold a driving licence.",
                                  summary: "hold a driving licence only from 16") { r in
            guard r.boolean("has_licence") == true, let age = r.integer("age") else { return true }
            return age >= 16
        }, to: "Person")
        // validate<Key>: the team's own rule for an attribute.
        hooks.add(AttributeValidator(id: "person.email.alias", attribute: "email",
                                     BlockValidator(kind: "alias", message: "{field} must be a person's own address, not a +alias; got '{value}'.",
                                                    summary: "not be a +alias") { value in
            !value.description.contains("+")
        }), to: "Person")
        // A reviewer of the built-in violations: the domain's own sentence instead of the
        // generic one; nothing is dropped.
        hooks.add(ViolationReviewer(id: "person.review", attributes: ["name", "age"]) { record, review in
            for (i, v) in review.violations.enumerated() where v.ruleID == "Person.age.max" {
                review.rewrite(i, message: "\(record["name"]) cannot be \(record["age"]): "
                               + "HR records people of working age only (at most 75).")
            }
        }, to: "Person")
        return hooks
    }
}
