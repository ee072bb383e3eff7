import PTP
import WireFormat

/// Watches a PTP-over-USB exchange for the answer to GetDeviceInfo, to name the camera in a recording's header.
///
/// It only looks at command containers on bulk OUT and, after a GetDeviceInfo command, keeps at most
/// ``maxByteCount`` bytes of bulk IN until the data container is whole; everything else passes untouched, so a
/// large download costs nothing.
struct DeviceInfoSniffer: Sendable {
    static let maxByteCount = 64 * 1024

    private var waiting = false
    private var buffer: [UInt8] = []
    private(set) var isDone = false

    /// Sees a bulk OUT transfer.
    mutating func outgoing(_ bytes: [UInt8]) {
        guard !isDone, (12...32).contains(bytes.count) else { return }
        var reader = WireReader(bytes, byteOrder: .little)
        guard let header = try? USBContainerHeader(from: &reader), header.type == .command,
            Int(header.length) == bytes.count
        else { return }
        waiting = header.code == OperationCode.getDeviceInfo.rawValue
        buffer = []
    }

    /// Sees a bulk IN transfer; returns the model once DeviceInfo is whole.
    mutating func incoming(_ bytes: [UInt8]) -> String? {
        guard waiting, !isDone else { return nil }
        buffer.append(contentsOf: bytes.prefix(Self.maxByteCount - buffer.count))
        var reader = WireReader(buffer, byteOrder: .little)
        guard let header = try? USBContainerHeader(from: &reader) else { return nil }
        guard header.type == .data, header.length >= 12, Int(header.length) <= Self.maxByteCount else {
            waiting = false
            return nil
        }
        guard buffer.count >= Int(header.length) else { return nil }
        waiting = false
        guard
            let info = try? DeviceInfo(
                ptpEncoded: buffer[12..<Int(header.length)], quirks: [.wideEightBitEnumerations, .unterminatedStrings])
        else {
            return nil
        }
        isDone = true
        return info.model
    }
}
