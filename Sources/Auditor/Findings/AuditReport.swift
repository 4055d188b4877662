import Foundation

/// The result of one audit: everything every reporter needs, nothing format-specific.
///
/// Deterministic: for the same rules and inputs it is identical whatever `--jobs` and chunk
/// size (only ``startedAt``, ``durationSeconds`` and per-input ``InputSummary/seconds`` vary).
public struct AuditReport: Sendable {
    public var toolVersion: String
    /// The rules file as given on the command line.
    public var rulesFile: String
    public var startedAt: Date
    public var durationSeconds: Double
    public var failOn: FailThreshold
    /// The maximum number of samples stored per rule (and of record groups).
    public var maxSamples: Int
    public var inputs: [InputSummary]
    /// Every rule, in rules-file order (structural rules of a source first).
    public var rules: [RuleOutcome]
    public var entities: [EntityOutcome]
    /// The first ``maxSamples`` violating records of each entity with all their findings
    /// (Core Data's multiple-errors error with its detailed errors).
    public var records: [RecordFindings]
    /// Every finding's fingerprint by rule, when the audit collected them
    /// (``AuditOptions/collectFingerprints``): what a later run's baseline compares against.
    public var fingerprints: FingerprintSet?
    /// The baseline comparison, when one was made (``applyBaseline(_:source:)``).
    public var baseline: BaselineInfo?
    /// `--fail-on-new`: only rules with new findings (against ``baseline``) fail the run.
    public var failOnNew = false
    /// The history run this report was recorded as, when `--history` is in use.
    public var historyRun: Int?

    public init(toolVersion: String, rulesFile: String, startedAt: Date, durationSeconds: Double,
                failOn: FailThreshold, maxSamples: Int, inputs: [InputSummary], rules: [RuleOutcome],
                entities: [EntityOutcome], records: [RecordFindings]) {
        self.toolVersion = toolVersion
        self.rulesFile = rulesFile
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.failOn = failOn
        self.maxSamples = maxSamples
        self.inputs = inputs
        self.rules = rules
        self.entities = entities
        self.records = records
    }

    /// Rules with at least one violation.
    public var violatedRules: [RuleOutcome] { rules.filter { $0.violations > 0 } }

    /// Rules whose violations fail the run under ``failOn`` (violated beyond their threshold).
    /// With ``failOnNew`` and a baseline, only rules with new findings fail.
    public var failingRules: [RuleOutcome] {
        rules.filter { r in
            guard r.status == .violated, failOn.fails(r.severity) else { return false }
            if failOnNew, baseline != nil { return (r.baseline?.new ?? r.violations) > 0 }
            return true
        }
    }

    /// Rules with violations within their threshold.
    public var toleratedRules: [RuleOutcome] { rules.filter { $0.status == .tolerated } }

    /// Records with at least one finding, over all entities.
    public var violatingRecords: Int { entities.reduce(0) { $0 + $1.violatingRecords } }

    /// How the process exits for this report: the first input that could not be read decides
    /// (65, 66, 74, 75...), then rule failures (1), else 0.
    public var exitStatus: ExitStatus {
        if let s = inputs.lazy.compactMap(\.errorStatus).first { return s }
        return failingRules.isEmpty ? .passed : .ruleFailures
    }

    /// Whether every input was read to its end.
    public var complete: Bool { inputs.allSatisfy(\.complete) }

    /// The verdict: an incomplete read is never "passed".
    public var outcome: Outcome {
        if !complete { return .incomplete }
        return failingRules.isEmpty ? .passed : .failed
    }

    /// Total records read over all inputs.
    public var totalRecords: Int { inputs.reduce(0) { $0 + $1.records } }

    public enum Outcome: String, Sendable {
        case passed
        case failed
        /// An input could not be read to its end; findings cover what was read.
        case incomplete
    }
}

/// One audited input.
public struct InputSummary: Sendable, Equatable {
    /// The source name in the rules file.
    public var source: String
    /// The path as findings show it.
    public var path: String
    public var format: String
    public var bytes: Int64?
    public var records: Int
    /// False when the reader stopped early (malformed or unreadable input).
    public var complete: Bool
    /// Why it stopped early: `people.xml:1043:7: ...`.
    public var error: String?
    /// The exit status that error implies (65 malformed, 66 missing, 74 I/O, 75 transient).
    public var errorStatus: ExitStatus?
    public var seconds: Double
    /// True for a source's previous snapshot (`--previous`).
    public var isPrevious = false
    /// The database engine that ran the rules (`pushdown`); nil when they ran in the process.
    public var ranIn: String? = nil
    /// Why a source that asked for pushdown was read in full instead.
    public var pushdownRefused: String? = nil
    /// The bytes the unique key sets held when they outgrew the memory limit: they were
    /// spilled to disk and the input read again (`--memory-limit`); nil when they fit.
    public var keysSpilled: Int? = nil
    /// The bytes the key sets that other entities reference held when they outgrew the
    /// memory limit: they were spilled to disk, and each input that references them was read
    /// once more to look its keys up there (`--memory-limit`); nil when they fit.
    public var referencedKeysSpilled: Int? = nil

    public init(source: String, path: String, format: String, bytes: Int64?, records: Int,
                complete: Bool, error: String?, errorStatus: ExitStatus? = nil, seconds: Double, isPrevious: Bool = false) {
        self.isPrevious = isPrevious
        self.source = source
        self.path = path
        self.format = format
        self.bytes = bytes
        self.records = records
        self.complete = complete
        self.error = error
        self.errorStatus = errorStatus
        self.seconds = seconds
    }
}

/// One rule's result.
public struct RuleOutcome: Sendable, Equatable {
    public var id: String
    /// The entity, or nil for a source's structural rules.
    public var entity: String?
    public var source: String
    /// The attribute(s) the rule checks, if any.
    public var attribute: String?
    /// What kind of constraint: `required`, `type`, `minLength`, `pattern`, `unique`, `structure`...
    /// (`minLength+maxLength` when several constraints share the id).
    public var kind: String
    public var severity: Severity
    /// The primary code: the first constraint's (kept for readers of one code).
    public var code: Int
    /// Every code the rule's findings can carry, ``code`` first: one per constraint sharing the
    /// id (`person.name.length`: 1670 for `minLength`, 1660 for `maxLength`).
    public var codes: [Int]
    /// What the rule requires, in words: "name has at least 3 characters".
    public var summary: String
    /// Records the rule was evaluated on (the entity's records, minus excluded ones).
    public var evaluated: Int
    /// Violating records (a record counts at most once per rule).
    public var violations: Int
    /// The first violations in input order, at most the report's `maxSamples`.
    public var samples: [Finding]
    /// How many violations are tolerated (empty: none).
    public var threshold: Threshold
    /// Records the rule did not evaluate because an input was missing or invalid (record rules).
    public var skipped: Int
    /// Violations not listed as findings because one root-cause finding stands for them (a
    /// column none of whose values has the declared type); they are counted in ``violations``.
    public var suppressed = 0
    /// Violations not listed as findings because a Swift reviewer (`ViolationReviewer`)
    /// suppressed them or merged them into another finding, by the reviewer's id; they are
    /// counted in ``violations``.
    public var suppressedByHook: [String: Int] = [:]
    /// Where the rule is declared: `rules/people.yml:21:9`; nil for a reader's structural rules.
    public var definedAt: String?
    /// The rule's `description:` (what it is for), when the rules file gives one.
    public var description: String?
    /// The rule's `hint:` (how to fix a violation), shown after each finding's message.
    public var hint: String?
    /// New, existing and resolved findings against a baseline, when one was given.
    public var baseline: RuleBaseline?
    /// Violations over the last runs of the history, when `--history` is in use.
    public var trend: RuleTrend?
    /// The most frequent failing values, most frequent first (see `FrequentValues`).
    public var frequentValues: [ValueCount] = []
    /// The database engine that decided which records pass (`pushdown`); nil: the process.
    public var ranIn: String? = nil
    /// Why this rule of a pushed-down source ran in the process instead (the database sent
    /// every record where it may fail); nil otherwise.
    public var pushdownRefused: String? = nil

    public init(id: String, entity: String?, source: String, attribute: String?, kind: String,
                severity: Severity, code: Int, codes: [Int]? = nil, summary: String, evaluated: Int, violations: Int,
                samples: [Finding], threshold: Threshold = Threshold(), skipped: Int = 0, definedAt: String? = nil) {
        self.id = id
        self.entity = entity
        self.source = source
        self.attribute = attribute
        self.kind = kind
        self.severity = severity
        self.code = code
        self.codes = codes ?? [code]
        self.summary = summary
        self.evaluated = evaluated
        self.violations = violations
        self.samples = samples
        self.threshold = threshold
        self.skipped = skipped
        self.definedAt = definedAt
    }

    /// The verdict, before `--fail-on` (see ``AuditReport/failingRules``).
    public var status: RuleStatus {
        if violations == 0 { return evaluated == 0 ? .notEvaluated : .passed }
        return threshold.tolerates(violations: violations, evaluated: evaluated) ? .tolerated : .violated
    }

    /// violations / evaluated, 0 when nothing was evaluated.
    public var rate: Double { evaluated == 0 ? 0 : Double(violations) / Double(evaluated) }
    /// True when there are more violations than stored samples.
    public var sampled: Bool { violations > samples.count }
}

/// One entity's totals.
public struct EntityOutcome: Sendable, Equatable {
    public var name: String
    public var source: String
    public var records: Int
    /// Records with at least one violation of any rule.
    public var violatingRecords: Int
    /// Sum of violations over the entity's rules.
    public var violations: Int
    /// Ids of the entity's rules (structural rules of its source included), in report order.
    public var ruleIDs: [String]
    /// Changes since the previous snapshot, when the audit compared snapshots.
    public var lifecycle: LifecycleSummary?

    public init(name: String, source: String, records: Int, violatingRecords: Int, violations: Int,
                ruleIDs: [String], lifecycle: LifecycleSummary? = nil) {
        self.lifecycle = lifecycle
        self.name = name
        self.source = source
        self.records = records
        self.violatingRecords = violatingRecords
        self.violations = violations
        self.ruleIDs = ruleIDs
    }
}

/// All findings of one record.
public struct RecordFindings: Sendable, Equatable {
    public var entity: String
    public var location: RecordLocation
    public var key: String?
    public var findings: [Finding]

    /// The group's code: its only finding's code, or 1560 (NSValidationMultipleErrorsError)
    /// when the record has several findings.
    public var code: Int { FindingCode.group(findings.map(\.code)) }

    public init(entity: String, location: RecordLocation, key: String?, findings: [Finding]) {
        self.entity = entity
        self.location = location
        self.key = key
        self.findings = findings
    }
}
