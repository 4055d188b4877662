import Foundation

/// Everything one audit needs: the rules (a file or a compiled plan), the readers, the source
/// overrides and previous snapshots, the options, the baseline and the history. Run it with
/// ``AuditSession/run()``; `auditor run` builds one from its arguments, so a library user who
/// builds the same request gets exactly the CLI's audit.
///
/// Messages of usage errors name the CLI's options (`--source`, `--fail-on-new`...), which are
/// documented in `docs/`; each such option is one property here.
public struct AuditRequest {
    /// What to audit.
    public enum Rules {
        /// A rules file: parsed, validated against the registry's formats and compiled.
        case file(String)
        /// A plan already compiled (``AuditSession/loadPlan(_:registry:structuralRules:catalog:now:sources:sourceFormats:)``).
        case plan(AuditPlan)
    }

    /// Which history the run is recorded in.
    public enum HistoryChoice: Sendable, Equatable {
        /// The rules file's `history:`, if any.
        case fromRules
        /// This database (`--history PATH`), whatever the rules file says.
        case path(String)
        /// None (`--no-history`), even if the rules file names one.
        case none
    }

    /// The bytes of `--memory-limit`: a whole number with an optional unit K, M, G or T
    /// (powers of 1024; `KB`, `KiB`… too), at least 1 MiB; nil otherwise.
    public static func byteSize(_ text: String) -> Int? {
        let units: [(String, Int)] = [("T", 40), ("G", 30), ("M", 20), ("K", 10), ("", 0)]
        var t = text.uppercased()
        for suffix in ["IB", "B"] where t.hasSuffix(suffix) && t.count > suffix.count {
            t.removeLast(suffix.count)
            break
        }
        for (unit, shift) in units where t.hasSuffix(unit) {
            let digits = t.dropLast(unit.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = Int(digits), n > 0,
                  n <= Int.max >> shift, n << shift >= 1 << 20 else { return nil }
            return n << shift
        }
        return nil
    }

    /// Seconds since 1970 of `2026-11-20` (midnight UTC) or `2026-11-20T06:00:00Z` (`--as-of`),
    /// or nil when the text is neither.
    public static func instant(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { p in
            ByteParsers.datetime(p) ?? ByteParsers.date(p).map { Int64($0) * 86400 }
        }
    }

    public struct SourcePath: Sendable, Equatable {
        public var name: String
        /// A file, or (`--source`) a glob or a folder.
        public var path: String
        /// `NAME+=PATH`: adds the path to the source's files instead of replacing them.
        package var adds = false

        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }

        /// `NAME=PATH` or `NAME+=PATH` (`--source`, `--previous`), or nil without a name or a path.
        public init?(argument: String) {
            guard let eq = argument.firstIndex(of: "="), eq != argument.startIndex, argument.last != "=" else { return nil }
            var name = argument[..<eq]
            let adds = name.hasSuffix("+")
            if adds { name = name.dropLast() }
            guard !name.isEmpty else { return nil }
            self.init(name: String(name), path: String(argument[argument.index(after: eq)...]))
            self.adds = adds
        }
    }

    /// A file the caller writes after the audit (a report, the failures file): the session
    /// refuses, before reading any data, one that reaches an input, the rules file, the history
    /// or another output.
    public struct Output: Sendable, Equatable {
        /// The option that names it, for messages (`--output`, `--report`, `--failures-out`).
        public var option: String
        public var path: String
        /// What it is, for messages (`the report`, `the failures file`).
        public var what: String

        public init(option: String, path: String, what: String) {
            self.option = option
            self.path = path
            self.what = what
        }
    }

    public var rules: Rules
    /// The readers by format (`Readers`' `StandardReaders.registry` for the built-in ones).
    public var registry: ReaderRegistry
    /// The registry's structural rules (a message catalog may translate them by id).
    public var structuralRules: [StructuralRule] = []
    /// The messages of the rules.
    public var catalog: MessageCatalog = .english
    /// `--locale`: when set, the session looks the catalog up (`MessageLocale`) beside the
    /// rules file and in `$AUDITOR_MESSAGES_PATH`, instead of using ``catalog``.
    public var locale: String?
    /// `--source NAME=PATH`: replaces a source's path (a file, a quoted glob or a folder),
    /// keeping its options; `NAME+=PATH` adds a path to the files of an earlier `NAME=PATH`,
    /// else to the rules file's. Naming a source twice with `=` is a usage error (64).
    public var sources: [SourcePath] = []
    /// `--source-format NAME=FORMAT`: reads a source as this format (a `format:` that wins over
    /// the rules file's), for standard input (`-`) or a path whose extension does not tell it.
    public var sourceFormats: [SourcePath] = []
    /// `--previous NAME=PATH`: a source's previous snapshot, for lifecycle rules.
    public var previous: [SourcePath] = []
    /// `--changed-only`: evaluate rules only on inserted and updated records (needs ``previous``).
    public var changedOnly = false
    /// `--pushdown`: run the rules inside the database of every source that can.
    public var pushdown = false
    /// `--memory-limit`: the bytes an entity's unique key sets may hold before they spill to
    /// disk; nil: half the RAM.
    public var memoryLimit: Int?
    /// Evaluation threads.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Records per chunk.
    public var chunkSize = 8192
    /// Samples kept per rule, and violating records kept per entity.
    public var maxSamples = 20
    /// The least severity that fails the run.
    public var failOn = FailThreshold.error
    /// Fail only on rules with findings the baseline (or the history's last run) does not have.
    public var failOnNew = false
    /// The reference instant of freshness rules, seconds since 1970; nil is now.
    public var asOf: Int64?
    /// `--baseline`: the earlier run's findings, loaded before the audit.
    public var baseline: (any BaselineSource)?
    /// Which history records the run.
    public var history = HistoryChoice.fromRules
    /// Opens the history at a path (`AuditorHistory`'s `SQLiteRunHistory.factory`). Without
    /// it, a run that would record a history fails with a usage error.
    public var historyFactory: ((String) -> any RunHistory)?
    /// Fingerprint every finding even without a baseline or history (a JSON report that a later
    /// run may use as its baseline lists them).
    public var collectFingerprints = false
    /// The files the caller will write after the audit.
    public var outputs: [Output] = []
    /// Checks one output against the protected files before the audit (`Reports`'
    /// `OutputFile.check`); the session adds the checks between outputs and the history.
    public var outputCheck: ((Output, ProtectedFiles) throws -> Void)?
    /// Makes the sink of every failing record (`--failures-out`) once the outputs are checked;
    /// its argument is what it must never write.
    public var findingSink: ((ProtectedFiles) throws -> (any FindingSink)?)?
    /// Called after each merged chunk (progress displays).
    public var progress: (@Sendable (AuditOptions.Progress) -> Void)?
    /// Swift validators registered on entities. Every validator that an entity of the rules
    /// file names (`validators: [id, ...]`) must be here, or the run stops before reading (78).
    public var hooks = ValidationHooks()
    /// Run only the hooks that the rules file names in each entity's `validators:`, not every
    /// registered one: an auditor binary that carries a team's validators (``hooks``) and
    /// audits many rules files. False (every hook runs) for a library user's own registration.
    public var runsOnlyNamedValidators = false
    /// The version reports name.
    public var toolVersion = "dev"
    /// Called once the plan is compiled, before anything is checked or read (`-vv` traces it).
    public var onPlan: ((AuditPlan) -> Void)?

    /// A request with default options.
    /// - Parameters:
    ///   - rules: A rules file or a compiled plan.
    ///   - registry: The readers by format.
    public init(rules: Rules, registry: ReaderRegistry) {
        self.rules = rules
        self.registry = registry
    }
}
