import Auditor
import Foundation
import AuditorReaders
import Testing

/// Issue 5: compound and collection constraints on XML lists and maps, through the real reader.
@Suite struct XMLCollectionRulesTests {
    @Test(arguments: [1, 2])
    func listAndMapConstraintsOnXML(jobs: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-xmllist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <people>
              <person id="1"><phones><phone>555-0100</phone><phone>555-0101</phone></phones>
                <address><city>Paris</city><zip>75001</zip></address></person>
              <person id="2"><phones></phones><address><zip>7500</zip></address></person>
              <person id="3"><phones><phone>555-0100</phone><phone>555-0100</phone><phone>call me</phone></phones>
                <address><city>Lyon</city><planet>Earth</planet></address></person>
              <person id="4"><phones><phone>555-0199</phone></phones><address><city>Nice</city></address></person>
            </people>
            """
        try xml.write(to: dir.appendingPathComponent("people.xml"), atomically: true, encoding: .utf8)
        let yaml = """
            version: 1
            sources:
              people:
                path: people.xml
                xml:
                  record: person
                  fields:
                    phones: { path: phones/phone, as: list }
                    address: { path: address, as: map }
            entities:
              Person:
                key: [id]
                attributes:
                  id: integer
                  phones:
                    required: true
                    minCount: 2
                    each: { pattern: "[0-9]{3}-[0-9]{4}" }
                    uniqueItems: true
                  address:
                    requiredKeys: [city]
                    allowedKeys: [city, zip]
                    keys: { zip: { pattern: "[0-9]{5}" } }
            """
        let registry = StandardReaders.registry
        let rules = dir.appendingPathComponent("rules.yml").path
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: rules))
        let result = try AuditEngine(registry: registry, options: AuditOptions(jobs: jobs, chunkSize: 1)).run(plan)
        let counts = Dictionary(result.report.rules.map { ($0.id, $0.violations) }, uniquingKeysWith: +)
        #expect(counts["Person.phones.required"] == 1)       // person 2: no phone is a missing list
        #expect(counts["Person.phones.minCount"] == 1)       // person 4: one phone
        #expect(counts["Person.phones.each"] == 1)           // person 3: 'call me'
        #expect(counts["Person.phones.uniqueItems"] == 1)    // person 3: 555-0100 twice
        #expect(counts["Person.address.requiredKeys"] == 1)  // person 2: no city
        #expect(counts["Person.address.allowedKeys"] == 1)   // person 3: planet
        #expect(counts["Person.address.keys"] == 1)          // person 2: zip 7500
        let each = try #require(result.report.rules.first { $0.id == "Person.phones.each" }?.samples.first)
        #expect(each.location.line == 6)
        #expect(each.message.contains("phones[2]"), "\(each.message)")   // 0-based: the third phone
    }
}
