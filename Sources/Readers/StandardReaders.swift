import Auditor

/// The readers that ship with auditor.
public enum StandardReaders {
    /// A registry with every built-in reader (CSV; XML and SQLite as they land).
    public static var registry: ReaderRegistry {
        ReaderRegistry([])
    }
}
