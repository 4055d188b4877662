import Foundation

/// How an audit runs.
public struct AuditOptions: Sendable {
    /// Threads of the pipeline (`Pipeline`): with more than one, a producer thread reads (or
    /// cuts a CSV file into morsels) while the others, the calling thread among them, parse and
    /// evaluate; the calling thread merges in input order.
    public var jobs: Int
    /// Records per chunk.
    public var chunkSize: Int
    /// Samples kept per rule, and violating records kept per entity.
    public var maxSamples: Int
    public var failOn: FailThreshold
    /// Source name → path that replaces the rules file's path (options are kept).
    public var sourcePaths: [String: String]
    /// Source name → the files, globs and folders that replace the rules file's `path:`
    /// (`--source`, `--source NAME+=PATH`); before ``sourcePaths``.
    package var sourceFiles: [String: [String]] = [:]
    /// Called on the calling thread after each merged chunk (for progress displays).
    public var progress: (@Sendable (Progress) -> Void)?
    /// Receives every violating record with all its findings (`--failures-out`).
    public var findingSink: (any FindingSink)?
    /// The reference instant for freshness rules, seconds since 1970 (`--as-of`; default now).
    public var asOf: Int64
    /// Swift validators registered on entities (validate<Key> and record hooks); they run in
    /// the same parallel engine as the rules file's rules.
    public var hooks = ValidationHooks()
    /// Fingerprint every finding (``AuditReport/fingerprints``), for baselines and history.
    /// Costs building each violation's finding, not only the sampled ones.
    public var collectFingerprints = false
    /// Source name → the path of its previous snapshot (`--previous`): records are classified
    /// inserted, updated, deleted or unchanged, and lifecycle rules are evaluated.
    public var previousPaths: [String: String] = [:]
    /// Evaluate rules only on inserted and updated records (cross-record rules still see
    /// every record's keys): `--changed-only`.
    public var changedOnly = false
    /// Run the rules inside the database of every source that can (`--pushdown`), as
    /// `pushdown: true` on a source does for that source.
    public var pushdown = false
    /// The bytes an entity's unique key sets may hold before they spill to disk
    /// (`--memory-limit`); nil: half the RAM.
    public var memoryLimit: Int?

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int = 8192,
                maxSamples: Int = 20, failOn: FailThreshold = .error, sourcePaths: [String: String] = [:],
                progress: (@Sendable (Progress) -> Void)? = nil, findingSink: (any FindingSink)? = nil,
                asOf: Int64 = Int64(Date().timeIntervalSince1970)) {
        self.findingSink = findingSink
        self.asOf = asOf
        self.jobs = max(1, jobs)
        self.chunkSize = max(1, chunkSize)
        self.maxSamples = max(0, maxSamples)
        self.failOn = failOn
        self.sourcePaths = sourcePaths
        self.progress = progress
    }

    public struct Progress: Sendable {
        public var source: String
        public var records: Int
        public var bytesRead: Int64
        public var totalBytes: Int64?
    }
}

/// The outcome of ``AuditEngine/run(_:)``: the report and how the process should exit.
public struct AuditResult: Sendable {
    public var report: AuditReport
    /// Inputs that could not be read (fully), in entity order.
    public var inputErrors: [AuditError]

    /// Input errors first (the first one decides: 65, 66, 74, 75), then rule failures (1), else 0.
    public var exitStatus: ExitStatus { report.exitStatus }
}

/// Runs a compiled plan: for each entity, opens its source through the registry, binds the
/// plan to the reader's schema, evaluates chunks in parallel and merges them in order.
public struct AuditEngine: Sendable {
    public var registry: ReaderRegistry
    public var options: AuditOptions
    public var toolVersion: String
    /// Whether this run's reader of standard input has opened it (reset by ``run(_:)``).
    let standardInputClaim = StandardInputClaim()

    public init(registry: ReaderRegistry, options: AuditOptions = AuditOptions(), toolVersion: String = "dev") {
        self.registry = registry
        self.options = options
        self.toolVersion = toolVersion
    }

    /// Audits every entity of the plan: referenced entities first (their key sets are built
    /// while they are read), then the others; results are reported in rules-file order.
    /// - Throws: ``AuditError`` `.invalidRules` when the plan does not fit an input (an unknown
    ///   format); input problems (an attribute that is not a field of the input included) are
    ///   returned in the result, and the other entities are still audited.
    public func run(_ plan: AuditPlan) throws -> AuditResult {
        var plan = plan
        try plan.decodeReaderOptions(registry)     // once, unless the plan already carries them
        try checkStandardInput(plan)
        standardInputClaim.reset()
        let started = Date()
        let clock = ContinuousClock.now
        var passes = [Int: EntityPass]()
        var tables = [Int: [KeyTable]]()
        var snapshots = [Int: Snapshot]()
        for ei in Self.auditOrder(plan) {
            let entity = plan.entities[ei]
            for rule in entity.keyRules {
                guard case .reference(let target, _, _) = rule.kind, tables[target] == nil else { continue }
                tables[target] = try keyPass(plan, target)       // itself, or a cycle
            }
            if tables[ei] == nil, let keys = try keysBeforePushdown(plan, ei) { tables[ei] = keys }
            var context = PassContext()
            context.tables = tables
            context.buildProvidedKeys = tables[ei] == nil
            // Delete rules of parents that reference this entity read their previous snapshots.
            for (pi, parent) in plan.entities.enumerated() where parent.deleteRules.contains(where: { $0.childEntity == ei }) {
                if let index = snapshots[pi]?.index, index.complete { context.previous[pi] = index }
            }
            let snapshot = try previousSnapshot(plan, ei)
            snapshots[ei] = snapshot
            let mode: LifecycleContext.Mode? = snapshot.map { .compare($0.index) }
                ?? (entity.usesLifecycle || options.changedOnly || options.hooks[entity.name].isScoped ? .first : nil)
            var pass = try audit(plan, ei, context: context, prebuilt: tables[ei], lifecycle: mode)
            if let acc = pass.accumulator, tables[ei] == nil, pass.summary.complete {
                tables[ei] = acc.providedTables
            }
            // Deleted records need a second read of the previous snapshot only for the rules that
            // look at them (`on: [delete]`, deny); otherwise the index has what the report shows.
            let rulesSeeDeleted = entity.checks.contains { $0.scope?.contains(.deleted) == true }
                || entity.deleteRules.contains { $0.rule == .deny } || options.hooks[entity.name].seesDeleted
            if let snapshot, let acc = pass.accumulator, snapshot.index.complete, snapshot.index.deletedCount > 0,
               pass.error == nil, !rulesSeeDeleted {
                acc.lifecycle?.addDeleted(from: snapshot.index, keyName: entity.key.count == 1 ? entity.key[0] : nil)
            }
            if let snapshot, let acc = pass.accumulator, snapshot.index.complete, snapshot.index.deletedCount > 0,
               pass.error == nil, rulesSeeDeleted {
                // The previous snapshot again: its deleted records, for `on: [delete]` rules and the report.
                let deleted = try audit(plan, ei, context: PassContext(), prebuilt: nil, lifecycle: .deletePass(snapshot.index),
                                        path: snapshot.path)
                if let d = deleted.accumulator {
                    acc.absorb(d)
                    if let t = d.lifecycle { acc.lifecycle?.absorb(t) }
                }
                if let e = deleted.error { pass.previousError = e }
            }
            passes[ei] = pass
        }
        for (pi, parent) in plan.entities.enumerated() {
            for rule in parent.cardinality {
                guard let p = passes[pi]?.accumulator, let c = passes[rule.childEntity]?.accumulator else { continue }
                p.finishCardinality(rule, childCounts: c.childCounts[rule.childKeyRule] ?? [])
            }
            for rule in parent.deleteRules where rule.rule == .deny {
                guard let p = passes[pi]?.accumulator, let c = passes[rule.childEntity]?.accumulator,
                      let index = snapshots[pi]?.index, index.complete else { continue }
                p.finishDeny(rule, index: index, references: c.deletedReferences[rule.childKeyRule] ?? [:])
            }
        }
        var inputs = [InputSummary]()
        var rules = [RuleOutcome]()
        var entities = [EntityOutcome]()
        var records = [RecordFindings]()
        var errors = [AuditError]()
        var fingerprints = [String: [UInt64]]()
        for (ei, entity) in plan.entities.enumerated() {
            guard let pass = passes[ei] else { continue }
            if let acc = pass.accumulator, let fps = acc.takeFingerprints() {
                for (slot, list) in fps.enumerated() {
                    let rule = acc.entity.plan.rules[slot]
                    let key = Fingerprint.ruleKey(id: rule.id, entity: rule.entity, source: rule.source)
                    // Taken as it is when first seen (`+=` onto `[]` would copy it).
                    if fingerprints[key] == nil { fingerprints[key] = list } else { fingerprints[key]? += list }
                }
            }
            for summary in pass.files.isEmpty ? [pass.summary] : pass.files
            where !inputs.contains(where: { $0.source == summary.source && $0.path == summary.path }) {
                inputs.append(summary)
            }
            if let s = snapshots[ei],
               !inputs.contains(where: { $0.isPrevious && $0.source == s.summary.source && $0.path == s.summary.path }) {
                inputs.append(s.summary)
            }
            if let e = pass.error { errors.append(e) }
            errors += pass.fileErrors
            if let e = snapshots[ei]?.error { errors.append(e) }
            if let e = pass.previousError { errors.append(e) }
            var outcomes = pass.accumulator?.outcomes() ?? []
            for o in outcomes.indices {
                if let reason = pass.inProcess[outcomes[o].id] { outcomes[o].pushdownRefused = reason } else { outcomes[o].ranIn = pass.summary.ranIn }
            }
            func notEvaluated(_ check: Int) {
                let id = (pass.accumulator?.entity.plan ?? entity).rules[(pass.accumulator?.entity.plan ?? entity).checks[check].slot].id
                if let o = outcomes.firstIndex(where: { $0.id == id }) { outcomes[o].evaluated = 0 }
            }
            for rule in entity.keyRules {
                // A reference whose key set could not be read was not evaluated.
                guard case .reference(let target, _, _) = rule.kind, tables[target] == nil else { continue }
                notEvaluated(rule.check)
            }
            for (kr, d) in entity.childDeleteChecks {
                // Delete rules need the parent's complete previous snapshot.
                guard case .reference(let target, _, _) = entity.keyRules[kr].kind else { continue }
                if snapshots[target]?.index.complete != true { notEvaluated(d.check) }
            }
            for rule in entity.deleteRules where rule.rule == .deny && snapshots[ei]?.index.complete != true {
                notEvaluated(rule.check)
            }
            var entityRecords = pass.accumulator?.records ?? []
            if let acc = pass.accumulator { RootCause.collapseFailedColumns(&outcomes, records: &entityRecords, acc) }
            // Two entities of one source both carry its structural rules: report them once.
            rules += outcomes.filter { o in o.entity != nil || !rules.contains { $0.id == o.id && $0.entity == nil } }
            records += entityRecords
            entities.append(EntityOutcome(name: entity.name, source: entity.source, records: pass.summary.records,
                                          violatingRecords: pass.accumulator?.violatingRecords ?? 0,
                                          violations: outcomes.reduce(0) { $0 + $1.violations },
                                          ruleIDs: outcomes.map(\.id),
                                          lifecycle: pass.accumulator?.lifecycle.map { $0.summary(entity) }))
        }
        if let sink = options.findingSink {
            for pass in passes.values { if let e = pass.accumulator?.sinkError { throw Self.sinkError(e) } }
            do { try sink.finish() } catch { throw Self.sinkError(error) }
        }
        var report = AuditReport(toolVersion: toolVersion, rulesFile: plan.rulesPath, startedAt: started,
                                 durationSeconds: (ContinuousClock.now - clock).seconds, failOn: options.failOn,
                                 maxSamples: options.maxSamples, inputs: inputs, rules: rules, entities: entities,
                                 records: records)
        if options.collectFingerprints { report.fingerprints = FingerprintSet(byRule: consume fingerprints) }
        return AuditResult(report: report, inputErrors: errors)
    }

    /// What a source asked to push down (`pushdown: true`, `--pushdown`) got.
    struct Pushdown {
        var engine = ""
        /// The lowered rules; nil when the entity is streamed.
        var lowering: PushdownLowering?
        /// The reader that counts the records that passed.
        var reader: (any PushdownReader)?
        /// Why pushdown was asked for and not done.
        var refused: String?
        /// The records of the read that found the failing values of checks the engine cannot express.
        var settledRecords: Int?
    }

    /// Lowers the entity's rules to the reader's SQL engine, counts the records that surely
    /// pass there and restricts the reader to the others; or says why not.
    private func pushDown(_ plan: AuditPlan, _ ei: Int, reader: any RecordReader, bound: BoundEntity,
                          context: PassContext, lifecycle: LifecycleContext.Mode?, whole: Bool) throws -> Pushdown {
        let entity = plan.entities[ei]
        let asked = plan.source(named: entity.source)?.pushdown == true
        guard options.pushdown || asked else { return Pushdown() }
        guard let target = reader as? any PushdownReader else {
            // --pushdown is for the sources that can; `pushdown: true` on one that cannot is said.
            return Pushdown(refused: asked ? "its format cannot run rules itself (pushdown needs an sqlite:, postgres: or spark: table)" : nil)
        }
        var result = Pushdown(engine: target.dialect.engine)
        if let reason = target.pushdownUnavailable {
            result.refused = reason
            return result
        }
        guard whole, lifecycle == nil, !options.changedOnly else {
            result.refused = "it is compared with a previous snapshot"
            return result
        }
        var why: String?
        do {
            // Checks of values the engine cannot express (patterns, compound constraints): found
            // failing in a read of their columns alone, once the rest of the entity is known to lower.
            // And checks that only their verdict passes (Swift record validators, expressions the
            // engine cannot compute), whose failing records are found by key in the same read.
            let gaps = PushdownLowering.unsettled(bound, dialect: target.dialect)
            let key = PushdownLowering.recordKey(bound, dialect: target.dialect)
                .flatMap { k in plan.entities[ei].attributes.firstIndex { $0.name == k } }
            var settled = [Int: Set<[UInt8]>]()
            var failingRecords: [Int64]?
            let tried = try PushdownLowering.lower(bound, context: context, dialect: target.dialect, settled: gaps.mapValues { _ in [] },
                                                   failingRecords: key.map { _ in [] })
            if !gaps.isEmpty || !tried.byKey.isEmpty {
                let byKey = tried.byKey.isEmpty ? nil : key.map { (key: $0, checks: tried.byKey) }
                switch try failingValues(plan, ei, gaps, bound: bound, byKey: byKey, maxKeys: target.dialect.maxKeySet) {
                case .success(let read): (settled, failingRecords, result.settledRecords) = (read.values, read.keys, read.records)
                case .failure(let unsettled): why = unsettled.reason
                }
            }
            var lowering = try PushdownLowering.lower(bound, context: context, dialect: target.dialect, settled: settled,
                                                      failingRecords: failingRecords)
            if let why { lowering.inProcess = lowering.inProcess.map { ($0.slot, "\($0.reason) (\(why))") } }
            try target.restrict(passing: lowering.passes, counting: lowering.counted)
            result.lowering = lowering
            result.reader = target
        } catch let refusal as PushdownLowering.Refusal {
            result.refused = refusal.reason + (why.map { " (\($0))" } ?? "")
        }
        return result
    }

    /// One entity's pass: its accumulator (nil when nothing could be bound) and input summary.
    struct EntityPass {
        var accumulator: EntityAccumulator?
        var summary: InputSummary
        var error: AuditError?
        /// The delete pass could not read the previous snapshot again.
        var previousError: AuditError?
        /// Per file of a multi-file source: its summary (else empty: ``summary`` is the input's).
        var files: [InputSummary] = []
        /// Files of a multi-file source that were left out (not openable, other fields).
        var fileErrors: [AuditError] = []
        /// Rule id → why it ran in the process, over the records a pushed-down read sent.
        var inProcess: [String: String] = [:]
    }

    struct IndexedChunk: Sendable {
        var rows: SnapshotRows
        var chunk: RecordChunk
    }

    /// An entity's previous snapshot, indexed by key.
    struct Snapshot {
        var index: SnapshotIndex
        var path: String
        var summary: InputSummary
        var error: AuditError?
    }

    /// Reads and indexes an entity's previous snapshot (`--previous`), if it has one.
    /// - Throws: ``AuditError`` `.invalidRules` when the entity has no key to match records by
    ///   (a snapshot that lacks a field is returned with its error, like an unreadable one).
    private func previousSnapshot(_ plan: AuditPlan, _ ei: Int) throws -> Snapshot? {
        let entity = plan.entities[ei]
        guard let path = options.previousPaths[entity.source] else { return nil }
        let t0 = ContinuousClock.now
        let source = plan.source(named: entity.source)
        var summary = InputSummary(source: entity.source, path: SourceURL.redacted(path),
                                   format: source.flatMap { try? factory(for: $0, path: path).format } ?? "",
                                   bytes: Self.fileSize(path), records: 0, complete: true, error: nil, seconds: 0,
                                   isPrevious: true)
        guard !entity.key.isEmpty else {
            throw AuditError.invalidRules([Diagnostic(mark: entity.rules.first?.definedAt ?? source?.mark ?? ConfigMark(file: plan.rulesPath, line: 1, column: 1),
                                                      message: "--previous \(entity.source)=... matches records by the key of '\(entity.name)', but it declares none; add 'key: [id]' (the attributes that identify a record)")])
        }
        let placeholder = SnapshotIndex(attributeCount: entity.attributes.count, textAttributes: [])
        let opened: OpenedInput
        do {
            opened = try open(plan, ei, path: path)
        } catch let e as AuditError where e.code == .invalidRules || e.code == .usage {
            throw e
        } catch {
            let e = Self.auditError(error, path: path)
            placeholder.complete = false
            summary.complete = false
            summary.error = e.description
            summary.errorStatus = e.code.exitStatus
            return Snapshot(index: placeholder, path: path, summary: summary, error: e)
        }
        summary.format = opened.factory.format
        let bound: BoundEntity
        do {
            bound = try BoundEntity(plan: entity, schema: opened.reader.schema, structural: opened.reader.structuralRules,
                                    locationStyle: opened.reader.locationStyle, displayPath: path, catalog: plan.catalog,
                                    inputFields: opened.reader.availableFields, hooks: options.hooks[entity.name])
        } catch let e as AuditError where e.code != .invalidRules {
            // The snapshot lacks a field: it cannot be compared (as if it could not be read).
            placeholder.complete = false
            summary.complete = false
            summary.error = e.description
            summary.errorStatus = e.code.exitStatus
            return Snapshot(index: placeholder, path: path, summary: summary, error: e)
        }
        let lifecycle = LifecycleContext(mode: .first, entity: bound, changedOnly: false)
        guard let shape = lifecycle.keyShape else { return nil }
        let index = SnapshotIndex(attributeCount: entity.attributes.count, textAttributes: lifecycle.textAttributes)
        index.locationStyle = opened.reader.locationStyle
        index.displayPath = path
        let texts = lifecycle.textAttributes
        var failure = Pipeline.run(reader: opened.reader, chunkSize: options.chunkSize, jobs: options.jobs,
                                   evaluate: { (chunk: RecordChunk) -> IndexedChunk in
                                       var excluded = [Bool](repeating: false, count: chunk.count)
                                       for issue in chunk.issues where issue.excludesRecord { excluded[issue.row] = true }
                                       let ex = excluded
                                       let columns = ChunkColumns(bound, chunk, excluded: ex, wide: Set(shape.attributes))
                                       let rows = chunk.bytes.withUnsafeBufferPointer {
                                           Lifecycle.rows(columns, $0, keyShape: shape, textAttributes: texts)
                                       }
                                       return IndexedChunk(rows: rows, chunk: chunk)
                                   },
                                   merge: { (c: IndexedChunk, _) in index.merge(c.rows, chunk: c.chunk) })
        if failure == nil {
            do { try opened.reader.finish() } catch { failure = error }
        }
        summary.records = index.records
        summary.seconds = (ContinuousClock.now - t0).seconds
        var error: AuditError?
        if let failure {
            let e = Self.auditError(failure, path: path)
            if e.code == .invalidRules { throw e }
            error = e
            index.complete = false
            summary.complete = false
            summary.error = e.description
            summary.errorStatus = e.code.exitStatus
        }
        return Snapshot(index: index, path: path, summary: summary, error: error)
    }

    /// Parents before children (references and cardinality), otherwise rules-file order.
    static func auditOrder(_ plan: AuditPlan) -> [Int] {
        var order = [Int]()
        var state = [Int](repeating: 0, count: plan.entities.count)      // 0 new, 1 visiting, 2 done
        func visit(_ i: Int) {
            guard state[i] == 0 else { return }
            state[i] = 1
            for rule in plan.entities[i].keyRules {
                if case .reference(let t, _, _) = rule.kind, t != i { visit(t) }
            }
            state[i] = 2
            order.append(i)
        }
        for i in plan.entities.indices { visit(i) }
        return order
    }

    /// Reads only the provided keys of an entity (for references to itself or in a cycle).
    /// - Parameter narrow: Read only the key columns, from a reader that can push down (nil otherwise).
    private func keyPass(_ plan: AuditPlan, _ ei: Int, narrow: Bool = false) throws -> [KeyTable]? {
        let opened: OpenedInput
        do {
            opened = try open(plan, ei)
            if narrow {
                let entity = plan.entities[ei]
                guard let reader = opened.reader as? any PushdownReader, reader.pushdownUnavailable == nil,
                      try reader.readOnly(Set(entity.providedKeys.flatMap(\.attributes).map { entity.attributes[$0].name }))
                else { return nil }
            }
        } catch let e as AuditError where e.code == .usage {
            throw e
        } catch {
            return nil
        }
        // An input that lacks a field provides no keys; its own pass reports why.
        guard let bound = try? keysBinding(plan, ei, opened) else { return nil }
        let acc = EntityAccumulator(entity: bound, maxSamples: 0)
        let spillable = spillableProvidedKeys(plan, ei)
        if !spillable.isEmpty { acc.providedBudget = (keySetBudget, spillable) }
        let failure = keysPass(opened.reader, bound, uniqueKeysToo: false) { try acc.mergeKeys($0) }
        return failure == nil ? acc.providedTables : nil
    }

    /// The keys other entities reference, of an entity whose rules may run in its database
    /// (`pushdown`): read first in a pass over only the key columns, so that its own pass need
    /// not build them from every record and can be pushed down. nil where that pass could not
    /// be pushed down anyway (relationship counts, snapshots) or the reader cannot narrow.
    private func keysBeforePushdown(_ plan: AuditPlan, _ ei: Int) throws -> [KeyTable]? {
        let entity = plan.entities[ei]
        guard !entity.providedKeys.isEmpty, entity.cardinality.isEmpty,
              options.pushdown || plan.source(named: entity.source)?.pushdown == true,
              !entity.usesLifecycle, !options.changedOnly, options.previousPaths[entity.source] == nil,
              !options.hooks[entity.name].isScoped,
              let source = plan.source(named: entity.source), let first = entries(source).first,
              (try? factory(for: source, path: first))?.readsKeyColumnsAlone == true else { return nil }
        return try keyPass(plan, ei, narrow: true)
    }

    /// The entity bound to an opened input for a pass that reads only keys.
    func keysBinding(_ plan: AuditPlan, _ ei: Int, _ opened: OpenedInput, hooks: EntityHooks = EntityHooks()) throws -> BoundEntity {
        let reader = opened.reader
        var binding = try BoundEntity(plan: plan.entities[ei], schema: reader.schema, structural: reader.structuralRules,
                                      locationStyle: reader.locationStyle, displayPath: SourceURL.redacted(opened.path), catalog: plan.catalog,
                                      hooks: hooks)
        binding.files = opened.files
        return binding
    }

    /// One pass that extracts only keys (no rule is checked): the provided keys, with
    /// `uniqueKeysToo` the unique rules' keys, and the keys of references to the spilled key
    /// sets in `tables`, each chunk's given to `merge` in input order.
    /// - Returns: The error that stopped the pass (the reader's or `merge`'s), if any.
    func keysPass(_ reader: any RecordReader, _ bound: BoundEntity, uniqueKeysToo: Bool, tables: [Int: [KeyTable]] = [:],
                  merge: (ChunkEvaluation) throws -> Void) -> (any Error)? {
        var keys = PassContext()
        keys.keysOnly = true
        keys.uniqueKeysToo = uniqueKeysToo
        keys.tables = tables
        let context = keys
        return Pipeline.run(reader: reader, chunkSize: options.chunkSize, jobs: options.jobs,
                            evaluate: { ChunkEvaluator.evaluate(bound, $0, context) }, merge: { ev, _ in try merge(ev) })
    }

    /// - Parameters:
    ///   - lifecycle: How records relate to a previous snapshot (nil: no lifecycle rules, no previous).
    ///   - path: Read this file instead of the source's (the delete pass reads the previous snapshot).
    ///   - spilled: The unique rules whose keys were spilled to disk, and their duplicates.
    ///   - sentToSink: Records up to this ordinal already went to the finding sink.
    ///   - dangling: The reference rules whose key sets were spilled to disk, and their dangling records.
    /// - Throws: ``KeySetsOverBudget`` when the unique key sets outgrow the memory limit and the
    ///   input can be read again (see ``audit(_:_:context:prebuilt:lifecycle:path:)``).
    func auditOnce(_ plan: AuditPlan, _ ei: Int, context: PassContext, prebuilt: [KeyTable]?,
                   lifecycle mode: LifecycleContext.Mode? = nil, path: String? = nil,
                   spilled: [Int: DuplicateCursor] = [:], sentToSink: Int = 0,
                   dangling: [Int: DuplicateCursor] = [:]) throws -> EntityPass {
        let entity = plan.entities[ei]
        let t0 = ContinuousClock.now
        let source = plan.source(named: entity.source)
        var display = inputLabel(plan, ei, path: path)
        // The format as the path tells it, for an input that cannot be opened too.
        var summary = InputSummary(source: entity.source, path: display,
                                   format: source.flatMap { try? factory(for: $0, path: display).format } ?? "",
                                   bytes: Self.fileSize(display), records: 0, complete: true, error: nil, seconds: 0)
        /// The entity's rules are not evaluated: the input cannot be opened, or lacks a field.
        func unread(_ e: AuditError) -> EntityPass {
            summary.complete = false
            summary.error = e.description
            summary.errorStatus = e.code.exitStatus
            let unbound = try? BoundEntity(plan: entity, schema: Schema(fields: entity.fields), structural: [],
                                           locationStyle: .ordinal, displayPath: display, catalog: plan.catalog)
            return EntityPass(accumulator: unbound.map { EntityAccumulator(entity: $0, maxSamples: options.maxSamples) },
                              summary: summary, error: e)
        }
        let opened: OpenedInput
        do {
            opened = try open(plan, ei, path: path)
        } catch let e as AuditError where e.code == .invalidRules || e.code == .usage {
            throw e
        } catch {
            return unread(Self.auditError(error, path: display))
        }
        let reader = opened.reader
        display = opened.display
        summary.path = display
        if opened.files != nil { summary.bytes = reader.totalBytes }
        summary.format = opened.factory.format
        let hooks = options.hooks[entity.name]
        let problems = options.hooks.problems(entity: entity.name, attributes: entity.fields,
                                              ruleIDs: entity.rules.map(\.id))
        if !problems.isEmpty {
            throw AuditError(.invalidRules, "the Swift validators of '\(entity.name)' do not fit the rules: "
                                 + problems.joined(separator: "; "))
        }
        var binding: BoundEntity
        do {
            // A multi-file source's header is its first file's.
            binding = try BoundEntity(plan: entity, schema: reader.schema, structural: reader.structuralRules,
                                      locationStyle: reader.locationStyle, displayPath: SourceURL.redacted(opened.path), catalog: plan.catalog,
                                      inputFields: reader.availableFields, hooks: hooks)
        } catch let e as AuditError where e.code != .invalidRules {
            return unread(e)         // the input lacks a field: a data error (65), other entities go on
        }
        binding.displayPath = display
        binding.files = opened.files
        let bound = binding
        let acc = EntityAccumulator(entity: bound, maxSamples: options.maxSamples, sink: options.findingSink,
                                    providedTables: prebuilt, collectFingerprints: options.collectFingerprints)
        acc.spilledDuplicates = spilled
        acc.sentToSink = sentToSink
        acc.danglingReferences = dangling
        if prebuilt == nil, path == nil, !entity.providedKeys.isEmpty {
            let spillable = spillableProvidedKeys(plan, ei)
            if !spillable.isEmpty { acc.providedBudget = (keySetBudget, spillable) }
        }
        var context = context
        if let mode {
            let lifecycle = LifecycleContext(mode: mode, entity: bound, changedOnly: options.changedOnly)
            context.lifecycle = lifecycle
            var index: SnapshotIndex?
            if case .compare(let i) = mode { index = i }
            if case .deletePass(let i) = mode { index = i }
            acc.lifecycle = LifecycleTally(index: index, previousPath: index == nil ? nil : options.previousPaths[entity.source],
                                           attributes: entity.attributes.count, maxSamples: options.maxSamples)
            var seen = Set<Int>()
            for (ci, check) in bound.plan.checks.enumerated() where lifecycle.scopes[ci] != LifecycleScope.current.rawValue {
                if case .record = check.test { continue }
                if seen.insert(check.slot).inserted { acc.scopedSlots.append((check.slot, lifecycle.scopes[ci])) }
            }
        }
        let pushdown: Pushdown
        do {
            pushdown = try pushDown(plan, ei, reader: reader, bound: bound, context: context,
                                    lifecycle: mode, whole: path == nil && opened.files == nil)
        } catch {
            let e = Self.auditError(error, path: display)
            if e.code == .invalidRules || e.code == .internal { throw e }
            return unread(e)
        }
        // Key sets spill only where a second read sees the same records in the same order: a
        // file read in full (a pushed-down read sees only the records that may fail).
        if spilled.isEmpty, pushdown.lowering == nil, Self.canReadTwice(opened) {
            if case .deletePass? = mode {} else { acc.uniqueBudget = keySetBudget }
        }
        summary.ranIn = pushdown.lowering == nil ? nil : pushdown.engine
        summary.pushdownRefused = pushdown.refused
        let evaluationContext = context
        let progress = options.progress
        let failure = Pipeline.run(reader: reader, chunkSize: options.chunkSize, jobs: options.jobs,
                                   evaluate: { ChunkEvaluator.evaluate(bound, $0, evaluationContext) },
                                   merge: { ev, bytesRead in
                                       if acc.recordsRead == 0 {
                                           acc.expectedRecords = Self.expectedRecords(ev.chunk, totalBytes: reader.totalBytes)
                                       }
                                       try acc.merge(ev)
                                       progress?(AuditOptions.Progress(source: entity.source, records: acc.recordsRead,
                                                                       bytesRead: bytesRead, totalBytes: reader.totalBytes))
                                   })
        if let sinkError = acc.sinkError { throw Self.sinkError(sinkError) }
        if let over = failure as? KeySetsOverBudget { throw over }
        var stop = failure
        if stop == nil {
            do { try reader.finish() } catch { stop = error }
        }
        var error: AuditError?
        if let stop {
            let e = Self.auditError(stop, path: display)
            if e.code == .invalidRules { throw e }
            error = e
            summary.complete = false
            summary.error = e.description
            summary.errorStatus = e.code.exitStatus
        }
        if let lowering = pushdown.lowering, let target = pushdown.reader, error == nil {
            var counts = [Int]()
            do { counts = try target.passingCounts() } catch { counts = [] }
            if counts.count == lowering.counted.count + 2 { acc.absorbPassing(lowering, counts: counts) }
            var changed: String?
            if counts.first != acc.recordsRead {
                changed = "\(pushdown.engine) counted \(counts.first.map(String.init) ?? "no") records, but \(acc.recordsRead) were counted and read"
            } else if let first = pushdown.settledRecords, first != acc.recordsRead {
                // The failing values of checks came from a read of their own.
                changed = "the read that checked values first had \(first) records, the audit \(acc.recordsRead)"
            }
            if let changed {
                let e = AuditError(.transient, "the table changed during the audit: \(changed); run again", location: display)
                error = e
                summary.complete = false
                summary.error = e.description
                summary.errorStatus = e.code.exitStatus
            }
        }
        // After the read: a reader may learn its fields only by reading (XML).
        if path == nil { acc.finishTableRules(asOf: options.asOf, inputFields: reader.availableFields) }
        summary.records = acc.recordsRead
        summary.referencedKeysSpilled = acc.providedSpilledBytes ?? prebuilt?.compactMap { $0.spilled?.bytes }.max()
        summary.seconds = (ContinuousClock.now - t0).seconds
        var pass = EntityPass(accumulator: acc, summary: summary, error: error)
        for (slot, reason) in pushdown.lowering?.inProcess ?? [] {
            pass.inProcess[bound.plan.rules[slot].id] = reason
        }
        if let files = opened.files {
            // The pass's error is the earliest failing file's (the reader may have read ahead).
            let stoppedAt = error == nil ? nil : min(files.failedFile ?? files.paths.count - 1, files.paths.count - 1)
            let perFile = Self.fileSummaries(files, summary, stoppedAt: stoppedAt)
            pass.files = perFile.summaries
            pass.fileErrors = perFile.errors
            // A file left out: the source's key set is not complete (references to it are not evaluated).
            if !perFile.errors.isEmpty { pass.summary.complete = false }
        }
        return pass
    }

    /// An estimate of an input's records from its first chunk's text bytes per record, for
    /// sizing key tables once instead of doubling them ~7 times on a million keys. Capped at
    /// one record per 16 bytes of input; nil for small inputs.
    static func expectedRecords(_ chunk: RecordChunk, totalBytes: Int64?) -> Int? {
        guard let total = totalBytes, total > 1 << 20, chunk.count > 0, !chunk.bytes.isEmpty else { return nil }
        let estimate = Double(chunk.count) * Double(total) / Double(chunk.bytes.count)
        return Int(min(estimate * 1.05, Double(total / 16)))
    }

    static func sinkError(_ error: any Error) -> AuditError {
        if let e = error as? AuditError { return e }
        return AuditError(.cannotCreateOutput, "cannot write the failures file: \(error)")
    }

    static func auditError(_ error: any Error, path: String) -> AuditError {
        if let e = error as? AuditError { return e }
        return AuditError(.internal, "unexpected error while reading: \(error)", location: path)
    }

    static func fileSize(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
