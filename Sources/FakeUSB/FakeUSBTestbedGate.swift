/// Lets one umockdev testbed exist in the process at a time: libumockdev aborts when several run at once (four
/// parallel tests crashed it), and the preload reads a single `UMOCKDEV_DIR`. Suites in different test targets run
/// in parallel, so `.serialized` alone is not enough; every testbed waits here.
actor FakeUSBTestbedGate {
    static let shared = FakeUSBTestbedGate()

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits until no other testbed exists, then holds the gate.
    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the gate to the next waiter, or frees it.
    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
