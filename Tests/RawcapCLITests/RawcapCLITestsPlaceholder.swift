import Testing

@Test func rawcapCLITestsBuilds() {}
