import PTP

/// A window onto another source: GetPartialObject's answer.
struct SliceDataSource: PTPDataSource {
    let base: any PTPDataSource
    let offset: UInt64
    let byteCount: UInt64

    func read(at position: UInt64, maxByteCount: Int) async throws -> [UInt8] {
        try await base.read(at: offset + position, maxByteCount: Int(min(UInt64(maxByteCount), byteCount - position)))
    }

    func bytesInMemory(at position: UInt64, maxByteCount: Int) -> ArraySlice<UInt8>? {
        base.bytesInMemory(
            at: offset + position, maxByteCount: Int(min(UInt64(maxByteCount), byteCount - position)))
    }
}
