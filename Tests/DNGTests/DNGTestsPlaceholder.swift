import Testing

@Test func dNGTestsBuilds() {}
