import PTP

/// A sink that keeps every byte (the objects in these tests are at most a few megabytes).
actor CollectingSink: PTPDataSink {
    private(set) var bytes: [UInt8] = []

    func dataPhaseWillStart(byteCount: UInt64?) async throws {}
    func write(_ chunk: ArraySlice<UInt8>) async throws { bytes.append(contentsOf: chunk) }
}
