/// The tables of a history database, its version and its migrations.
///
/// A history is identified by `PRAGMA application_id` (``applicationID``) and versioned by
/// `PRAGMA user_version` (``version``). To change the schema: bump ``version``, add the SQL that
/// brings version N-1 to N to ``migrations`` under key N, and update ``objects``. A store opened
/// for writing applies the missing migrations in one transaction; a store opened for reading
/// refuses an older file (the next `auditor run --history` upgrades it) and every store refuses
/// a newer one.
enum HistorySchema {
    /// The schema version this auditor writes and reads.
    static let version: Int32 = 1

    /// `PRAGMA application_id` of every history: "AUDT" in ASCII.
    static let applicationID: Int32 = 0x4155_4454

    /// Version N-1 → N, by N. Empty while there is only version 1.
    static let migrations: [Int32: String] = [:]

    /// The whole schema of ``version``, for a new file.
    ///
    /// No STRICT tables and no `WITHOUT ROWID`: the file stays readable by any SQLite 3 since
    /// 3.8, so people can inspect their history with whatever `sqlite3` they have.
    static let create = """
        CREATE TABLE runs (
            id               INTEGER PRIMARY KEY,
            started_at       TEXT    NOT NULL,          -- ISO 8601 UTC, 2026-11-20T02:00:00Z
            duration_seconds REAL    NOT NULL,
            tool_version     TEXT    NOT NULL,
            rules_path       TEXT    NOT NULL,          -- as given on the command line
            rules_sha256     TEXT,                      -- of the rules file's bytes
            outcome          TEXT    NOT NULL,          -- passed, failed, incomplete
            exit_status      INTEGER NOT NULL,          -- the report's exit status
            fail_on          TEXT    NOT NULL,          -- error, warning, never
            fail_on_new      INTEGER NOT NULL DEFAULT 0,
            total_records    INTEGER NOT NULL,
            baseline_source  TEXT,                      -- when a baseline was applied
            has_fingerprints INTEGER NOT NULL DEFAULT 0 -- rows in fingerprints are kept
        );
        CREATE TABLE inputs (
            run      INTEGER NOT NULL REFERENCES runs(id),
            position INTEGER NOT NULL,
            source   TEXT    NOT NULL,
            path     TEXT    NOT NULL,
            format   TEXT    NOT NULL,
            bytes    INTEGER,
            sha256   TEXT,                              -- of the file's bytes
            records  INTEGER NOT NULL,
            complete INTEGER NOT NULL,
            PRIMARY KEY (run, position)
        );
        CREATE TABLE rule_counts (
            run               INTEGER NOT NULL REFERENCES runs(id),
            position          INTEGER NOT NULL,         -- report order
            rule_id           TEXT    NOT NULL,         -- with source: a reader's structural rules
            source            TEXT    NOT NULL,         -- (csv.row.ragged) have one id per source
            entity            TEXT,
            severity          TEXT    NOT NULL,
            code              INTEGER NOT NULL,
            evaluated         INTEGER NOT NULL,
            violations        INTEGER NOT NULL,
            skipped           INTEGER NOT NULL,
            status            TEXT    NOT NULL,         -- passed, tolerated, violated, not-evaluated
            new_findings      INTEGER,                  -- the three are NULL without a baseline
            existing_findings INTEGER,
            resolved_findings INTEGER,
            median            REAL,                     -- the jump test's median of earlier runs
            jumped            INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (run, position)
        );
        CREATE INDEX rule_counts_by_rule ON rule_counts (rule_id, run);
        CREATE TABLE fingerprints (
            run     INTEGER NOT NULL REFERENCES runs(id),
            rule_id TEXT    NOT NULL,
            count   INTEGER NOT NULL,
            data    BLOB    NOT NULL,                   -- count x 8 bytes: sorted little-endian UInt64
            PRIMARY KEY (run, rule_id)
        );
        """

    /// Every schema object of ``version`` (SQLite's own `sqlite_autoindex_*` aside), by name.
    /// A file with anything else (a trigger, a view, another table) is not written to: a
    /// trigger would run our inserts through someone else's SQL.
    static let objects: [String: String] = [
        "runs": "table", "inputs": "table", "rule_counts": "table", "fingerprints": "table",
        "rule_counts_by_rule": "index",
    ]

    /// Runs whose fingerprints are kept. Only the latest complete run is ever used (as the next
    /// run's baseline); two more are kept so a run can be re-compared by hand. Fingerprints
    /// cost 8 bytes per finding and run, so keeping them all would grow a nightly history by
    /// gigabytes a year; the counts of every run are kept forever.
    static let fingerprintRunsKept = 3
}
