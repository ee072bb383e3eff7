import PTP
import WireFormat

/// Writes libgphoto2-style debug logs for the importer's tests: the project's own text, in the layout libgphoto2
/// prints (older: `Hexdump of N = 0xN bytes follows:` after a `Writing`/`Reading` line; newer: `gp_port_read (3):
/// Read N = 0xN out of M bytes from port: (hexdump of N bytes)`), around bytes the tests choose.
struct GPhoto2LogWriter {
    enum Format {
        case old
        case new
    }

    let format: Format
    private(set) var lines: [String] = []
    private var tick = 100

    init(format: Format) { self.format = format }

    var text: String { lines.joined(separator: "\n") + "\n" }

    /// The line number (1-based) the next line will have.
    var nextLineNumber: Int { lines.count + 1 }

    private mutating func stamp() -> String {
        tick += 37
        return "0.\(String(repeating: "0", count: max(0, 6 - String(tick).count)))\(tick)"
    }

    mutating func note(_ text: String) { lines.append("\(stamp()) ptp2/library.c(2): \(text)") }

    mutating func raw(_ text: String) { lines.append(text) }

    /// A host write of `bytes`.
    mutating func write(_ bytes: [UInt8]) {
        let hex = String(bytes.count, radix: 16)
        switch format {
        case .old:
            lines.append("\(stamp()) gphoto2-port(2): Writing \(bytes.count)=0x\(hex) byte(s) to port...")
            lines.append("\(stamp()) gphoto2-port(3): Hexdump of \(bytes.count) = 0x\(hex) bytes follows:")
        case .new:
            lines.append(
                "\(stamp()) gp_port_write               (3): Wrote   \(bytes.count) = 0x\(hex) bytes to port: (hexdump of \(bytes.count) bytes)"
            )
        }
        lines += Self.dump(bytes)
        lines.append("")
    }

    /// A bulk read of `bytes` (`asked` bytes asked for); `shown` dumps only the first bytes (newer format's cap).
    mutating func read(_ bytes: [UInt8], asked: Int = 1024, shown: Int? = nil) {
        let hex = String(bytes.count, radix: 16)
        switch format {
        case .old:
            lines.append(
                "\(stamp()) gphoto2-port(2): Reading \(asked)=0x\(String(asked, radix: 16)) bytes from port...")
            if bytes.count < asked {
                lines.append("\(stamp()) gphoto2-port(2): Could only read \(bytes.count) out of \(asked) byte(s)")
            }
            lines.append("\(stamp()) gphoto2-port(3): Hexdump of \(bytes.count) = 0x\(hex) bytes follows:")
        case .new:
            lines.append(
                "\(stamp()) gp_port_read                (3): Reading \(asked) = 0x\(String(asked, radix: 16)) bytes from port..."
            )
            let what =
                shown.map { "hexdump of the first \($0) of \(bytes.count) bytes" } ?? "hexdump of \(bytes.count) bytes"
            lines.append(
                "\(stamp()) gp_port_read                (3): Read    \(bytes.count) = 0x\(hex) out of \(asked) bytes from port: (\(what))"
            )
        }
        lines += Self.dump(Array(bytes.prefix(shown ?? bytes.count)))
        lines.append("")
    }

    /// An interrupt read (newer format).
    mutating func interrupt(_ bytes: [UInt8]) {
        lines.append(
            "\(stamp()) gp_port_check_int           (3): Read \(bytes.count) = 0x\(String(bytes.count, radix: 16)) out of 24 bytes from interrupt endpoint: (hexdump of \(bytes.count) bytes)"
        )
        lines += Self.dump(bytes)
        lines.append("")
    }

    /// A PTP/IP packet from the host (logged whole).
    mutating func ptpipSend(_ packet: [UInt8], what: String = "ptpip/oprequest data:") {
        lines.append(
            "\(stamp()) ptp_ptpip_sendreq           (3): \(what) (hexdump of \(packet.count) bytes)")
        lines += Self.dump(packet)
        lines.append("")
    }

    /// A PTP/IP packet from the camera (logged as header and payload).
    mutating func ptpipReceive(_ packet: [UInt8]) {
        lines.append("\(stamp()) ptp_ptpip_generic_read      (3): ptpip/generic_read header: (hexdump of 8 bytes)")
        lines += Self.dump(Array(packet.prefix(8)))
        lines.append("")
        if packet.count > 8 {
            lines.append(
                "\(stamp()) ptp_ptpip_generic_read      (3): ptpip/generic_read data: (hexdump of \(packet.count - 8) bytes)"
            )
            lines += Self.dump(Array(packet.dropFirst(8)))
            lines.append("")
        }
    }

    /// libgphoto2's dump lines: offset, 16 bytes with a dash after the eighth, the ASCII column.
    static func dump(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var offset = 0
        while offset < bytes.count {
            let row = bytes[offset..<min(bytes.count, offset + 16)]
            var text = hex4(offset & 0xFFFF) + "  "
            for slot in 0..<16 {
                let separator = slot == 7 ? "-" : " "
                if slot < row.count {
                    let byte = row[row.startIndex + slot]
                    text += (byte < 16 ? "0" : "") + String(byte, radix: 16) + separator
                } else {
                    text += "  " + separator
                }
            }
            text += " "
            let ascii = String(row.map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "." })
            text += ascii + String(repeating: " ", count: 16 - row.count)
            lines.append(text)
            offset += 16
        }
        return lines
    }

    static func hex4(_ value: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    // MARK: Containers

    static func command(_ code: OperationCode, _ tid: UInt32, _ parameters: [UInt32] = []) -> [UInt8] {
        USBContainer.command(code, transactionID: tid, parameters: parameters).usbEncoded
    }

    static func response(_ code: ResponseCode, _ tid: UInt32, _ parameters: [UInt32] = []) -> [UInt8] {
        USBContainer.response(code, transactionID: tid, parameters: parameters).usbEncoded
    }

    static func data(_ code: OperationCode, _ tid: UInt32, _ payload: [UInt8]) -> [UInt8] {
        USBContainer.data(code, transactionID: tid, payload: payload).usbEncoded
    }

    static func event(_ code: EventCode, _ parameters: [UInt32]) -> [UInt8] {
        USBContainer.event(code, transactionID: 0xFFFF_FFFF, parameters: parameters).usbEncoded
    }

    /// A DeviceInfo of a made-up body, long enough (over 512 bytes) to span two USB reads.
    static func deviceInfoBytes(model: String = "Imported Cam 7") -> [UInt8] {
        let info = DeviceInfo(
            standardVersion: 100, vendorExtensionID: VendorExtensionID(rawValue: 0), vendorExtensionVersion: 0,
            vendorExtensionDesc: String(repeating: "rawcap test vendor extension; ", count: 8), functionalMode: 0,
            operationsSupported: [
                .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getObjectHandles,
                .getObjectInfo, .getObject, .getDevicePropDesc, .initiateCapture,
            ],
            eventsSupported: [.objectAdded, .captureComplete], devicePropertiesSupported: [.exposureIndex],
            captureFormats: [.exifJPEG], imageFormats: [.exifJPEG], manufacturer: "rawcap tests", model: model,
            deviceVersion: "1.0", serialNumber: "IMPORT0001")
        var writer = WireWriter(byteOrder: .little)
        info.encode(into: &writer)
        return writer.bytes
    }
}
