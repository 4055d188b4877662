/// Decoding a rules file's option blocks with the readers' factories, once per plan.
extension ReaderRegistry {
    /// Decodes every option block of every source once, with the factory of its format
    /// (blocks of formats not registered are left alone, as unknown formats are).
    /// - Parameter sources: The rules file's sources.
    /// - Returns: The decoded options of the blocks that decode, and every problem of the
    ///   others, located in the rules file (sources in order, each one's formats by name).
    package func decodeOptions(_ sources: [SourceSpec]) -> (options: SourceOptions, diagnostics: [Diagnostic]) {
        var out = SourceOptions()
        var diagnostics = [Diagnostic]()
        for source in sources {
            for (format, node) in source.options.sorted(by: { $0.key < $1.key }) {
                guard let factory = factory(format: format) else { continue }
                do throws(AuditError) {
                    out.bySource[source.name, default: [:]][format] = try factory.decodeOptions(node)
                } catch {
                    diagnostics += error.diagnostics.isEmpty ? [Diagnostic(mark: node.mark, message: error.message)]
                                                              : error.diagnostics
                }
            }
        }
        return (out, diagnostics)
    }
}

extension AuditPlan {
    /// Decodes the sources' option blocks with the registry's factories and adopts them
    /// (`adopt(_:)`), unless the plan already carries decoded options.
    /// - Throws: ``AuditError`` `.invalidRules` with every located problem of the blocks.
    public mutating func decodeReaderOptions(_ registry: ReaderRegistry) throws(AuditError) {
        guard readerOptions == nil else { return }
        let (options, diagnostics) = registry.decodeOptions(sources)
        if !diagnostics.isEmpty { throw AuditError.invalidRules(diagnostics) }
        adopt(options)
    }
}
