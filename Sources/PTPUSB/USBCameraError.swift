/// Why a USB camera could not be found or opened, with a message that says what to do about it.
///
/// Shaped like swift-asn1's `ASN1Error`: a stable ``code`` (`==` compares it alone), the camera concerned, the
/// cameras that were found (for "which one?" errors), and libusb's error underneath.
public struct USBCameraError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No camera is connected (no device with a PTP interface).
        public static let noCamera = Code(rawValue: "noCamera")
        /// Cameras are connected, but none matches the selector.
        public static let notFound = Code(rawValue: "notFound")
        /// Several cameras match and the selector does not say which.
        public static let ambiguous = Code(rawValue: "ambiguous")
        /// The device node cannot be opened: `LIBUSB_ERROR_ACCESS`.
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// Another program holds the camera's interface: `LIBUSB_ERROR_BUSY`.
        public static let busy = Code(rawValue: "busy")
        /// The camera went away while it was being opened.
        public static let disconnected = Code(rawValue: "disconnected")
        /// Opening failed for another reason (libusb's error says which).
        public static let openFailed = Code(rawValue: "openFailed")

        /// The name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The selector that was used, for ``Code/notFound`` and ``Code/ambiguous``.
    public let selector: USBCameraSelector?
    /// The camera concerned (permission, busy, open errors).
    public let camera: USBCameraInfo?
    /// The cameras found: all of them for ``Code/notFound``, the matching ones for ``Code/ambiguous``.
    public let candidates: [USBCameraInfo]
    /// libusb's error, when there is one.
    public let underlyingError: LibUSBError?

    /// Creates an error.
    public init(
        _ code: Code, selector: USBCameraSelector? = nil, camera: USBCameraInfo? = nil,
        candidates: [USBCameraInfo] = [], underlyingError: LibUSBError? = nil
    ) {
        self.code = code
        self.selector = selector
        self.camera = camera
        self.candidates = candidates
        self.underlyingError = underlyingError
    }

    /// Compares codes only.
    public static func == (lhs: USBCameraError, rhs: USBCameraError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The message for the user: what happened, and what to do.
    public var description: String {
        let name = camera.map { "\($0.displayName) at \($0.selector) (\($0.devicePath))" } ?? "the camera"
        let list = candidates.map { "  \($0)" }.joined(separator: "\n")
        switch code {
        case .noCamera:
            return """
                No camera found on USB. Check that the camera is switched on and connected with a data cable (not \
                a charge-only one), and that its USB mode is PTP ("PC connect", "PTP/MTP", "Remote"); `lsusb` \
                should list it.
                """
        case .notFound:
            return
                "No camera matches \(selector.map(String.init(describing:)) ?? "the selection"). Cameras found:\n\(list)"
        case .ambiguous:
            return """
                \(candidates.count) cameras found; choose one with --camera usb:BUS:ADDR or --camera serial:SN:
                \(list)
                """
        case .permissionDenied:
            return """
                Permission denied opening \(name). Install rawcap's udev rule, then unplug and replug the camera:
                  sudo make install-udev     (installs /etc/udev/rules.d/60-rawcap.rules), or
                  sudo cp Packaging/udev/60-rawcap.rules /etc/udev/rules.d/ && sudo udevadm control --reload-rules \
                && sudo udevadm trigger
                The rule gives the plugdev group (and the user at the seat) access to cameras; add yourself with \
                `sudo usermod -aG plugdev $USER` and log in again.
                """
        case .busy:
            return """
                \(name) is in use by another program. On a desktop this is usually GVFS's gphoto2 volume monitor \
                (gvfs-gphoto2-volume-monitor and gvfsd-gphoto2), which mounts cameras as soon as they are plugged \
                in. Unmount the camera in the file manager or with `gio mount -s gphoto2`, or stop the monitor: \
                `systemctl --user stop gvfs-gphoto2-volume-monitor.service` (`systemctl --user mask …` keeps it \
                off). Other programs that hold cameras: gphoto2, Entangle, darktable, digiKam.
                """
        case .disconnected:
            return "\(name) disconnected while it was being opened; reconnect it and try again."
        default:
            var text = "Cannot open \(name)"
            if let underlyingError { text += ": \(underlyingError)" }
            return text + "."
        }
    }
}
