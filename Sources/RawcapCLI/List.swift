import ArgumentParser
import CameraEmulator
import FoundationEssentials
import PTPUSB

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap list [--json]`: the cameras rawcap can see, and whether it may open each.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the cameras rawcap can see (USB, and the emulated camera) and whether each can be opened.",
            discussion: """
                Each USB camera is opened briefly to read its strings and to check access: a camera rawcap may not \
                open says how to fix it (the udev rule), one another program holds says which. `sim`, the emulated \
                camera, is always there. Nothing on the cameras changes.
                Exit status: 0, even when no USB camera is found (scripts read the list).
                """)

        @OptionGroup(title: "Logging")
        var logging: LoggingOptions

        @Flag(help: "Print JSON (stable keys).")
        var json = false

        func run() async throws {
            var listing = CameraListing(cameras: [], notes: [])
            do {
                let context = try await LibUSBContext.make(logger: logging.logger())
                listing.cameras = try await context.cameras().map(CameraListing.Entry.init)
            } catch {
                listing.notes.append("USB is not available: \(error).")
            }
            listing.cameras.append(.simulator)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(listing), as: UTF8.self))
            } else {
                print(listing.text())
            }
        }
    }
}

/// What `rawcap list` reports; the JSON keys are stable.
struct CameraListing: Encodable, Sendable {
    /// One camera.
    struct Entry: Encodable, Sendable {
        /// The `--camera` value that selects it: `usb:001:005`, `sim`.
        var selector: String
        /// `usb` or `sim`.
        var transport: String
        /// One line for people: `Canon EOS R5`, `Nikon Corp. Z 8`.
        var name: String
        /// The maker.
        var manufacturer: String?
        /// The model.
        var model: String?
        /// The serial number.
        var serialNumber: String?
        /// The USB port path (`1-4.2`).
        var port: String?
        /// idVendor:idProduct (`04a9:32f4`).
        var usbID: String?
        /// The device node.
        var device: String?
        /// `available`, `permissionDenied`, `busy`, `unavailable` or `notChecked`.
        var access: String
        /// Whether rawcap can open it now.
        var canOpen: Bool
        /// What to do when it cannot.
        var hint: String?

        /// rawcap's emulated camera (`--camera sim`).
        static let simulator = Entry(
            selector: "sim", transport: "sim",
            name: "\(CameraModel.generic.manufacturer) \(CameraModel.generic.model)",
            manufacturer: CameraModel.generic.manufacturer,
            model: CameraModel.generic.model, serialNumber: CameraModel.generic.serialNumber, port: nil, usbID: nil,
            device: nil, access: "available", canOpen: true, hint: nil)

        init(
            selector: String, transport: String, name: String, manufacturer: String?, model: String?,
            serialNumber: String?,
            port: String?, usbID: String?, device: String?, access: String, canOpen: Bool, hint: String?
        ) {
            self.selector = selector
            self.transport = transport
            self.name = name
            self.manufacturer = manufacturer
            self.model = model
            self.serialNumber = serialNumber
            self.port = port
            self.usbID = usbID
            self.device = device
            self.access = access
            self.canOpen = canOpen
            self.hint = hint
        }

        /// A camera USB discovery found.
        init(_ camera: USBCameraInfo) {
            let (access, canOpen, hint): (String, Bool, String?) =
                switch camera.access {
                case .available, .notChecked:
                    (camera.access == .available ? "available" : "notChecked", camera.access == .available, nil)
                case .permissionDenied:
                    (
                        "permissionDenied", false,
                        "no permission on \(camera.devicePath): install the udev rule (sudo make install-udev, or "
                            + "sudo cp Packaging/udev/60-rawcap.rules /etc/udev/rules.d/ && sudo udevadm control "
                            + "--reload-rules && sudo udevadm trigger), join the plugdev group (sudo usermod -aG "
                            + "plugdev $USER), log in again and replug the camera"
                    )
                case .busy:
                    (
                        "busy", false,
                        "another program holds it, usually GVFS: gio mount -s gphoto2, or systemctl --user stop "
                            + "gvfs-gphoto2-volume-monitor.service"
                    )
                case .unavailable(let error):
                    ("unavailable", false, "cannot be opened: \(error)")
                }
            self.init(
                selector: camera.selector, transport: "usb", name: camera.displayName, manufacturer: camera.makerName,
                model: camera.product, serialNumber: camera.serialNumber, port: camera.portPath,
                usbID: hex4(camera.vendorID) + ":" + hex4(camera.productID),
                device: camera.devicePath, access: access, canOpen: canOpen, hint: hint)
        }
    }

    /// Every camera, USB first (by bus and address), `sim` last.
    var cameras: [Entry]
    /// What could not be looked at (USB unavailable).
    var notes: [String]

    /// One line per camera, a hint line under those that cannot be opened.
    func text() -> String {
        let selectorWidth = cameras.map(\.selector.count).max() ?? 0
        var lines: [String] = []
        for camera in cameras {
            var line = ConfigSession.pad(camera.selector, selectorWidth) + "  "
            line += camera.name
            if let serial = camera.serialNumber, !serial.isEmpty { line += ", serial \(serial)" }
            if let port = camera.port { line += ", port \(port)" }
            if let id = camera.usbID { line += " (\(id))" }
            line += camera.canOpen ? "  ok" : "  \(camera.access)"
            lines.append(line)
            if let hint = camera.hint { lines.append(String(repeating: " ", count: selectorWidth + 2) + hint) }
        }
        lines += notes
        return lines.joined(separator: "\n")
    }
}
