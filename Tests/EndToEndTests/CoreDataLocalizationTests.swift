import Foundation
import Testing

/// A model's localizations (`<lang>.lproj/<Model>Model.strings`) become message catalogs
/// beside the imported rules (issue 18): entity and property names are display names that
/// `--locale` puts into the messages; error strings translate the rules that carry them;
/// what names nothing is a note, never dropped in silence.
@Suite("Core Data localizations") struct CoreDataLocalizationTests {
    @Test func stringsBecomeACatalogThatLocaleUses() throws {
        let scratch = try Scratch("coredata-l10n"); defer { scratch.remove() }
        let folder = try CoreDataImportTests.generate(into: scratch)
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path,
                                        "--store", folder.appendingPathComponent("Shop.sqlite").path, "-o", scratch.path("rules.yml")])
        #expect(imported.status == 0, "\(imported)")
        let catalog = try String(contentsOfFile: scratch.path("messages/de.yml"), encoding: .utf8)
        #expect(catalog.contains("locale: \"de\""))
        #expect(catalog.contains("\"Party\": \"Partner\""))
        #expect(catalog.contains("\"Employee.salary\": \"Gehalt\""))
        // The fixture's error string matches no rule's message: a note, not silence.
        #expect(imported.stderrText.contains("'ErrorString/Name too short': no rule has this message"), "\(imported.stderrText)")
        let german = try Auditor.run(["run", scratch.path("rules.yml"), "--locale", "de"])
        #expect(german.stdoutText.contains("Gehalt must be at least 0"), "\(german.stdoutText)")
        let english = try Auditor.run(["run", scratch.path("rules.yml")])
        #expect(english.stdoutText.contains("salary must be at least 0"))
    }

    /// An error string that is a rule's message translates that rule; escapes, comments and
    /// UTF-16 (as Xcode writes .strings files) are read.
    @Test func errorStringsTranslateTheRulesWithThatMessageAndUTF16IsRead() throws {
        let scratch = try Scratch("coredata-l10n-2"); defer { scratch.remove() }
        let folder = try CoreDataImportTests.generate(into: scratch)
        // The message the importer writes for the Party.name minimum length (its default).
        let rulesText = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path])
        #expect(rulesText.status == 0)
        let strings = """
            // a line comment
            /* a block
               comment */
            "Entity/Party" = "Partei \\"P\\"";
            "Property/name/Entity/Party" = "Name\\U00e4";
            Entity/Department = Abteilung;
            "Entity/Nobody" = "x";
            """
        var data = Data([0xFF, 0xFE])
        data.append(strings.data(using: .utf16LittleEndian)!)
        try data.write(to: folder.appendingPathComponent("de.lproj/ShopModel.strings"))
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path,
                                        "--store", folder.appendingPathComponent("Shop.sqlite").path, "-o", scratch.path("rules.yml")])
        #expect(imported.status == 0, "\(imported)")
        let catalog = try String(contentsOfFile: scratch.path("messages/de.yml"), encoding: .utf8)
        #expect(catalog.contains("\"Party\": \"Partei \\\"P\\\"\""), "\(catalog)")
        #expect(catalog.contains("\"Party.name\": \"Nameä\""), "\(catalog)")
        #expect(catalog.contains("\"Department\": \"Abteilung\""), "\(catalog)")
        #expect(imported.stderrText.contains("'Entity/Nobody': names no entity or property of the rules"))
        let check = try Auditor.run(["run", scratch.path("rules.yml"), "--locale", "de"])
        #expect(check.status == 1, "\(check)")
        #expect(check.stdoutText.contains("Nameä"), "display names reach the messages")
    }

    @Test func aBrokenStringsFileIsExit65WithItsLine() throws {
        let scratch = try Scratch("coredata-l10n-3"); defer { scratch.remove() }
        let folder = try CoreDataImportTests.generate(into: scratch)
        try "\"Entity/Party\" = \"Partner\";\n\"Entity/Employee\" \"Mitarbeiter\";\n"
            .write(to: folder.appendingPathComponent("de.lproj/ShopModel.strings"), atomically: true, encoding: .utf8)
        let imported = try Auditor.run(["import", "coredata", folder.appendingPathComponent("Shop.xcdatamodeld").path,
                                        "-o", scratch.path("rules.yml")])
        #expect(imported.status == 65, "\(imported)")
        #expect(imported.stderrText.contains("ShopModel.strings"))
        #expect(imported.stderrText.contains("expected '='"))
        #expect(imported.stderrText.contains("line 2"))
    }
}

extension CoreDataLocalizationTests {
    /// A catalog already beside the rules is kept unless --force, like the rules file itself.
    @Test func anExistingCatalogIsNotReplacedWithoutForce() throws {
        let scratch = try Scratch("coredata-l10n-4"); defer { scratch.remove() }
        let folder = try CoreDataImportTests.generate(into: scratch)
        try FileManager.default.createDirectory(atPath: scratch.path("messages"), withIntermediateDirectories: true)
        _ = try scratch.write("messages/de.yml", "locale: de\n")
        let model = folder.appendingPathComponent("Shop.xcdatamodeld").path
        let refused = try Auditor.run(["import", "coredata", model, "-o", scratch.path("rules.yml")])
        #expect(refused.status == 73, "\(refused)")
        #expect(refused.stderrText.contains("de.yml' already exists; pass --force"))
        #expect(try String(contentsOfFile: scratch.path("messages/de.yml"), encoding: .utf8) == "locale: de\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("rules.yml")))
        let forced = try Auditor.run(["import", "coredata", model, "-o", scratch.path("rules.yml"), "--force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(try String(contentsOfFile: scratch.path("messages/de.yml"), encoding: .utf8).contains("names:"))
    }
}
