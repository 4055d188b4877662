import Auditor
import Foundation
import AuditorReaders
import Testing

/// The model file as Xcode writes it, and the store layout derived from it (issue 18).
@Suite struct CoreDataModelTests {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="v7">
            <entity name="Zoo" representedClassName="Zoo" syncable="YES">
                <attribute name="name" attributeType="String" minValueString="1" maxValueString="9" regularExpressionString="[a-z]+"/>
                <relationship name="animals" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Animal" inverseName="zoos" inverseEntity="Animal"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="name"/>
                        <constraint value="city"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Animal" representedClassName="Animal" isAbstract="YES" syncable="YES">
                <attribute name="legs" attributeType="Integer 32" minValueString="0" usesScalarValueType="YES"/>
                <relationship name="zoos" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Zoo" inverseName="animals" inverseEntity="Zoo"/>
            </entity>
            <entity name="Cat" representedClassName="Cat" parentEntity="Animal" syncable="YES"/>
            <entity name="Lion" representedClassName="Lion" parentEntity="Cat" syncable="YES">
                <attribute name="mane" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
            </entity>
            <wormhole name="x"/>
        </model>
        """

    func load() throws -> CoreDataModel {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cd-model-\(UUID().uuidString)/Zoo.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.contents.utf8).write(to: folder.appendingPathComponent("contents"))
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        return try CoreDataModel.load(path: folder.path)
    }

    @Test func parsesEntitiesPropertiesAndConstraints() throws {
        let model = try load()
        #expect(model.entities.map(\.name) == ["Zoo", "Animal", "Cat", "Lion"])
        #expect(model.versionIdentifier == "v7")
        let zoo = try #require(model.entity("Zoo"))
        #expect(zoo.uniquenessConstraints == [["name", "city"]])
        #expect(zoo.attributes.first?.pattern == "[a-z]+" && zoo.attributes.first?.isOptional == false)
        #expect(zoo.relationships.first?.deletionRule == "Cascade")
        let lion = try #require(model.entity("Lion"))
        #expect(model.root(of: lion).name == "Animal")
        #expect(model.descendants(of: try #require(model.entity("Animal"))).map(\.name) == ["Animal", "Cat", "Lion"])
        #expect(model.unknown.map { "\($0.line): \($0.text)" } == ["21: <wormhole> inside <model>"])
    }

    @Test func layoutNumbersByNameAndNamesJoinTablesFromTheFirstSide() throws {
        let model = try load()
        let layout = CoreDataStoreLayout(model: model)
        #expect(layout.numbers == ["Animal": 1, "Cat": 2, "Lion": 3, "Zoo": 4])
        let lion = try #require(model.entity("Lion"))
        #expect(layout.table(of: lion) == "ZANIMAL")
        #expect(layout.entityNumbers(of: try #require(model.entity("Animal"))) == (all: [1, 2, 3], concrete: [2, 3]))
        // (Animal, zoos) sorts before (Zoo, animals): the join table is Animal's, from either side.
        func describe(_ j: CoreDataStoreLayout.JoinTable?) -> String {
            j.map { "\($0.table)(\($0.ownerColumn) \($0.ownerEntity).\($0.relationship), \($0.destinationColumn) \($0.destinationEntity).\($0.inverse))" } ?? "none"
        }
        let expected = "Z_1ZOOS(Z_1ANIMALS Animal.zoos, Z_4ZOOS Zoo.animals)"
        #expect(layout.joinTables.map(describe) == [expected])
        let zoo = try #require(model.entity("Zoo"))
        #expect(describe(layout.joinTable(zoo.relationships[0], of: zoo)) == expected)
        // The store's own numbers win.
        let renumbered = CoreDataStoreLayout(model: model, primaryKeys: ["Zoo": 1, "Animal": 2, "Cat": 3, "Lion": 4])
        #expect(renumbered.joinTables.first?.table == "Z_2ZOOS" && renumbered.joinTables.first?.destinationColumn == "Z_1ZOOS")
        // A store that names the join table from the other side is read from that table.
        let otherSide = CoreDataStoreLayout(model: model, primaryKeys: layout.numbers, storeTables: ["ZANIMAL", "ZZOO", "Z_4ANIMALS"])
        #expect(otherSide.joinTables.map(describe) == ["Z_4ANIMALS(Z_4ZOOS Zoo.animals, Z_1ANIMALS Animal.zoos)"])
        #expect(CoreDataStoreLayout(model: model, primaryKeys: layout.numbers, storeTables: ["ZANIMAL"]).joinTables.map(describe) == [expected])
        #expect(layout.expectedColumns(root: try #require(model.entity("Animal"))).map(\.column) == ["ZLEGS", "ZMANE"])
    }

    @Test func bundleWithoutCurrentVersionAndSeveralVersionsIsRefused() throws {
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("cd-bundle-\(UUID().uuidString)/Zoo.xcdatamodeld")
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        for version in ["Zoo.xcdatamodel", "Zoo 2.xcdatamodel"] {
            let folder = bundle.appendingPathComponent(version)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(Self.contents.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        #expect { _ = try CoreDataModel.load(path: bundle.path) } throws: { error in
            (error as? AuditError)?.code == .missingInput && "\(error)".contains("2 versions and no .xccurrentversion")
        }
        let marker = "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>Zoo 3.xcdatamodel</string></dict></plist>"
        try Data(marker.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect { _ = try CoreDataModel.load(path: bundle.path) } throws: { error in
            "\(error)".contains("names the version 'Zoo 3.xcdatamodel', which the bundle lacks")
        }
    }
}

extension CoreDataModelTests {
    /// Nothing is dropped in silence: a bound the rules cannot hold and an XML attribute the
    /// import does not know are both listed.
    @Test func unreadableBoundsAndUnknownXMLAttributesAreNoted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cd-odd-\(UUID().uuidString)/Odd.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data("""
            <model userDefinedModelVersionIdentifier="">
                <entity name="Odd" syncable="YES">
                    <attribute name="big" attributeType="Integer 64" maxValueString="99999999999999999999" frobnicate="1"/>
                    <attribute name="cost" optional="YES" attributeType="Decimal" minValueString="1e3"/>
                    <attribute name="code" optional="YES" attributeType="String" regularExpressionString="(?=x)x"/>
                </entity>
            </model>
            """.utf8).write(to: folder.appendingPathComponent("contents"))
        let model = try CoreDataModel.load(path: folder.path)
        var writer = CoreDataRulesWriter(layout: CoreDataStoreLayout(model: model), storePath: "Odd.sqlite")
        let rules = writer.render()
        let notes = writer.notes.joined(separator: "\n")
        #expect(notes.contains("'Odd.big' (line 3): the maximum '99999999999999999999' is not a value an attribute of type Integer 64 can have"), "\(notes)")
        #expect(notes.contains("'Odd.cost' (line 4): the minimum '1e3' is not a value an attribute of type Decimal can have"), "\(notes)")
        #expect(notes.contains("'Odd.code' (line 5): the regular expression '(?=x)x' is not imported"), "\(notes)")
        #expect(notes.contains("the XML attribute 'frobnicate=\"1\"' of <attribute name=\"big\"> (line 3): not understood"), "\(notes)")
        #expect(!rules.contains("max:") && !rules.contains("min:") && !rules.contains("pattern:"), "\(rules)")
    }
}
