/// The capture protocol a camera needs: one of the four vendor protocols rawcap drives, or standard PTP.
///
/// Chosen once per connection by ``identify(_:usbVendorID:)`` from DeviceInfo and, over USB, the device
/// descriptor's vendor ID, never from the VendorExtensionID alone: many cameras report Microsoft's 0x00000006 (every
/// Canon and Fujifilm dump in `Fixtures/ptp-real`) and the Nikon Z 8 reports 0xFFFFFFFF over PTP/IP (libgphoto2
/// issue 1135). The maker alone is not enough either: a maker's camera that does not list the vendor capture
/// operation gets the generic InitiateCapture driver, as libgphoto2 `library.c` `camera_capture` falls back.
public enum CameraFamily: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Nikon DSLRs and Z bodies: InitiateCaptureRecInSdram, DeviceReady polling, Nikon GetEvent.
    case nikon
    /// Canon EOS (and PowerShots that speak EOS PTP): remote mode, RemoteReleaseOn/Off, EOS GetEvent records.
    case canonEOS
    /// Sony Alpha and RX in PC Remote mode: the SDIO handshake, SetControlDeviceB buttons, handle 0xFFFFC001.
    case sony
    /// Fujifilm X and GFX in USB tether mode: the CaptureControl property, then InitiateCapture.
    case fujifilm
    /// Standard PTP only: InitiateCapture (0x100E), ObjectAdded and CaptureComplete events.
    case generic

    /// The result of ``CameraFamily/identify(_:usbVendorID:)``: the family and why it was chosen, for logs.
    public struct Identification: Hashable, Sendable, CustomStringConvertible {
        /// The protocol to drive the camera with.
        public var family: CameraFamily
        /// The maker whose vendor codes the camera speaks (give it to ``PTPSession/setVendor(_:)``).
        public var vendor: VendorExtensionID
        /// One line of evidence: which input decided and which operation was or was not listed.
        public var reason: String

        /// `sony (Sony): USB vendor 0x054C; lists SDIOConnect 0x9201`.
        public var description: String { "\(family) (\(vendor)): \(reason)" }
    }

    /// The family's name.
    public var description: String { rawValue }

    /// The vendor operation whose presence in OperationsSupported marks a camera of this family, per libgphoto2
    /// `library.c` (`camera_init` and `camera_capture` branch on these): Nikon InitiateCaptureRecInSdram 0x90C0,
    /// Canon EOS RemoteRelease 0x910F (RemoteReleaseOn 0x9128 on newer bodies, checked as well), Sony SDIOConnect
    /// 0x9201, and standard InitiateCapture 0x100E for Fujifilm, which shoots through the CaptureControl property.
    public var markerOperations: [OperationCode] {
        switch self {
        case .nikon: [OperationCode.Nikon.initiateCaptureRecInSdram]
        case .canonEOS: [OperationCode.Canon.remoteRelease, OperationCode.Canon.remoteReleaseOn]
        case .sony: [OperationCode.Sony.sdioConnect]
        case .fujifilm: [.initiateCapture]
        case .generic: [.initiateCapture]
        }
    }

    /// Chooses the family for a camera.
    ///
    /// 1. The maker is the USB vendor ID when it names one of the four makers (the descriptor cannot be wrong about
    ///    who built the device), otherwise ``DeviceInfo/cameraVendor`` (VendorExtensionID, then Manufacturer).
    /// 2. A maker's family is chosen only if DeviceInfo lists one of its ``markerOperations``; Canon EOS also needs
    ///    EOS GetEvent (0x9116), without which the camera cannot report its shots.
    /// 3. Nikon 1 bodies (models `J…`, `V…`, `S1`, `AW1`) list the Nikon operations but shoot only through
    ///    InitiateCapture (libgphoto2 `library.c` `camera_init`: "Nikon V* and J* advertise the new Nikon stuff, but
    ///    only do the generic PTP capture"), so they are ``generic``.
    ///
    /// - Parameters:
    ///   - info: the camera's DeviceInfo.
    ///   - usbVendorID: idVendor when the camera is on USB; `nil` over PTP/IP or in a replay.
    public static func identify(_ info: DeviceInfo, usbVendorID: USBVendorID? = nil) -> Identification {
        let vendor: VendorExtensionID
        var reason: String
        if let usbVendor = usbVendorID?.vendorExtension {
            vendor = usbVendor
            reason = "USB vendor \(usbVendorID.map(\.description) ?? "")"
            if info.cameraVendor != usbVendor {
                reason += ", although DeviceInfo says \(info.cameraVendor)"
            }
        } else {
            vendor = info.cameraVendor
            reason = "DeviceInfo vendor extension \(info.vendorExtensionID), manufacturer \"\(info.manufacturer)\""
        }
        let candidate: CameraFamily? =
            switch vendor {
            case .nikon: .nikon
            case .canon: .canonEOS
            case .sony: .sony
            case .fujifilm: .fujifilm
            default: nil
            }
        guard let candidate else {
            return Identification(family: .generic, vendor: vendor, reason: reason + "; not a vendor rawcap drives")
        }
        if candidate == .nikon, isNikon1(model: info.model) {
            return Identification(
                family: .generic, vendor: vendor,
                reason: reason + "; Nikon 1 model \"\(info.model)\" shoots generically")
        }
        let listed = candidate.markerOperations.filter(info.supports)
        guard let marker = listed.first else {
            let names = candidate.markerOperations.map { $0.description(vendor: vendor) }.joined(separator: ", ")
            return Identification(family: .generic, vendor: vendor, reason: reason + "; does not list \(names)")
        }
        if candidate == .canonEOS, !info.supports(OperationCode.Canon.getEvent) {
            return Identification(
                family: .generic, vendor: vendor, reason: reason + "; does not list Canon.GetEvent (0x9116)")
        }
        return Identification(
            family: candidate, vendor: vendor, reason: reason + "; lists \(marker.description(vendor: vendor))")
    }

    /// Nikon 1 model names: J1…J5, V1…V3, S1, S2, AW1 (libgphoto2 `library.c` checks `Model[0]` for 'J' and 'V',
    /// and 'S' with a short name).
    private static func isNikon1(model: String) -> Bool {
        let upper = model.uppercased()
        let name = upper.hasPrefix("NIKON ") ? String(upper.dropFirst(6)) : upper
        guard let first = name.first, name.count <= 3 else { return false }
        return first == "J" || first == "V" || first == "S" || name == "AW1"
    }
}
