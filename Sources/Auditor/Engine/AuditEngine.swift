import Foundation

/// How an audit runs.
public struct AuditOptions: Sendable {
    /// Evaluation threads (reading and merging run on the calling thread).
    public var jobs: Int
    /// Records per chunk.
    public var chunkSize: Int
    /// Samples kept per rule, and violating records kept per entity.
    public var maxSamples: Int
    public var failOn: FailThreshold
    /// Source name → path that replaces the rules file's path (options are kept).
    public var sourcePaths: [String: String]
    /// Called on the calling thread after each merged chunk (for progress displays).
    public var progress: (@Sendable (Progress) -> Void)?
    /// Receives every violating record with all its findings (`--failures-out`).
    public var findingSink: (any FindingSink)?

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int = 8192,
                maxSamples: Int = 20, failOn: FailThreshold = .error, sourcePaths: [String: String] = [:],
                progress: (@Sendable (Progress) -> Void)? = nil, findingSink: (any FindingSink)? = nil) {
        self.findingSink = findingSink
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

    public init(registry: ReaderRegistry, options: AuditOptions = AuditOptions(), toolVersion: String = "dev") {
        self.registry = registry
        self.options = options
        self.toolVersion = toolVersion
    }

    /// Audits every entity of the plan.
    /// - Throws: ``AuditError`` `.invalidRules` when the plan does not fit an input (an attribute
    ///   that is not a field, an unknown format); input problems are returned in the result.
    public func run(_ plan: AuditPlan) throws -> AuditResult {
        let started = Date()
        let clock = ContinuousClock.now
        var inputs = [InputSummary]()
        var rules = [RuleOutcome]()
        var entities = [EntityOutcome]()
        var records = [RecordFindings]()
        var errors = [AuditError]()
        for entity in plan.entities {
            guard let source = plan.source(named: entity.source) else { continue }
            let t0 = ContinuousClock.now
            let path = options.sourcePaths[source.name] ?? source.resolvedPath
            let display = options.sourcePaths[source.name] ?? source.resolvedPath
            let factory = try factory(for: source, path: path)
            var summary = InputSummary(source: source.name, path: display, format: factory.format,
                                       bytes: Self.fileSize(path), records: 0, complete: true, error: nil, seconds: 0)
            let request = ReaderRequest(sourceName: source.name, path: path, displayPath: display,
                                        options: source.options[factory.format], fields: entity.fields)
            let reader: any RecordReader
            do {
                reader = try factory.open(request)
            } catch let e as AuditError where e.code == .invalidRules {
                throw e
            } catch {
                let e = Self.auditError(error, path: display)
                errors.append(e)
                summary.complete = false
                summary.error = e.description
                summary.errorStatus = e.code.exitStatus
                inputs.append(summary)
                let unbound = try? BoundEntity(plan: entity, schema: Schema(fields: entity.fields), structural: [],
                                               locationStyle: .ordinal, displayPath: display)
                if let unbound {
                    let acc = EntityAccumulator(entity: unbound, maxSamples: options.maxSamples)
                    rules += acc.outcomes()
                    entities.append(EntityOutcome(name: entity.name, source: source.name, records: 0,
                                                  violatingRecords: 0, violations: 0, ruleIDs: unbound.plan.rules.map(\.id)))
                }
                continue
            }
            let bound = try BoundEntity(plan: entity, schema: reader.schema, structural: reader.structuralRules,
                                        locationStyle: reader.locationStyle, displayPath: display, catalog: plan.catalog)
            let acc = EntityAccumulator(entity: bound, maxSamples: options.maxSamples, sink: options.findingSink)
            let progress = options.progress
            let failure = Pipeline.run(reader: reader, chunkSize: options.chunkSize, jobs: options.jobs,
                                       evaluate: { ChunkEvaluator.evaluate(bound, $0) },
                                       merge: { ev in
                                           acc.merge(ev)
                                           progress?(AuditOptions.Progress(source: source.name, records: acc.recordsRead,
                                                                           bytesRead: reader.bytesRead, totalBytes: reader.totalBytes))
                                       })
            if let sinkError = acc.sinkError {
                throw AuditError(.cannotCreateOutput, "cannot write the failures file: \(sinkError)")
            }
            var stop = failure
            if stop == nil {
                do { try reader.finish() } catch { stop = error }
            }
            if let stop {
                let e = Self.auditError(stop, path: display)
                if e.code == .invalidRules { throw e }
                errors.append(e)
                summary.complete = false
                summary.error = e.description
                summary.errorStatus = e.code.exitStatus
            }
            summary.records = acc.recordsRead
            summary.seconds = (ContinuousClock.now - t0).seconds
            inputs.append(summary)
            let outcomes = acc.outcomes()
            rules += outcomes
            records += acc.records
            entities.append(EntityOutcome(name: entity.name, source: source.name, records: acc.recordsRead,
                                          violatingRecords: acc.violatingRecords,
                                          violations: outcomes.reduce(0) { $0 + $1.violations },
                                          ruleIDs: outcomes.map(\.id)))
        }
        if let sink = options.findingSink {
            do { try sink.finish() } catch {
                throw AuditError(.cannotCreateOutput, "cannot write the failures file: \(error)")
            }
        }
        let report = AuditReport(toolVersion: toolVersion, rulesFile: plan.rulesPath, startedAt: started,
                                 durationSeconds: (ContinuousClock.now - clock).seconds, failOn: options.failOn,
                                 maxSamples: options.maxSamples, inputs: inputs, rules: rules, entities: entities,
                                 records: records)
        return AuditResult(report: report, inputErrors: errors)
    }

    private func factory(for source: SourceSpec, path: String) throws -> ReaderFactory {
        if let format = source.format, let f = registry.factory(format: format) { return f }
        if let f = registry.factory(forPath: path) { return f }
        let hint = "add 'format: \(registry.formats.first ?? "csv")' to the source (known formats: \(registry.formats.joined(separator: ", ")))"
        throw AuditError.invalidRules([Diagnostic(mark: source.pathMark,
                                                  message: "cannot tell the format of '\(path)' from its extension; \(hint)")])
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
