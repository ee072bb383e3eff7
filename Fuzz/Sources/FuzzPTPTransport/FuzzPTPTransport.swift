import Dispatch
import PTP

/// libFuzzer entry point for the transports: the fuzzer writes what the device sends, the production
/// ``PTPUSBTransport`` or ``PTPIPTransport`` runs one transaction and polls one event against it.
///
/// The first byte picks the link, the packet size and the operation's shape (data in, data out, none). Any
/// `PTPError`, `TransportError` or `WireError` is a correct outcome; a crash, trap, hang or unbounded allocation
/// is a finding, and so is a sink that receives more than the device announced.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPTPTransport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let done = DispatchSemaphore(value: 0)
    Task {
        await run(selector: input[0], script: Array(input.dropFirst()))
        done.signal()
    }
    done.wait()
    return 0
}

func run(selector: UInt8, script: [UInt8]) async {
    let sink = CheckingSink()
    let dataOut: (any PTPDataSource)? =
        selector & 0x30 == 0x10 ? PTPBytesSource(Array(repeating: 0xA5, count: 600)) : nil
    let dataIn: (any PTPDataSink)? = selector & 0x30 == 0x20 ? sink : nil
    let request = PTPRequest(code: .getObject, transactionID: 5, parameters: [1])
    let transport: any PTPTransport
    if selector & 0x80 == 0 {
        let packet = [8, 64, 512, 1024][Int(selector & 0x03)]
        let pipe = ScriptedPipe(maxPacketSize: packet, transfers: ScriptedPipe.transfers(from: script))
        transport = PTPUSBTransport(
            pipe: pipe,
            configuration: .init(
                transferByteCount: 4096, recoveryTimeout: .zero, statusPollInterval: .zero, maxStatusPolls: 3))
    } else {
        let command = ScriptedStream(bytes: script, step: Int(selector & 0x0F) + 1)
        let event = ScriptedStream(bytes: [], step: 1)
        guard
            let connected = try? await PTPIPTransport.connect(
                command: command, openEventStream: { event },
                identity: .init(guid: PTPIPGUID.random(), friendlyName: "fuzz"), timeout: .zero)
        else { return }
        transport = connected
    }
    _ = try? await transport.transact(request, dataOut: dataOut, dataIn: dataIn, timeout: .zero)
    _ = try? await transport.nextEvent(timeout: .zero)
    _ = try? await transport.transact(
        PTPRequest(code: .getDeviceInfo, transactionID: 6), dataOut: nil, dataIn: PTPMemorySink(limit: 1 << 16),
        timeout: .zero)
    await transport.close()
    await sink.verify()
}

/// A sink that checks the data-phase contract: bytes only after a start, never more than announced.
actor CheckingSink: PTPDataSink {
    private var announced: UInt64??
    private var received: UInt64 = 0

    func dataPhaseWillStart(byteCount: UInt64?) async throws {
        if announced != nil { fatalError("two data phases in one transaction") }
        announced = .some(byteCount)
    }

    func write(_ bytes: ArraySlice<UInt8>) async throws {
        guard let announced else { fatalError("bytes before the data phase started") }
        received += UInt64(bytes.count)
        if let limit = announced, received > limit { fatalError("\(received) bytes after \(limit) were announced") }
    }

    func verify() {}
}

/// A USB pipe that plays back device transfers: each is a length byte and that many bytes; length 0xFF is a stall,
/// 0xFE a disconnect; when the script runs out, reads time out.
final class ScriptedPipe: USBBulkPipe, @unchecked Sendable {
    let maxPacketSize: Int
    let interruptMaxPacketSize = 8
    private var transfers: [[UInt8]?]
    private var disconnected = false
    private let lock = DispatchQueue(label: "fuzz.pipe")

    init(maxPacketSize: Int, transfers: [[UInt8]?]) {
        self.maxPacketSize = maxPacketSize
        self.transfers = transfers
    }

    static func transfers(from script: [UInt8]) -> [[UInt8]?] {
        var result: [[UInt8]?] = []
        var index = 0
        while index < script.count {
            let length = Int(script[index])
            index += 1
            switch length {
            case 0xFF: result.append(nil)
            case 0xFE: result.append([0xFE])
            default:
                let end = min(script.count, index + length * 8)
                result.append(Array(script[index..<end]))
                index = end
            }
        }
        return result
    }

    private func next(maxLength: Int) throws(USBPipeError) -> [UInt8] {
        let item: [UInt8]?? = lock.sync {
            if disconnected { return .some(.some([0xFE])) }
            return transfers.isEmpty ? nil : .some(transfers.removeFirst())
        }
        guard let item else { throw USBPipeError(.timeout) }
        guard let bytes = item else { throw USBPipeError(.stall) }
        if bytes == [0xFE] {
            lock.sync { disconnected = true }
            throw USBPipeError(.disconnected)
        }
        return Array(bytes.prefix(maxLength))
    }

    func writeBulkOut(_ bytes: [UInt8], timeout: Duration) async throws(USBPipeError) {
        if lock.sync(execute: { disconnected }) { throw USBPipeError(.disconnected) }
    }

    func readBulkIn(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try next(maxLength: maxLength)
    }

    func readInterrupt(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try next(maxLength: maxLength)
    }

    func clearHalt(_ endpoint: USBEndpoint) async throws(USBPipeError) {}

    func classRequest(
        _ request: StillImageClassRequest, data: [UInt8], maxLength: Int, timeout: Duration
    ) async throws(USBPipeError) -> [UInt8] {
        request == .getDeviceStatus ? [0x04, 0x00, 0x01, 0x20] : []
    }
}

/// A byte stream that plays back the device's bytes `step` at a time, then times out.
final class ScriptedStream: ByteStream, @unchecked Sendable {
    private var bytes: [UInt8]
    private let step: Int
    private let lock = DispatchQueue(label: "fuzz.stream")

    init(bytes: [UInt8], step: Int) {
        self.bytes = bytes
        self.step = step
    }

    func send(_ bytes: [UInt8]) async throws(ByteStreamError) {}

    func receive(maxLength: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        let chunk: [UInt8] = lock.sync {
            let count = min(bytes.count, step, maxLength)
            defer { bytes.removeFirst(count) }
            return Array(bytes.prefix(count))
        }
        guard !chunk.isEmpty else { throw ByteStreamError(.timeout) }
        return chunk
    }

    func close() async {}
}
