import CameraControl
import Logging
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
    /// The values of ``qualityProperty`` rawcap knows, most wanted first for each quality; empty when
    /// ``bodyQualityValues`` picks them per body.
    public var qualityValues: [QualityValue]
    /// The property that selects the raw bit depth (an enumeration of bit counts), when there is one.
    public var rawBitDepthProperty: DevicePropertyCode?
    /// The value of ``rawBitDepthProperty`` for each bit depth, when the property holds a code rather than the
    /// count (Nikon RawBitMode: 0 is 12 bits, 1 is 14); empty when the value is the count itself.
    public var rawBitDepthValues: [RawBitDepthValue] = []
    /// Reads and sets the quality when the camera's settings are not standard properties (Canon EOS); `nil` uses
    /// ``qualityProperty`` through standard descriptors.
    public var qualityControl: (any QualityControl)? = nil
    /// Picks the values of ``qualityProperty`` for this body from its descriptor, for a family whose bodies number
    /// the property differently (Nikon); `nil` when ``qualityValues`` hold for every body of the family.
    public var bodyQualityValues: (@Sendable (DevicePropDesc) -> BodyQualityValues)? = nil
    /// Whether the run may download objects in GetPartialObject pieces when the camera lists it (false for
    /// Fujifilm: ``PTP/CameraIdentity/allowsPartialObject``); the downloader then reads each object whole.
    public var partialObjectDownloads = true
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
    /// - Parameters:
    ///   - usbProductID: idProduct when the camera is on USB: with a Nikon's vendor ID and DeviceInfo's model it
    ///     picks the image quality numbering (``PTP/NikonImageQualityTable/identify(model:usbProductID:enumeration:current:)``).
    ///   - logger: where vendor drivers log (their one warning per unsupported optional property).
    public static func select(
        for info: DeviceInfo, usbVendorID: USBVendorID? = nil, usbProductID: UInt16? = nil,
        logger: Logger = Logger(label: "rawcap.capture")
    ) -> CameraProfile {
        select(
            for: CameraIdentity(reportedDeviceInfo: info, usbVendorID: usbVendorID, usbProductID: usbProductID),
            logger: logger)
    }

    /// The profile for the camera `identity` describes: its maker's ``VendorKit`` decides
    /// (``VendorKits/profile(for:logger:)``).
    public static func select(for identity: CameraIdentity, logger: Logger = Logger(label: "rawcap.capture"))
        -> CameraProfile
    {
        VendorKits.profile(for: identity, logger: logger)
    }

    /// What ``bodyQualityValues`` found for a body.
    public enum BodyQualityValues: Sendable {
        /// The body's values, most wanted first for each quality, and the evidence.
        case values([QualityValue], reason: String)
        /// No numbering can be established: the quality stays as set on the camera, for the reason given.
        case undetermined(reason: String)
    }

    /// The values of ``qualityProperty`` on the body `descriptor` describes, or why there are none.
    public func qualityValues(for descriptor: DevicePropDesc) -> BodyQualityValues {
        bodyQualityValues?(descriptor) ?? .values(qualityValues, reason: "the \(name) profile's values")
    }

    /// One value of ``rawBitDepthProperty`` and the depth it selects.
    public struct RawBitDepthValue: Hashable, Sendable {
        /// The property value.
        public var value: PTPValue
        /// Bits per sample.
        public var bits: Int
        /// Creates an entry.
        public init(_ value: PTPValue, bits: Int) { (self.value, self.bits) = (value, bits) }
    }

    /// The value of ``rawBitDepthProperty`` that selects `bits`, as a value of `type`.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/formatUnavailable`` when the table has no such depth.
    public func rawBitDepthValue(for bits: Int, type: DataTypeCode) throws -> PTPValue {
        if rawBitDepthValues.isEmpty { return try PTPValue(bits, as: type) }
        guard let entry = rawBitDepthValues.first(where: { $0.bits == bits }) else {
            throw CaptureError(.formatUnavailable, "\(name) cameras select no \(bits)-bit raw")
        }
        return entry.value
    }

    /// The raw formats the camera offers: CameraControl's catalog, with the bit depth property read through
    /// ``rawBitDepthValues`` when its values are codes (so `bayer14` means what the camera calls 14-bit).
    public func rawFormatCatalog(_ control: CameraControl.CameraSettings) async throws -> RawFormatCatalog {
        guard !rawBitDepthValues.isEmpty, let code = rawBitDepthProperty else {
            return try await RawFormatCatalog.load(control)
        }
        guard control.deviceInfo.devicePropertiesSupported.contains(code) else {
            return RawFormatCatalog(deviceInfo: control.deviceInfo, bitDepth: nil)
        }
        let descriptor: DevicePropDesc
        do {
            descriptor = try await control.descriptor(control.definition(for: code))
        } catch let error as CameraControlError where error.code == .refused {
            // Listed but not described (as CameraControl's own catalog treats the bit depth): depths unknown, the
            // body keeps its setting, and a run that asks for a depth says it is not offered.
            return RawFormatCatalog(deviceInfo: control.deviceInfo, bitDepth: nil)
        }
        return RawFormatCatalog(deviceInfo: control.deviceInfo, bitDepth: bitDepthInBits(descriptor))
    }

    /// The description of ``rawBitDepthProperty`` with its values read as bit counts (through
    /// ``rawBitDepthValues`` when the property holds codes), as CameraControl's `RawFormatCatalog` takes it.
    public func bitDepthInBits(_ descriptor: DevicePropDesc) -> DevicePropDesc {
        guard !rawBitDepthValues.isEmpty else { return descriptor }
        func bits(_ value: PTPValue) -> PTPValue? {
            rawBitDepthValues.first { $0.value == value }.map { .uint8(UInt8(clamping: $0.bits)) }
        }
        var form = DevicePropDesc.Form.none
        if case .enumeration(let values) = descriptor.form {
            form = .enumeration(values.compactMap(bits))
        } else if case .range(let minimum, let maximum, _) = descriptor.form,
            let low = minimum.integerValue, let high = maximum.integerValue, low <= high, high - low < 64
        {
            // A real D850 describes RawBitMode as a range 0…1, not an enumeration.
            form = .enumeration((low...high).compactMap { try? PTPValue($0, as: descriptor.dataType) }.compactMap(bits))
        }
        let current = bits(descriptor.currentValue) ?? .uint8(0)
        return DevicePropDesc(
            propertyCode: descriptor.propertyCode, dataType: .uint8, getSet: descriptor.getSet,
            factoryDefaultValue: current, currentValue: current, form: form)
    }
}
