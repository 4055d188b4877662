import Auditor
import Foundation

extension Fixture {
    /// Two entities (CSV and SQLite), a structural rule, sampled rules, a masked sensitive value,
    /// a warning and errors, and per-record groups; fails at `--fail-on error`.
    static let failing: Fixture = {
        let ragged = finding("csv.row.ragged@people", 2101, .error, nil, nil, csv(812, 811), key: nil,
                             value: "7 fields", "Row has 7 fields but the header has 6; check the quoting near 'Smith, Jr'.")
        let name77 = finding("person.name.length", 1670, .error, "Person", "name", csv(77, 76), key: "id=76",
                             value: "Al", "Name must be 3 to 32 characters; got 'Al'.")
        let name1043 = finding("person.name.length", 1670, .error, "Person", "name", csv(1043, 1042),
                               key: "id=1042", value: "", "Name must be 3 to 32 characters; got ''.")
        let name1290 = finding("person.name.length", 1670, .error, "Person", "name", csv(1290, 1289),
                               key: "id=1289", value: "Maximilian Alexander von Habsburg-Lothringen",
                               "Name must be 3 to 32 characters; got 44.")
        let email77 = finding("person.email.pattern", 1680, .warning, "Person", "email", csv(77, 76),
                              key: "id=76", value: "al@", "Email must look like name@host; got 'al@'.")
        let email95 = finding("person.email.pattern", 1680, .warning, "Person", "email", csv(95, 94),
                              key: "id=94", value: "bob.example.com", "Email must look like name@host.")
        let email140 = finding("person.email.pattern", 1680, .warning, "Person", "email", csv(140, 139),
                               key: "id=139", value: "carol@@example.com",
                               "Email must look like name@host; got 'carol@@example.com'.")
        let ssn = finding("person.ssn.pattern", 1680, .error, "Person", "ssn", csv(402, 401), key: "id=401",
                          value: "••••", "SSN must match the pattern '^\\d{3}-\\d{2}-\\d{4}$'; got '••••'.")
        let status17 = finding("order.status.enum", 2002, .warning, "Order", "status", sqlite(17, 17),
                               key: "order_id=17", value: "shiped",
                               "Status must be one of 'new', 'paid', 'shipped'; got 'shiped'. Did you mean 'shipped'?")
        let status230 = finding("order.status.enum", 2002, .warning, "Order", "status", sqlite(230, 229),
                                key: "order_id=230", value: "PAID",
                                "Status must be one of 'new', 'paid', 'shipped'; got 'PAID'. Did you mean 'paid'?")
        let status1002 = finding("order.status.enum", 2002, .warning, "Order", "status", sqlite(1002, 1001),
                                 key: "order_id=1002", value: nil, "Status must be one of 'new', 'paid', 'shipped'.")

        let personRules = [
            rule("csv.row.ragged@people", nil, "people", nil, "structure", .error, 2101,
                 "every row has as many fields as the header", evaluated: 2000, violations: 1, samples: [ragged]),
            rule("person.id.required", "Person", "people", "id", "required", .error, 1570,
                 "id is present", evaluated: 2000),
            rule("person.id.unique", "Person", "people", "id", "unique", .error, 1551,
                 "id is unique", evaluated: 2000),
            rule("person.name.length", "Person", "people", "name", "minLength+maxLength", .error, 1670,
                 "name has 3 to 32 characters", evaluated: 2000, violations: 14, samples: [name77, name1043, name1290]),
            rule("person.email.pattern", "Person", "people", "email", "pattern", .warning, 1680,
                 "email looks like name@host", evaluated: 1988, violations: 20, samples: [email77, email95, email140]),
            rule("person.ssn.pattern", "Person", "people", "ssn", "pattern", .error, 1680,
                 "ssn is NNN-NN-NNNN (sensitive)", evaluated: 1500, violations: 1, samples: [ssn]),
            rule("person.age.range", "Person", "people", "age", "minimum+maximum", .warning, 1610,
                 "age is from 0 to 150", evaluated: 2000),
            rule("person.birthdate.type", "Person", "people", "birthdate", "type", .error, 2001,
                 "birthdate is a date", evaluated: 2000),
        ]
        let orderRules = [
            rule("order.total.type", "Order", "orders", "total", "type", .error, 2001,
                 "total is a number", evaluated: 1250),
            rule("order.status.enum", "Order", "orders", "status", "enum", .warning, 2002,
                 "status is new, paid or shipped", evaluated: 1250, violations: 3,
                 samples: [status17, status230, status1002]),
            rule("order.quantity.integral", "Order", "orders", "quantity", "integral", .error, 2003,
                 "quantity is a whole number", evaluated: 1250),
        ]
        let inputs = [
            peopleInput,
            InputSummary(source: "orders", path: "orders.sqlite", format: "sqlite", bytes: 4_194_304,
                         records: 1250, complete: true, error: nil, seconds: 0.2),
        ]
        let entities = [
            EntityOutcome(name: "Person", source: "people", records: 2000, violatingRecords: 31,
                          violations: 36, ruleIDs: personRules.map(\.id)),
            EntityOutcome(name: "Order", source: "orders", records: 1250, violatingRecords: 3,
                          violations: 3, ruleIDs: orderRules.map(\.id)),
        ]
        let records = [
            RecordFindings(entity: "Person", location: csv(77, 76), key: "id=76", findings: [name77, email77]),
            RecordFindings(entity: "Person", location: csv(95, 94), key: "id=94", findings: [email95]),
            RecordFindings(entity: "Person", location: csv(140, 139), key: "id=139", findings: [email140]),
            RecordFindings(entity: "Order", location: sqlite(17, 17), key: "order_id=17", findings: [status17]),
            RecordFindings(entity: "Order", location: sqlite(230, 229), key: "order_id=230", findings: [status230]),
            RecordFindings(entity: "Order", location: sqlite(1002, 1001), key: "order_id=1002",
                           findings: [status1002]),
        ]
        let report = AuditReport(
            toolVersion: "0.1.0", rulesFile: "rules/people.yml", startedAt: startedAt,
            durationSeconds: 1.234567891, failOn: .error, maxSamples: 3, inputs: inputs,
            rules: personRules + orderRules, entities: entities, records: records)
        return Fixture(name: "failing", report: report)
    }()

    /// An XML input that stopped with a parse error after 1,042 records: the verdict is
    /// INCOMPLETE even though an error rule was also violated in what was read.
    static let incomplete: Fixture = {
        let total = finding("order.total.type", 2001, .error, "Order", "total",
                            RecordLocation(path: "orders.xml", line: 5210, record: 1001), key: "id=A-1001",
                            value: "12,50", "Total must be a number; got '12,50'. Use '.' as the decimal mark.")
        let rules = [
            rule("person.id.required", "Person", "people", "id", "required", .error, 1570,
                 "id is present", evaluated: 2000),
            rule("order.total.type", "Order", "orders", "total", "type", .error, 2001,
                 "total is a number", evaluated: 1042, violations: 1, samples: [total]),
            rule("order.status.enum", "Order", "orders", "status", "enum", .warning, 2002,
                 "status is new, paid or shipped", evaluated: 1042),
        ]
        let inputs = [
            peopleInput,
            InputSummary(source: "orders", path: "orders.xml", format: "xml", bytes: 49_152, records: 1042,
                         complete: false,
                         error: "orders.xml:5216:7: Opening and ending tag mismatch: order line 5210 and orders; "
                             + "the file looks truncated, export it again",
                         seconds: 0.05),
        ]
        let entities = [
            EntityOutcome(name: "Person", source: "people", records: 2000, violatingRecords: 0, violations: 0,
                          ruleIDs: ["person.id.required"]),
            EntityOutcome(name: "Order", source: "orders", records: 1042, violatingRecords: 1, violations: 1,
                          ruleIDs: ["order.total.type", "order.status.enum"]),
        ]
        let report = AuditReport(
            toolVersion: "0.1.0", rulesFile: "rules/shop.yml", startedAt: startedAt, durationSeconds: 0.75,
            failOn: .warning, maxSamples: 5, inputs: inputs, rules: rules, entities: entities,
            records: [RecordFindings(entity: "Order", location: total.location, key: total.key, findings: [total])])
        return Fixture(name: "incomplete", report: report)
    }()
}
