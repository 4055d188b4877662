#if Spark
import Auditor
import SparkConnect

/// The files of a `FAILFAST` read of csv or json `files:`, read again `PERMISSIVE` with the
/// text of each record that Spark cannot parse in a column of its own: it names those records
/// once the read has stopped at one, which Spark's own error does not (nor, for JSON, the file).
/// A CSV read needs that column in its schema (every column as text: the count of fields is
/// what fails); a JSON read's schema inference adds it.
struct MalformedProbe {
    /// The temporary view's quoted name.
    var view: String
    var format: String
    /// For messages: "csv files '…'".
    var what: String
    var options: [(String, String)]
    /// A CSV read's columns, once known (nil before: a CSV probe then finds nothing).
    var columns: [String]?

    /// The column that holds a record's text.
    static let column = "auditor_malformed_record"

    /// `error` (a read that stopped at a record Spark cannot parse, 65) with the first three
    /// such records, each with its file: one more read of the files, only after the failure.
    /// `error` as it is when that read fails or finds none.
    func explain(_ error: AuditError, session: inout SparkSession) -> AuditError {
        guard error.code == .malformedInput else { return error }
        var schema = ""
        if format == "csv" {
            guard let columns else { return error }
            schema = " (" + (columns + [Self.column]).map { "\(SparkReadPlan.quoted($0)) STRING" }.joined(separator: ", ") + ")"
        }
        let create = "CREATE OR REPLACE TEMPORARY VIEW \(view)\(schema) USING \(format) OPTIONS (\(SparkReadPlan.options(options)))"
        let find = "SELECT input_file_name() AS auditor_file, * FROM \(view) WHERE \(SparkReadPlan.quoted(Self.column)) IS NOT NULL LIMIT 3"
        guard (try? session.run(create, stage: .read(what: what), command: true)) != nil,
              let found = try? session.run(find, stage: .read(what: what)),
              let at = found.columns.firstIndex(where: { $0.name == Self.column }), !found.rows.isEmpty
        else { return error }
        let records = found.rows.map { row -> String in
            func text(_ i: Int) -> String { if case .string(let s) = row[i] { s } else { "" } }
            var record = text(at).replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
            if record.count > 200 { record = String(record.prefix(200)) + "…" }
            return "'\(record)' in \(text(0))"
        }
        var explained = error
        let hint = error.message.hasSuffix(SparkErrors.malformedHint) ? SparkErrors.malformedHint : ""
        explained.message = error.message.dropLast(hint.count)
            + "; the first \(records.count == 1 ? "record" : "\(records.count) records") it cannot parse: " + records.joined(separator: ", ") + hint
        return explained
    }
}
#endif
