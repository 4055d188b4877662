import Auditor
import Foundation

/// The tables of an SQLite database that `auditor profile` reads without one named: with no
/// rules file to name them, the database's own tables tell them (``ReaderFactory/sniff``,
/// ``ReaderFactory/profiledTables``).
extension SQLiteReader {
    /// `["table": "items"]` when the database has no table or view named like the file
    /// (`shop.sqlite` → `shop`, the profile's default) and exactly one other; empty otherwise, or
    /// when the database cannot be read (opening it for the profile then says why).
    package static func sniffOptions(path: String, displayPath: String) -> [String: String] {
        let tables = otherTables(path: path, displayPath: displayPath)
        return tables.count == 1 ? ["table": tables[0]] : [:]
    }

    /// Every table and view of the database, in the order of their names, when none is named
    /// like the file (`shop.sqlite` → `shop`); empty otherwise, or when the database cannot be read.
    package static func otherTables(path: String, displayPath: String) -> [String] {
        guard let file = try? SQLiteDatabaseFile.locate(path, displayPath: displayPath),
              let connection = try? SQLiteReadPlan.open(file, mode: SQLiteDatabaseFile.openMode(for: file.fingerprint())),
              let rows = try? connection.textRows("SELECT name FROM pragma_table_list WHERE schema = 'main'") else { return [] }
        let tables = rows.compactMap { $0.first ?? nil }.filter { !$0.lowercased().hasPrefix("sqlite_") }.sorted()
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return tables.contains(where: { SQLiteReadPlan.sameName($0, stem) }) ? [] : tables
    }
}
