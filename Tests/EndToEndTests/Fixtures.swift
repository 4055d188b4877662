import Foundation

/// Small rules files and data written into a ``Scratch`` folder by the tests.
enum Fixture {
    /// A rules file over a three-column CSV `id,name,age` at `path` (relative to the rules file).
    ///
    /// `name` must have at least 3 characters, so a short name is one finding of
    /// `P.name.minLength`. `entityLines` are added under the entity (e.g. `severity: warning`).
    static func rules(path: String, csv: String = "{ delimiter: \",\", header: true }",
                      entityLines: [String] = [], namePattern: String? = nil) -> String {
        var text = """
            version: 1
            sources:
              people:
                path: \(path)
                csv: \(csv)
            entities:
              P:
                source: people
                key: [id]

            """
        for line in entityLines { text += "    \(line)\n" }
        text += """
                attributes:
                  id: { type: integer, required: true }
                  name: { type: string, minLength: 3\(namePattern.map { ", pattern: \"\($0)\"" } ?? "") }
                  age: { type: integer }

            """
        return text
    }

    /// Rules that `examples/people/departments.csv` satisfies (it has no faults).
    static var departmentRules: String {
        let csv = Auditor.packageRoot.appendingPathComponent("examples/people/departments.csv").path
        return """
            version: 1
            sources:
              departments:
                path: "\(csv)"
            entities:
              Department:
                source: departments
                key: [id]
                attributes:
                  id: { type: integer, required: true, unique: true, min: 1, max: 25 }
                  name: { type: string, required: true, minLength: 2, pattern: "[A-Za-z ]+" }

            """
    }
}
