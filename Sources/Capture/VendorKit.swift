import CameraControl
import Logging
import PTP

/// One maker's registration: everything rawcap does differently for that maker's cameras, reached through
/// ``VendorKits/kit(for:)`` from a ``PTP/CameraIdentity`` so that the command line never names a vendor.
///
/// | part | what it decides | where the maker's code lives |
/// |---|---|---|
/// | ``profile`` | the capture driver and the quality and bit depth properties | `CameraProfile+Maker.swift`, `MakerCaptureDriver.swift` |
/// | ``settings`` | how settings are named and read and written (`config`, `info`) | `CameraControl/CameraSettings+Maker.swift`, `PropertyCatalog+Maker.swift` |
/// | ``describeProperties`` | property descriptions for `info` when the maker describes them its own way | `PTP/Vendors/` |
///
/// Adding a maker: its protocol pieces in `PTP/Vendors/`, its driver and profile in `Capture/`, one `VendorKit` value
/// below, one entry in ``VendorKits/all``.
public struct VendorKit: Sendable {
    /// The maker whose cameras the kit drives (the vendor ``PTP/CameraFamily/identify(_:usbVendorID:)`` finds).
    public var vendor: VendorExtensionID
    /// The capture profile for a camera of the maker (its family may still be generic: a Nikon 1 shoots with
    /// InitiateCapture).
    public var profile: @Sendable (CameraIdentity, Logger) -> CameraProfile
    /// The camera's settings as the maker names and routes them; the session is open.
    public var settings: @Sendable (CameraSettings, CameraIdentity) async throws -> CameraSettings
    /// Property descriptions for `info` when the maker does not answer GetDevicePropDesc; `nil` for the standard
    /// path.
    public var describeProperties: (@Sendable (PTPSession, CameraIdentity) async throws -> [DevicePropDesc]?)?

    /// Creates a kit.
    public init(
        vendor: VendorExtensionID, profile: @escaping @Sendable (CameraIdentity, Logger) -> CameraProfile,
        settings: @escaping @Sendable (CameraSettings, CameraIdentity) async throws -> CameraSettings = { s, _ in s },
        describeProperties: (@Sendable (PTPSession, CameraIdentity) async throws -> [DevicePropDesc]?)? = nil
    ) {
        self.vendor = vendor
        self.profile = profile
        self.settings = settings
        self.describeProperties = describeProperties
    }
}

/// The registry: one ``VendorKit`` per maker rawcap drives, and the generic kit for every other camera.
public enum VendorKits {
    /// Nikon: SDRAM capture, CompressionSetting named by the body's numbering, RawBitMode.
    public static let nikon = VendorKit(
        vendor: .nikon,
        profile: { identity, logger in
            identity.family == .nikon
                ? .nikon(
                    logger: logger, model: identity.deviceInfo.model, usbProductID: identity.nikonUSBProductID)
                : .generic
        },
        settings: { settings, identity in
            try await settings.identifyingNikonImageQuality(usbProductID: identity.nikonUSBProductID)
        })

    /// Canon EOS: remote mode, EOS GetEvent records, ImageFormat through SetDevicePropValueEx.
    public static let canon = VendorKit(
        vendor: .canon,
        profile: { identity, logger in identity.family == .canonEOS ? .canonEOS(logger: logger) : .generic })

    /// Sony in PC Remote: the SDIO handshake, properties through GetAllDevicePropData and SetControlDeviceA (routed
    /// inside ``CameraControl/CameraSettings`` by ``CameraControl/CameraSettings/usesSonyPropertyOperations``).
    public static let sony = VendorKit(
        vendor: .sony,
        profile: { identity, _ in
            if let outside = CameraProfile.sonyOutsidePCRemote(identity.deviceInfo, usbVendorID: identity.usbVendorID) {
                return outside
            }
            return identity.family == .sony ? .sony : .generic
        },
        settings: { settings, identity in
            // Outside PC Remote a body describes no setting: say what to do, as `shoot` does.
            if let reason = CameraProfile.sonyOutsidePCRemoteReason(
                identity.deviceInfo, usbVendorID: identity.usbVendorID)
            {
                throw CaptureError(.remoteControlUnavailable, "\(reason); \(SonyCaptureDriver.pcRemoteAdvice)")
            }
            return settings
        },
        describeProperties: { session, identity in
            let info = identity.deviceInfo
            guard info.supports(OperationCode.Sony.getAllDevicePropData), !info.supports(.getDevicePropDesc) else {
                return nil
            }
            // Described only through GetAllDevicePropData, after the SDIO handshake (run here when the camera
            // refuses the request, as `config` does).
            return try await session.sonyAllDevicePropDataAfterHandshake().descriptions.map(\.standardDescription)
        })

    /// Fujifilm: PC mode and PriorityMode, CaptureControl, the 0xD212 change list.
    public static let fujifilm = VendorKit(
        vendor: .fujifilm,
        profile: { identity, _ in identity.family == .fujifilm ? .fujifilm : .generic })

    /// Every other camera: standard PTP.
    public static let generic = VendorKit(vendor: VendorExtensionID(rawValue: 0), profile: { _, _ in .generic })

    /// The makers' kits.
    public static let all = [nikon, canon, sony, fujifilm]

    /// The kit for the camera: its maker's, or ``generic``.
    public static func kit(for identity: CameraIdentity) -> VendorKit {
        all.first { $0.vendor == identity.identification.vendor } ?? generic
    }

    /// The capture profile for the camera (``CameraProfile/select(for:usbVendorID:usbProductID:logger:)``).
    public static func profile(for identity: CameraIdentity, logger: Logger) -> CameraProfile {
        // The vendor-range codes 0xD001/0xD002 are the emulator's own; only its identity unlocks them.
        let info = identity.deviceInfo
        if info.vendorExtensionID.rawValue == 0, info.manufacturer == "rawcap" { return .emulator }
        return kit(for: identity).profile(identity, logger)
    }
}
