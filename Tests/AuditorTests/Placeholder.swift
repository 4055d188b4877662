import Testing

@Test func targetBuilds() {}
