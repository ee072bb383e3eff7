import PTPRecord

/// libFuzzer entry point: reads the input as a pcap or pcapng capture and rebuilds its PTP conversation.
///
/// `PcapError` and `RecordError` are correct outcomes; a crash, a trap, a hang or a huge allocation is a finding.
/// When the conversation rebuilds, it must be self-consistent: every event points at a transaction that exists,
/// and reading the packets alone gives the same packet count twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPcap(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let source = MemoryCaptureSource(bytes)
    var first = 0
    var second = 0
    if var reader = try? CaptureFileReader(source: source) {
        while let packet = try? reader.next() {
            first += 1
            precondition(packet.data.count <= CaptureLimits.maxBlockByteCount, "packet over the block limit")
        }
    }
    if var reader = try? CaptureFileReader(source: source) {
        while (try? reader.next()) != nil { second += 1 }
    }
    precondition(first == second, "reading the same capture twice gave \(first) and \(second) packets")
    guard let conversation = try? PTPConversation(capture: source) else { return 0 }
    for event in conversation.events {
        if let index = event.afterTransaction {
            precondition(conversation.transactions.indices.contains(index), "event after a missing transaction")
        }
    }
    return 0
}
