import Testing

@Test func ptpTestsBuild() {}
