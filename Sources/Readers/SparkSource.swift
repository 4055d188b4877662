import Auditor

/// The `spark` format: a table or files read by a Spark Connect server (`sc://host:15002`).
///
/// Registered in every build, so that a rules file with a `spark:` block is checked alike and
/// a Spark source never goes silently unread. Built without the `Spark` trait, opening one
/// fails with exit 78 (the rules ask for something this build cannot do) and says how to build
/// it; with the trait it is ``SparkReader``.
package enum SparkSource {
    /// The factory for ``ReaderRegistry`` (format `spark`, URL scheme `sc`).
    package static let factory: ReaderFactory = {
        var factory = ReaderFactory(
            format: "spark", extensions: [],
            decodeOptions: { node throws(AuditError) in
                guard let node, !node.isNull else { return DefaultReaderOptions() }
                return try SparkOptions.decode(node, sourceName: "")
            },
            open: { request in
                #if Spark
                return try SparkReader(request: request)
                #else
                throw AuditError(.invalidRules, "source '\(request.sourceName)' is read through Spark Connect, but this auditor "
                                     + "was built without Spark: build with `swift build --traits Spark`",
                                 location: SourceURL.redacted(request.displayPath))
                #endif
            })
        factory.schemes = ["sc"]
        #if Spark
        factory.readsKeyColumnsAlone = true
        #endif
        return factory
    }()
}
