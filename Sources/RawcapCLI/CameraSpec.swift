import ArgumentParser
import PTPUSB

/// The value of `--camera`: which camera, over which transport.
///
/// | form | camera |
/// |---|---|
/// | `usb` | the only USB camera (the default) |
/// | `usb:BUS:ADDR` | the USB camera at a bus and device address, as `lsusb` prints them |
/// | `serial:SN` | the USB camera with this serial number |
/// | `sim` | rawcap's emulated camera |
/// | `ptpip:HOST[:PORT]` | a camera on Wi-Fi (PTP/IP, port 15740 by default; port 55740 is Fujifilm's variant) |
/// | `fujiptpip:HOST[:PORT]` | a Fujifilm body on Wi-Fi: `ptpip:HOST:55740` (its variant of PTP/IP) |
/// | `replay:FILE` | a recorded session (pcapng) played back |
public enum CameraSpec: Hashable, Sendable, CustomStringConvertible, ExpressibleByArgument {
    /// A camera on USB.
    case usb(USBCameraSelector)
    /// The emulated camera.
    case simulator
    /// A PTP/IP camera.
    case ptpip(host: String, port: UInt16)
    /// A Fujifilm body on Wi-Fi, spoken to with Fujifilm's PTP/IP variant (its command port, 55740 by default).
    case fujiPTPIP(host: String, port: UInt16)
    /// A recording.
    case replay(path: String)

    /// The PTP/IP port (CIPA DC-X005 §2.2.3.1).
    public static let defaultPTPIPPort: UInt16 = 15740
    /// The command port of Fujifilm's PTP/IP variant (libgphoto2 `fujiptpip.c`): a `ptpip:` camera at this port
    /// is spoken to the Fujifilm way.
    public static let fujifilmPTPIPPort: UInt16 = 55740

    /// Parses one of the forms in the table; `nil` otherwise.
    public init?(argument: String) {
        if let selector = USBCameraSelector(argument) {
            self = .usb(selector)
        } else if argument == "sim" {
            self = .simulator
        } else if argument.hasPrefix("replay:"), argument.count > "replay:".count {
            self = .replay(path: String(argument.dropFirst("replay:".count)))
        } else if argument.hasPrefix("ptpip:") {
            guard let (host, port) = Self.hostAndPort(argument.dropFirst("ptpip:".count)) else { return nil }
            // Fujifilm's command port: nothing else listens there, and its variant is all it speaks.
            self = port == Self.fujifilmPTPIPPort ? .fujiPTPIP(host: host, port: port) : .ptpip(host: host, port: port)
        } else if argument.hasPrefix("fujiptpip:") {
            guard
                let (host, port) = Self.hostAndPort(
                    argument.dropFirst("fujiptpip:".count), defaultPort: Self.fujifilmPTPIPPort)
            else { return nil }
            self = .fujiPTPIP(host: host, port: port)
        } else {
            return nil
        }
    }

    /// `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`.
    private static func hostAndPort(_ text: Substring, defaultPort: UInt16 = defaultPTPIPPort) -> (String, UInt16)? {
        var host = text
        var port = defaultPort
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = UInt16(rest.dropFirst()), number > 0 else { return nil }
                port = number
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon, let number = UInt16(text[text.index(after: colon)...]),
                number > 0
            else { return nil }
            host = text[..<colon]
            port = number
        }
        guard !host.isEmpty else { return nil }
        return (String(host), port)
    }

    /// The text form.
    public var description: String {
        switch self {
        case .usb(let selector): selector.description
        case .simulator: "sim"
        case .ptpip(let host, let port):
            host.contains(":") ? "ptpip:[\(host)]:\(port)" : "ptpip:\(host):\(port)"
        case .fujiPTPIP(let host, let port):
            host.contains(":") ? "fujiptpip:[\(host)]:\(port)" : "fujiptpip:\(host):\(port)"
        case .replay(let path): "replay:\(path)"
        }
    }

    /// The forms, for `--help`.
    public static var defaultCompletionKind: CompletionKind { .list(["usb", "sim"]) }
}
