import PTP
import WireFormat

/// libFuzzer entry point for PTP over USB: the bulk-IN container framer, whole containers and device status.
///
/// The first byte picks transfer sizes, so the same stream is framed both whole and cut into transfers; any
/// `WireError` is a correct outcome, a crash, trap, hang or huge allocation is a finding. When both framings
/// succeed they must yield the same containers and bytes, data phases must be well formed (start, bytes, end) and
/// never longer than announced, and every whole container must survive an encode and decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPTPContainers(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let step = Int(input[0] % 37) + 1
    let stream = Array(input.dropFirst())

    let whole = frame([stream[...]])
    var pieces: [ArraySlice<UInt8>] = []
    var start = 0
    while start < stream.count {
        let end = min(stream.count, start + step)
        pieces.append(stream[start..<end])
        start = end
    }
    let split = frame(pieces)
    if let whole, let split, whole != split { fatalError("framing depends on how the bytes were split") }

    if let container = try? USBContainer(usbEncoded: stream) {
        // Not byte-exact: a data container read with the 0xFFFFFFFF length re-encodes with its real length.
        guard (try? USBContainer(usbEncoded: container.usbEncoded)) == container else {
            fatalError("container does not survive a round trip")
        }
    }
    if let status = try? USBDeviceStatus(usbEncoded: stream) {
        guard (try? USBDeviceStatus(usbEncoded: status.usbEncoded)) == status else { fatalError("status round trip") }
    }
    return 0
}

/// What a framing produced, with data chunks joined so that different splits compare equal.
enum Framed: Equatable {
    case container(USBContainer)
    case data(code: OperationCode, transactionID: UInt32, announced: UInt64?, bytes: [UInt8], ended: Bool)
}

/// Frames `pieces` as consecutive full transfers, the last one ending short; `nil` when the framer threw.
func frame(_ pieces: [ArraySlice<UInt8>]) -> [Framed]? {
    var framer = USBContainerFramer(maxDataPayloadByteCount: 1 << 20)
    var out: [Framed] = []
    // The data phase in progress: its header and the bytes so far.
    var open: (code: OperationCode, transactionID: UInt32, announced: UInt64?)?
    var bytes: [UInt8] = []
    for (index, piece) in pieces.enumerated() {
        framer.append(piece, endsTransfer: index == pieces.count - 1)
        while true {
            let item: USBContainerFramer.Item?
            do { item = try framer.next() } catch { return nil }
            guard let item else { break }
            switch item {
            case .container(let container):
                if open != nil { fatalError("container inside a data phase") }
                out.append(.container(container))
            case .dataStart(let code, let transactionID, let announced):
                if open != nil { fatalError("data phase inside a data phase") }
                open = (code, transactionID, announced)
                bytes = []
            case .dataBytes(let chunk):
                guard let phase = open else { fatalError("data bytes outside a data phase") }
                bytes += chunk
                if let announced = phase.announced, UInt64(bytes.count) > announced {
                    fatalError("more data than announced")
                }
            case .dataEnd:
                guard let phase = open else { fatalError("data end outside a data phase") }
                if let announced = phase.announced, UInt64(bytes.count) != announced { fatalError("data ended early") }
                out.append(
                    .data(
                        code: phase.code, transactionID: phase.transactionID, announced: phase.announced, bytes: bytes,
                        ended: true))
                open = nil
            }
        }
    }
    if let phase = open {
        out.append(
            .data(
                code: phase.code, transactionID: phase.transactionID, announced: phase.announced, bytes: bytes,
                ended: false))
    }
    return out
}
