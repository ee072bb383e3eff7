/// Turns the raw IFD's chunks, as the test-only libtiff reader returns them, back into samples.
enum RawSampleDecoder {
    /// The `width × height × planes` samples of the raw IFD, row-major and interleaved.
    static func samples(of directory: TIFFReadBack.Directory, planes: Int) throws -> [UInt16] {
        switch directory.compression {
        case 1:
            return try TIFFReadBack.uncompressedSamples(directory)
        default:
            throw TestFailure("compression \(directory.compression) is not decoded by the tests yet")
        }
    }
}
