import Auditor
import Foundation
import SQLiteSupport

/// What a Core Data SQLite store says about itself: its entity numbers (`Z_PRIMARYKEY`), its
/// tables and columns, and its metadata (`Z_METADATA`, a binary property list). Read once,
/// read-only, through the same hardened connection as the SQLite reader (WAL included).
package struct CoreDataStore: Sendable {
    /// The path given.
    public var path: String
    /// `Z_PRIMARYKEY`: entity name to `Z_ENT`, and to its parent's `Z_ENT` (0 for a root).
    public var numbers: [String: Int]
    public var supers: [String: Int]
    /// Every table's columns, by table name.
    public var tables: [String: [String]]
    /// `NSStoreModelVersionIdentifiers` from the metadata.
    public var versionIdentifiers: [String]
    /// The entity names of `NSStoreModelVersionHashes` (nil when the metadata could not be read).
    public var hashedEntities: [String]?
    /// `NSStoreType`.
    public var storeType: String?

    /// Reads the store at `path`.
    /// - Throws: ``AuditError`` as the SQLite reader does (66 missing, 65 not a database,
    ///   75 locked), and `.malformedInput` when the file is a database but not a Core Data store.
    public static func read(path: String) throws(AuditError) -> CoreDataStore {
        let file = try SQLiteDatabaseFile.locate(path, displayPath: path)
        let connection = try SQLiteReadPlan.open(file, mode: SQLiteDatabaseFile.openMode(for: file.fingerprint()))
        do throws(SQLiteFailure) {
            let names = try connection.textRows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                .compactMap { $0.first ?? nil }
            var tables = [String: [String]]()
            for name in names {
                tables[name] = try connection.textRows("SELECT name FROM pragma_table_info(?)", [name])
                    .compactMap { $0.first ?? nil }
            }
            guard tables["Z_PRIMARYKEY"] != nil else {
                throw SQLiteFailure(code: -1, message: names.prefix(12).joined(separator: ", "))
            }
            var numbers = [String: Int](), supers = [String: Int]()
            for row in try connection.textRows("SELECT Z_NAME, Z_ENT, Z_SUPER FROM Z_PRIMARYKEY") {
                guard let name = row[0], let ent = row[1].flatMap({ Int($0) }) else { continue }
                numbers[name] = ent
                supers[name] = row[2].flatMap { Int($0) } ?? 0
            }
            var store = CoreDataStore(path: path, numbers: numbers, supers: supers, tables: tables,
                                      versionIdentifiers: [], hashedEntities: nil, storeType: nil)
            if tables["Z_METADATA"] != nil,
               let hex = try connection.textRows("SELECT hex(Z_PLIST) FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1").first?.first ?? nil,
               let plist = try? PropertyListSerialization.propertyList(from: Self.bytes(hex: hex), format: nil) as? [String: Any] {
                store.versionIdentifiers = (plist["NSStoreModelVersionIdentifiers"] as? [Any])?.map { "\($0)" } ?? []
                store.hashedEntities = (plist["NSStoreModelVersionHashes"] as? [String: Any])?.keys.sorted()
                store.storeType = plist["NSStoreType"] as? String
            }
            return store
        } catch where error.code == -1 {
            throw AuditError(.malformedInput, "\(path) is an SQLite database but not a Core Data store: it has "
                             + "no Z_PRIMARYKEY table (its tables: \(error.message)); give the store file the app "
                             + "writes (Library/Application Support/<App>.sqlite)", location: path)
        } catch {
            throw SQLiteErrors.auditError(error, stage: .schema(what: "the Core Data tables"), file: file)
        }
    }

    /// The bytes of SQLite's `hex()` output (upper-case digits, an even count).
    static func bytes(hex: String) -> Data {
        var data = Data(capacity: hex.utf8.count / 2)
        var high: UInt8?
        for c in hex.utf8 {
            let v: UInt8 = c >= 65 ? c - 55 : c - 48
            if let h = high { data.append(h << 4 | v); high = nil } else { high = v }
        }
        return data
    }

    /// Where the model and the store disagree: entities, tables, columns and join tables,
    /// one sentence each (empty when they agree).
    public func disagreements(with layout: CoreDataStoreLayout) -> [String] {
        let model = layout.model
        var problems = [String]()
        let modelNames = Set(model.entities.map(\.name))
        for entity in model.entities where numbers[entity.name] == nil {
            problems.append("the model's entity '\(entity.name)' (\(model.path):\(entity.line)) is not in the store's Z_PRIMARYKEY")
        }
        for name in numbers.keys.sorted() where !modelNames.contains(name) {
            problems.append("the store's Z_PRIMARYKEY lists the entity '\(name)', which the model lacks")
        }
        for entity in model.entities {
            guard let mine = supers[entity.name] else { continue }
            let expected = entity.parent.flatMap { numbers[$0] } ?? 0
            if mine != expected {
                problems.append("'\(entity.name)' has Z_SUPER \(mine) in the store's Z_PRIMARYKEY but the model's parent is "
                                + (entity.parent.map { "'\($0)' (\(expected))" } ?? "none (0)"))
            }
        }
        if let hashed = hashedEntities {
            let missing = modelNames.subtracting(hashed).sorted(), extra = Set(hashed).subtracting(modelNames).sorted()
            if !missing.isEmpty || !extra.isEmpty {
                problems.append("the store's Z_METADATA version hashes are for another model: "
                                + (missing.isEmpty ? "" : "no hash for \(missing.joined(separator: ", ")) ")
                                + (extra.isEmpty ? "" : "hashes for \(extra.joined(separator: ", ")), not in the model"))
            }
        }
        for root in model.entities where root.parent == nil {
            let table = layout.table(of: root)
            guard let columns = tables[table] else {
                problems.append("the store has no table \(table) for the entity '\(root.name)' (\(model.path):\(root.line))")
                continue
            }
            let have = Set(columns)
            for base in ["Z_PK", "Z_ENT", "Z_OPT"] where !have.contains(base) {
                problems.append("the store's table \(table) lacks the column \(base)")
            }
            let expected = layout.expectedColumns(root: root)
            for (column, owner, property) in expected where !have.contains(column) {
                problems.append("the store's table \(table) lacks the column \(column) for \(owner).\(property)")
            }
            let known = Set(expected.map(\.column) + ["Z_PK", "Z_ENT", "Z_OPT"])
            for column in columns where !known.contains(column) && !Self.bookkeeping(column) {
                problems.append("the store's table \(table) has the column \(column), which no property of '\(root.name)' "
                                + "or its subentities maps to")
            }
        }
        for join in layout.joinTables {
            guard let columns = tables[join.table] else {
                problems.append("the store has no join table \(join.table) for the many-to-many \(join.ownerEntity).\(join.relationship)")
                continue
            }
            for column in [join.ownerColumn, join.destinationColumn] where !columns.contains(column) {
                problems.append("the store's join table \(join.table) lacks the column \(column)")
            }
        }
        return problems
    }

    /// Columns Core Data adds for its own bookkeeping: ordered relationships' `Z_FOK_…`, and a
    /// to-one's destination entity `Z<n><NAME>` (digits after the Z).
    static func bookkeeping(_ column: String) -> Bool {
        if column.hasPrefix("Z_FOK_") || column.hasPrefix("Z_") && column.dropFirst(2).first?.isNumber == true { return true }
        return column.hasPrefix("Z") && column.dropFirst().first?.isNumber == true
    }
}
