import Auditor

/// The readers that ship with auditor.
public enum StandardReaders {
    /// A registry with every built-in reader: CSV (`.csv`, `.tsv`), XML (`.xml`), SQLite (`.sqlite`,
    /// `.sqlite3`, `.db`), JSON Lines (`.jsonl`, `.ndjson`), Parquet (`.parquet`), PostgreSQL
    /// (`postgresql://` URLs) and Spark Connect (`sc://` URLs; needs the `Spark` trait). Register more with ``ReaderRegistry/register(_:)``.
    public static var registry: ReaderRegistry {
        ReaderRegistry([CSVReader.factory, XMLReader.factory, SQLiteReader.factory, JSONLReader.factory,
                        ParquetReader.factory, PostgresReader.factory, SparkSource.factory])
    }

    /// The structural rules of every built-in reader (a message catalog may translate them by id).
    public static let structuralRules: [StructuralRule] = [
        CSVMessages.raggedRule, CSVMessages.encodingRule, CSVMessages.decimalPointRule, XMLReader.repeatedFieldRule,
        XMLReader.decimalPointRule,
        JSONLMessages.malformedRule, JSONLMessages.encodingRule, JSONLMessages.duplicateKeyRule,
    ]
}
