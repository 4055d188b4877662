// Builds validators in code, validates a few values and a small in-memory record set,
// and prints the violations. Run: swift run --package-path examples/validators ValidatorsExample
import Auditor

// MARK: - Validators on values

let zip = StringValidator(pattern: try Pattern("[0-9]{5}"))
let address = KeyedCollectionValidator(
    keys: ["zip": AnyOf([zip, StringValidator(enum: ["n/a"])]),
           "city": TypedValidator(.string, then: StringValidator(minLength: 2, maxLength: 40))],
    requiredKeys: ["city"],
    allowedKeys: ["city", "zip"])
let phones = CollectionValidator(
    minCount: 1, maxCount: 3,
    each: AllOf([TypeValidator(.string), StringValidator(pattern: try Pattern("\\+?[0-9 ]{3,20}"))]),
    uniqueItems: true)
let age = NumberValidator(min: 0, max: 150, integral: true,
                          message: "{field} must be a whole number from {min} to {max}; got {value}.")

func show(_ title: String, _ violations: [Violation], as field: String) {
    print("\(title): \(violations.isEmpty ? "valid" : "\(violations.count) violation(s)")")
    for v in violations { print("  [\(v.code) \(v.kind)] \(v.named(field).message)") }
}

show("address", address.validate(.map(["city": "Oslo", "zip": "0150"])), as: "address")
show("address", address.validate(.map(["zip": "n/a", "country": "NO"])), as: "address")
show("phones", phones.validate(["+47 22 00 00 00", "call me", "+47 22 00 00 00"]), as: "phones")
show("age", age.validate("12.5"), as: "age")
show("age", age.validate(-3.5), as: "age")

// MARK: - A constraint tree from YAML, as a rules file writes it

let yaml = """
    minCount: 1
    each: { type: string, maxLength: 8 }
    uniqueItems: true
    """
var diagnostics = [Diagnostic]()
if let tags = ConstraintTreeCompiler().compile(try YAMLLoader.load(yaml, file: "tags.yml"), into: &diagnostics) {
    show("tags", tags.validate(["swift", "validation", "swift"]), as: "tags")
}
let broken = try YAMLLoader.load("each: { maxLenght: 8 }", file: "tags.yml")
_ = ConstraintTreeCompiler().compile(broken, into: &diagnostics)
for d in diagnostics { print("diagnostic: \(d)") }

// MARK: - Hooks on records (validate<Key> and validateForInsert)

let fields = ["name", "age", "has_licence", "phones"]
let people: [(String, String, String, [String])] = [
    ("Anna", "34", "true", ["+47 123"]),
    ("Tim", "14", "true", ["555", "call me"]),
    ("Zoe", "12", "false", []),
]
var builder = RecordChunkBuilder(columnCount: fields.count, firstRecord: 0)
for (i, p) in people.enumerated() {
    builder.beginRecord(location: Int64(i + 2))
    builder.setText(0, p.0)
    builder.setText(1, p.1)
    builder.setText(2, p.2)
    builder.setComposite(3, .list(p.3.map { builder.appendTextCell(Array($0.utf8)) }))
}
let chunk = builder.build()
let layout = RecordLayout(schema: Schema(fields: fields), types: ["age": .integer, "has_licence": .boolean])

var hooks = ValidationHooks()
hooks.add(AttributeValidator(id: "person.phones", attribute: "phones", phones), to: "Person")
hooks.add(RecordValidator(id: "person.licence_age", attributes: ["name", "age", "has_licence"],
                          message: "{name} is {age} and too young to hold a driving licence.") { r in
    guard r.boolean("has_licence") == true, let age = r.integer("age") else { return true }
    return age >= 16
}, to: "Person")

let person = hooks["Person"]
for problem in hooks.problems(entity: "Person", attributes: fields) { print("problem: \(problem)") }
for hit in person.evaluate(chunk, layout: layout) {
    let view = RecordView(chunk: chunk, row: hit.row, layout: layout)
    print("line \(view.location): \(person.ruleIDs[hit.rule]): \(hit.violation.message)")
}

// MARK: - Lifecycle hooks (validateForUpdate with committedValuesForKeys, validateForDelete)

// The same record in the previous snapshot and in this one; an audit with --previous
// (AuditOptions.previousPaths) builds these views itself, for the hooks whose `on:` matches.
func salaryChunk(_ name: String, _ salary: String) -> RecordChunk {
    var b = RecordChunkBuilder(columnCount: 2, firstRecord: 0)
    b.beginRecord(location: 2)
    b.setText(0, name)
    b.setText(1, salary)
    return b.build()
}
let salaryLayout = RecordLayout(columns: ["name": 0, "salary": 1], types: ["salary": .decimal])
let raiseCap = RecordValidator(id: "person.raise.cap", attributes: ["name", "salary"], on: [.update],
                               message: "{name}'s salary rose from {previous.salary} to {salary}, over 50 %.") { r in
    guard let now = r.decimal("salary"), let before = r.previous?.decimal("salary") else { return true }
    return now <= before * 1.5
}
let committed = RecordView(chunk: salaryChunk("Bob", "2000"), row: 0, layout: salaryLayout)
let updated = RecordView(chunk: salaryChunk("Bob", "3500"), row: 0, layout: salaryLayout,
                         previous: committed, event: .update)
print("\(raiseCap.id) on \(raiseCap.on.map { "\($0)" } ?? "every record"), salary changed: \(updated.changed("salary"))")
for v in raiseCap.validate(updated) { print("  \(v.message)") }

// MARK: - A reviewer of the built-in violations: consumable messages

// In an audit, a reviewer runs on each record with violations and sees them all: it may
// rewrite a message, merge several into one, suppress one (still counted by its rule, and
// reported as "suppressed by hook person.review") or add its own. No violation disappears silently.
let reviewer = ViolationReviewer(id: "person.review", attributes: ["name", "status"]) { record, review in
    let name = review.violations.indices.filter { review.violations[$0].attribute == "name" }
    if name.count > 1 { review.merge(name, message: "'\(record["name"])' is not a proper name.") }
    for (i, v) in review.violations.enumerated() {
        if v.ruleID == "Person.salary.min" { review.rewrite(i, message: "A salary cannot be negative.") }
        if v.ruleID == "Person.status.enum", record.string("status") == "retired" { review.suppress(i) }
    }
    if review.violations.count >= 3 {
        review.add(Violation(kind: "record", code: 1550, message: "This record needs a closer look."))
    }
}
hooks.add(reviewer, to: "Person")
var review = ViolationReview([
    .init(ruleID: "Person.name.minLength", code: 1670, attribute: "name", message: "name is too short"),
    .init(ruleID: "Person.name.pattern", code: 1680, attribute: "name", message: "name must match [A-Z].*"),
])
reviewer.review(RecordView(chunk: chunk, row: 1, layout: layout), &review)
for (k, v) in review.violations.enumerated() {
    print("\(v.ruleID): \(review.suppressedBy[k].map { "suppressed by hook \($0)" } ?? v.message)")
}
