import ArgumentParser

/// `auditor`: the root command.
struct AuditorCommand: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "auditor",
        abstract: "Audit CSV, XML, SQLite, JSON Lines and Parquet exports, or PostgreSQL and Spark tables, against declarative business rules.",
        discussion: """
            Exit status: 0 passed, 1 rule failures at the failing severity, 64 usage, \
            65 malformed input, 66 missing input, 70 internal error, 73 cannot write report, \
            74 I/O error, 75 transient (retry), 78 invalid rules file.
            """,
        version: version,
        subcommands: [RunCommand.self, CheckCommand.self, ProfileCommand.self, HistoryCommand.self, ImportCommand.self],
        defaultSubcommand: nil)
}
