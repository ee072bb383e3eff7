import PTP

/// How rawcap drives one kind of camera: which property selects RAW/RAW+JPEG, which one the raw bit depth, and
/// which ``CaptureDriver`` triggers shots. Chosen once per camera, from its DeviceInfo, by ``select(for:)``: the one
/// place a vendor driver (Nikon, Canon, Sony, Fujifilm; a later issue) plugs in.
public struct CameraProfile: Sendable {
    /// One value of the quality property and what it selects.
    public struct QualityValue: Hashable, Sendable {
        /// The property value.
        public var value: PTPValue
        /// What it selects.
        public var quality: ShotQuality
        /// Creates an entry.
        public init(_ value: PTPValue, _ quality: ShotQuality) { (self.value, self.quality) = (value, quality) }
    }

    /// A short name for logs and the journal (`generic`, `rawcap-emulator`).
    public var name: String
    /// The property that selects RAW, RAW+JPEG or JPEG, when rawcap knows it for this camera.
    public var qualityProperty: DevicePropertyCode?
    /// The values of ``qualityProperty`` rawcap knows.
    public var qualityValues: [QualityValue]
    /// The property that selects the raw bit depth (an enumeration of bit counts), when there is one.
    public var rawBitDepthProperty: DevicePropertyCode?
    /// Triggers shots and collects their objects.
    public var driver: any CaptureDriver

    /// Creates a profile.
    public init(
        name: String, qualityProperty: DevicePropertyCode?, qualityValues: [QualityValue],
        rawBitDepthProperty: DevicePropertyCode?, driver: any CaptureDriver
    ) {
        self.name = name
        self.qualityProperty = qualityProperty
        self.qualityValues = qualityValues
        self.rawBitDepthProperty = rawBitDepthProperty
        self.driver = driver
    }

    /// CompressionSetting (0x5004) values as libgphoto2 names them for any camera (its table comes from Nikon's):
    /// 2 "JPEG Fine", 4 "RAW", 5 "RAW + JPEG". ISO 15740 §13.5.3 leaves the values to the maker.
    public static let compressionSettingValues: [QualityValue] = [
        QualityValue(.uint8(2), .jpeg), QualityValue(.uint8(4), .raw), QualityValue(.uint8(5), .rawPlusJPEG),
    ]

    /// rawcap's emulated camera: standard codes, quality through CompressionSetting, raw depth through 0xD001.
    public static let emulator = CameraProfile(
        name: "rawcap-emulator", qualityProperty: .compressionSetting, qualityValues: compressionSettingValues,
        rawBitDepthProperty: DevicePropertyCode(rawValue: 0xD001), driver: StandardCaptureDriver())

    /// Any other PTP camera: InitiateCapture and events; the quality and depth are the camera's own settings,
    /// since vendor-range property codes mean different things to different makers.
    public static let generic = CameraProfile(
        name: "generic", qualityProperty: nil, qualityValues: [], rawBitDepthProperty: nil,
        driver: StandardCaptureDriver())

    /// The profile for the camera `info` describes, reached through USB idVendor `usbVendorID` when known.
    ///
    /// The family comes from ``PTP/CameraFamily/identify(_:usbVendorID:)`` (DeviceInfo and the USB vendor ID, not the
    /// VendorExtensionID alone: some cameras report 0xFFFFFFFF over PTP/IP). Each family's profile lives in its own
    /// file (`CameraProfile+Nikon.swift`, …).
    public static func select(for info: DeviceInfo, usbVendorID: USBVendorID? = nil) -> CameraProfile {
        // The vendor-range codes 0xD001/0xD002 are the emulator's own; only its identity unlocks them.
        if info.vendorExtensionID.rawValue == 0, info.manufacturer == "rawcap" { return .emulator }
        if let sony = sonyOutsidePCRemote(info, usbVendorID: usbVendorID) { return sony }
        switch CameraFamily.identify(info, usbVendorID: usbVendorID).family {
        case .nikon:
            return .generic

        case .canonEOS:
            return .generic

        case .sony:
            return .sony

        case .fujifilm:
            return .fujifilm

        case .generic:
            return .generic
        }
    }

    /// The quality a value of ``qualityProperty`` selects.
    public func quality(for value: PTPValue) -> ShotQuality? { qualityValues.first { $0.value == value }?.quality }
}
