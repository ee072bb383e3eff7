import Testing

@Test func losslessJPEGTestsBuild() {}
