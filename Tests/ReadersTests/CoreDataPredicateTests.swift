import AuditorReaders
import Testing

/// NSPredicate format strings to auditor expressions (issue 18: "the predicate language's
/// common subset"), and the constructs outside it, each refused with a reason.
@Suite struct CoreDataPredicateTests {
    let translator = CoreDataPredicate(attributes: [
        "age": .number, "name": .string, "active": .boolean, "born": .datetime, "email": .string,
    ])

    @Test(arguments: [
        ("age >= 18", "age >= 18"),
        ("age => 18 AND age =< 65", "(age >= 18 and age <= 65)"),
        ("age = 3 OR age <> 4", "(age == 3 or age != 4)"),
        ("NOT (age < 0) && active == YES", "(!(age < 0) and active == true)"),
        ("!active == NO || name == nil", "(!(active == false) or isNull(name))"),
        ("email != nil", "!isNull(email)"),
        ("name IN {'Ann', \"Bob\"}", "name in [\"Ann\", \"Bob\"]"),
        ("age IN {1, 2, -3}", "age in [1, 2, -3]"),
        ("name BEGINSWITH 'A'", "startsWith(name, \"A\")"),
        ("name ENDSWITH[c] 'SON'", "endsWith(lower(name), \"son\")"),
        ("name CONTAINS \"a\\\"b\"", "contains(name, \"a\\\"b\")"),
        ("name ==[c] 'ANN'", "lower(name) == \"ann\""),
        ("name LIKE 'A*n?.x'", "matches(name, \"A.*n.\\\\.x\")"),
        ("email MATCHES '[^@]+@[^@]+'", "matches(email, \"[^@]+@[^@]+\")"),
        ("born > CAST(0, \"NSDate\")", "born > datetime(\"2001-01-01T00:00:00Z\")"),
        ("born < CAST(-978307200, 'NSDate')", "born < datetime(\"1970-01-01T00:00:00Z\")"),
    ])
    func translates(_ predicate: String, _ expression: String) throws {
        #expect(try translator.translate(predicate) == expression)
    }

    @Test(arguments: [
        ("department.title == 'Sales'", "key path"),
        ("ANY tags.label == 'vip'", "aggregates"),
        ("name == $NAME", "variable"),
        ("age == 'x'", "another type"),
        ("born > 700000000", "another type"),
        ("name CONTAINS[cd] 'e'", "[cd]"),
        ("salary > 3", "not an attribute"),
        ("active < YES", "ordering of the Boolean"),
        ("email MATCHES '(?=a)b'", "pattern"),
        ("age >= 18 AND", "ends too early"),
        ("SUBQUERY(tags, $t, $t.label == 'x').@count > 0", "aggregates"),
    ])
    func refuses(_ predicate: String, _ reason: String) {
        #expect {
            _ = try translator.translate(predicate)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
