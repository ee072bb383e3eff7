import Testing

@Test func rawDecodersTestsBuilds() {}
