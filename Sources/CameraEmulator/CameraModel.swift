import PTP
import RawImage
import SceneSynthesis

/// A camera personality: who the emulated camera says it is, which codes it speaks and what its controls offer.
///
/// The model is chosen once, when the camera is made (`--model generic`), and never changes while it runs. The
/// ``generic`` model reports VendorExtensionID 0 and uses only standard PTP (ISO 15740) codes plus two documented
/// vendor-range properties, so hosts take their generic PTP path (libgphoto2's "PTP/IP Camera" and generic USB
/// camera). Vendor personalities (Nikon, Canon, Sony, Fujifilm protocol variants) are further values of this type:
/// their identity and vendor ID, the property that carries image quality and its value table, their vendor
/// property codes, and operations they add; see the `AddingAPersonality` article.
public struct CameraModel: Hashable, Sendable {
    /// The name `--model` selects it by, e.g. `generic`.
    public var identifier: String
    /// DeviceInfo Manufacturer (and TIFF Make).
    public var manufacturer: String
    /// DeviceInfo Model (and TIFF Model); also the PTP/IP friendly name.
    public var model: String
    /// DeviceInfo DeviceVersion (firmware).
    public var deviceVersion: String
    /// DeviceInfo SerialNumber (and DNG CameraSerialNumber).
    public var serialNumber: String
    /// DeviceInfo StandardVersion ×100.
    public var standardVersion: UInt16
    /// DeviceInfo VendorExtensionID: 0 for the generic model.
    public var vendorExtensionID: VendorExtensionID
    /// DeviceInfo VendorExtensionVersion ×100.
    public var vendorExtensionVersion: UInt16
    /// DeviceInfo VendorExtensionDesc.
    public var vendorExtensionDesc: String
    /// The lens the camera reports in EXIF LensModel.
    public var lensModel: String
    /// The lens's focal length in millimetres (FocalLength 0x5008 and EXIF).
    public var focalLength: Int
    /// The sensor's colour filter layout.
    public var cfa: CFAPattern
    /// Sensor columns when the configuration does not choose.
    public var defaultSensorWidth: Int
    /// Sensor rows when the configuration does not choose.
    public var defaultSensorHeight: Int
    /// The DCF folder suffix: folders are `100RAWCP`, `101RAWCP`, … (DCF 2.0 §3.2.2: 3 digits and 5 characters).
    public var folderSuffix: String
    /// The DCF file name prefix: files are `RCAP0001.TIF`, … (4 characters and 4 digits).
    public var filePrefix: String
    /// The operations the camera implements and lists in DeviceInfo; any other is OperationNotSupported.
    public var operationsSupported: [OperationCode]

    /// The property that selects ``ImageQuality``, and its values.
    public var qualityProperty: DevicePropertyCode
    /// Each value of ``qualityProperty`` and the quality it selects, in the order the enumeration lists them.
    public var qualityValues: [QualityValue]
    /// The quality a new camera starts with.
    public var defaultQuality: ImageQuality
    /// The vendor-range property that selects the raw bit depth.
    public var rawBitDepthProperty: DevicePropertyCode
    /// The raw bit depths offered (each 8…16).
    public var rawBitDepths: [Int]
    /// The value of ``rawBitDepthProperty`` that selects each of ``rawBitDepths``, in the same order, when the
    /// property holds a code rather than the bit count (Nikon RawBitMode: 0 is 12 bits, 1 is 14); `nil` when the
    /// value is the count itself.
    public var rawBitDepthValues: [PTPValue]? = nil
    /// The depth a new camera starts with.
    public var defaultRawBitDepth: Int
    /// The vendor-range property that selects where captures go: 0 the card, 1 camera memory.
    public var captureTargetProperty: DevicePropertyCode
    /// ISO speeds offered (ExposureIndex 0x500F).
    public var isoSpeeds: [UInt16]
    /// Apertures offered, ×100 (FNumber 0x5007).
    public var apertures: [UInt16]
    /// Shutter speeds offered (ExposureTime 0x500D).
    public var shutterSpeeds: [ShutterSpeed]
    /// The ExposureTime (0x500D) value that selects bulb, listed after ``shutterSpeeds``, on a body whose bulb is a
    /// shutter setting (a Nikon's 0xFFFFFFFF); `nil` when the body has none (the generic body's bulb is
    /// InitiateOpenCapture, whatever the shutter speed).
    public var bulbExposureTimeValue: UInt32? = nil
    /// The ExposureProgramMode (0x500E) value outside which ExposureTime offers no bulb (a Nikon's 1, manual); `nil`
    /// when bulb does not depend on the program.
    public var bulbExposureProgram: UInt16? = nil
    /// Exposure bias steps offered, in thirds of an EV (ExposureBiasCompensation 0x5010 carries 1/1000 EV).
    public var biasThirds: ClosedRange<Int>
    /// Whether the camera has an exposure bias property (ExposureBiasCompensation, 0x5010); some bodies only
    /// offer exposure time, and a bracket then uses that.
    public var hasExposureBias = true
    /// White balance values (WhiteBalance 0x5005) and what each does.
    public var whiteBalances: [WhiteBalanceValue]
    /// Which protocol the camera speaks beyond the standard operations (vendor operations, polled events, vendor
    /// object handles): answered in `EmulatedCamera+Personality.swift`.
    public var personality: Personality = .standard
    /// The idVendor the camera shows on a (fake) USB bus; `nil` uses the test vendor ID (pid.codes 0x1209).
    public var usbVendorID: UInt16?
    /// The idProduct the camera shows on a (fake) USB bus; `nil` uses 0x0001. A body's own product ID makes
    /// libgphoto2 match its `models[]` entry (name and capture flags) instead of the generic class match.
    public var usbProductID: UInt16?
    /// The container of its raw shots (TIFF/EP, or the maker's format); also their ObjectFormat and extension.
    public var rawFileFormat: RawFileFormat = .tiffEP
    /// Whether the camera has rawcap's capture target property (``captureTargetProperty``); makers' bodies choose
    /// where shots go their own way.
    public var hasCaptureTarget = true
    /// DeviceInfo CaptureFormats when the personality stores its raw shots itself (Nikon lists NEF as Undefined,
    /// 0x3000); `nil` derives them from ``rawFileFormat``.
    public var captureFormats: [ObjectFormatCode]?
    /// DeviceInfo ImageFormats, likewise; `nil` derives them from ``rawFileFormat``.
    public var imageFormats: [ObjectFormatCode]?
    /// DeviceInfo EventsSupported.
    public var eventsSupported: [EventCode] = [.objectAdded, .storeFull, .captureComplete]
    /// Whether a Nikon body names each shot it keeps in SDRAM with ObjectAddedInSdram (0xC101); one that does not
    /// keeps the shot's objects, one after the other, at 0xFFFF0001 (`nikon-no-object-event`).
    public var announcesSDRAMObjects = true
    /// The real body's other properties, as it described them (a source's facts, e.g. ``NikonD850Facts``): answered
    /// as inert descriptions wherever the emulator does not model the property, and listed in the order given (the
    /// modelled ones in their place in it).
    public var realBodyProperties: [DevicePropDesc] = []
    /// The smallest sensor side the model's raw files hold: its shots are LibRaw-decoded files of the maker's format,
    /// and a file whose image is too small does not decode (``SensorSizeRule``). `nil` for rawcap's TIFF/EP bodies,
    /// whose 16-pixel minimum is the renderer's.
    public var sensorSizeRule: SensorSizeRule? = nil
    /// The real body's DeviceInfo DevicePropertiesSupported, when it lists other properties than it describes (a
    /// Fujifilm X-T2 lists properties it refuses to describe and answers some it does not list); `nil` lists the
    /// described ones.
    public var deviceInfoProperties: [DevicePropertyCode]? = nil

    /// The protocol variants the emulator speaks.
    public enum Personality: String, Hashable, Sendable {
        /// ISO 15740 only: InitiateCapture, ObjectAdded/CaptureComplete on the interrupt endpoint or event channel.
        case standard
        /// Sony Alpha in PC Remote mode: SDIO handshake, GetAllDevicePropData, SetControlDeviceA/B, handle
        /// 0xFFFFC001 (`EmulatedCamera+Sony.swift`).
        case sony
        /// Fujifilm X in USB tether mode: PriorityMode, CaptureControl before InitiateCapture, the 0xD212 change
        /// list (`EmulatedCamera+Fujifilm.swift`).
        case fujifilm
        /// Nikon: InitiateCaptureRecInSdram/InitiateCaptureRecInMedia, DeviceReady, events polled with Nikon
        /// GetEvent, NEF objects in SDRAM at handles 0xFFFF0001… (`EmulatedCamera+Nikon.swift`).
        case nikon
        /// Canon EOS: SetRemoteMode, SetEventMode, RemoteReleaseOn/Off, EOS GetEvent records, CR2 objects on the
        /// card or held for the host until TransferComplete (`EmulatedCamera+Canon.swift`).
        case canonEOS
        /// The generic camera lying on purpose: the `hostile=` faults (``HostileBehaviour``), in
        /// `EmulatedCamera+Hostile.swift`.
        case hostile
    }

    /// What sensor sizes a maker's raw format holds, checked when the camera is made (`rawcap sim serve --sensor`),
    /// so a size whose shots could never be read is refused at start (exit 64) instead of a shot that never comes.
    public struct SensorSizeRule: Hashable, Sendable {
        /// The file format's name in messages (`CR2`, `NEF`, `ARW`, `RAF`).
        public var format: String
        /// The smallest width and height.
        public var minimumSide: Int
        /// Whether the width must be even, and why (`nil` when any width fits).
        public var evenWidthReason: String?

        /// The four makers' formats as rawcap writes and LibRaw reads them: LibRaw's identify rejects an image under
        /// 22 pixels a side ("Early reject for damaged images", `src/metadata/identify.cpp`: `height < 22 || width <
        /// 22` leaves `is_raw` 0, "Unsupported file format"), and it reads the emulated NEF, CR2, ARW and RAF a
        /// little inside the readout: at 22×22 and 23×23 each is refused, at 24×24 each decodes
        /// (`SensorSizeTests` shoots and decodes one of each at the minimum).
        public static let libRawMinimumSide = 24

        /// Creates a rule.
        public init(format: String, minimumSide: Int = libRawMinimumSide, evenWidthReason: String? = nil) {
            (self.format, self.minimumSide, self.evenWidthReason) = (format, minimumSide, evenWidthReason)
        }

        /// Why `width`×`height` does not fit, or `nil` when it does.
        public func refusal(width: Int, height: Int, model: String) -> String? {
            if width < minimumSide || height < minimumSide {
                return "sensor \(width)×\(height): the \(model) body writes \(format) files, which LibRaw reads from "
                    + "\(minimumSide)×\(minimumSide) up; the smallest sensor is \(minimumSide)x\(minimumSide)"
            }
            if let evenWidthReason, width % 2 != 0 {
                return "sensor \(width)×\(height): the \(model) body writes \(format) files, whose width is even "
                    + "(\(evenWidthReason)); try \(width + 1)x\(height)"
            }
            return nil
        }
    }

    /// One value of the image-quality property.
    public struct QualityValue: Hashable, Sendable {
        /// The property value.
        public var value: PTPValue
        /// The quality it selects.
        public var quality: ImageQuality
        /// Creates an entry.
        public init(value: PTPValue, quality: ImageQuality) { (self.value, self.quality) = (value, quality) }
    }

    /// One value of WhiteBalance (0x5005): the standard code and how it sets the raw file's AsShotNeutral.
    public struct WhiteBalanceValue: Hashable, Sendable {
        /// The property value (ISO 15740 §13.5.4: 2 Automatic, 4 Daylight, 6 Tungsten).
        public var value: UInt16
        /// The light the camera balances for; `nil` measures the scene's own light (automatic).
        public var balancesFor: SceneIlluminant?
        /// Creates an entry.
        public init(value: UInt16, balancesFor: SceneIlluminant?) {
            (self.value, self.balancesFor) = (value, balancesFor)
        }
    }

    /// The raw bit depth property of the generic model: vendor range, UINT8, enumeration 12/14/16.
    public static let rawBitDepthCode = DevicePropertyCode(rawValue: 0xD001)
    /// The capture target property of the generic model: vendor range, UINT8, enumeration 0 (card) / 1 (camera
    /// memory).
    public static let captureTargetCode = DevicePropertyCode(rawValue: 0xD002)

    /// The generic raw camera: VendorExtensionID 0, standard codes only, 6000×4000 RGGB, raw depth through 0xD001
    /// and capture target through 0xD002.
    ///
    /// Image quality is CompressionSetting (0x5004, UINT8), whose values the standard leaves to the maker (only
    /// "higher compresses less"). The generic model uses the values libgphoto2 names in `gphoto2 --summary` for
    /// any camera (its table from Nikon's): 2 "JPEG Fine", 4 "RAW", 5 "RAW + JPEG". gphoto2 sets them with
    /// `--set-config /main/other/5004=5`; its `imagequality` widget lists them as "Unknown value 0005".
    public static let generic = CameraModel(
        identifier: "generic", manufacturer: "rawcap", model: "Emulated Camera", deviceVersion: "1.0",
        serialNumber: "RC0000001", standardVersion: 100, vendorExtensionID: VendorExtensionID(rawValue: 0),
        vendorExtensionVersion: 0, vendorExtensionDesc: "", lensModel: "rawcap Synthetic 50mm F1.8", focalLength: 50,
        cfa: .rggb, defaultSensorWidth: 6000, defaultSensorHeight: 4000, folderSuffix: "RAWCP", filePrefix: "RCAP",
        operationsSupported: [
            .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
            .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .deleteObject, .initiateCapture,
            .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue, .getPartialObject,
            // The standard bulb (ISO 15740 §10.5.26/§10.5.21; libgphoto2 `config.c` `_put_OpenCapture`).
            .initiateOpenCapture, .terminateOpenCapture,
        ],
        qualityProperty: .compressionSetting,
        qualityValues: [
            QualityValue(value: .uint8(2), quality: .jpeg), QualityValue(value: .uint8(4), quality: .raw),
            QualityValue(value: .uint8(5), quality: .rawPlusJPEG),
        ],
        defaultQuality: .raw, rawBitDepthProperty: rawBitDepthCode, rawBitDepths: [12, 14, 16], defaultRawBitDepth: 14,
        captureTargetProperty: captureTargetCode,
        isoSpeeds: [
            100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500, 3200, 4000, 5000, 6400,
            8000, 10000, 12800, 16000, 20000, 25600,
        ],
        apertures: [
            180, 200, 220, 250, 280, 320, 350, 400, 450, 500, 560, 630, 710, 800, 900, 1000, 1100, 1300, 1400, 1600,
            1800, 2000, 2200,
        ],
        shutterSpeeds: ShutterSpeed.thirdStops, biasThirds: -9...9,
        whiteBalances: [
            WhiteBalanceValue(value: 2, balancesFor: nil), WhiteBalanceValue(value: 4, balancesFor: .d65),
            WhiteBalanceValue(value: 6, balancesFor: .standardA),
        ])

    /// The generic personality without an exposure bias property: brackets on it go through exposure time.
    public static let genericWithoutExposureBias: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "generic-no-bias"
        model.hasExposureBias = false
        return model
    }()

    /// The generic personality without bulb (`generic-no-bulb`): it lists neither InitiateOpenCapture nor
    /// TerminateOpenCapture, as most plain PTP cameras do (libgphoto2's summary then says "No Open Capture"), so a
    /// host can ask it for no exposure longer than its longest shutter speed.
    public static let genericWithoutBulb: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "generic-no-bulb"
        model.operationsSupported.removeAll { $0 == .initiateOpenCapture || $0 == .terminateOpenCapture }
        return model
    }()

    /// The generic camera with the hostile personality (`--model hostile`): it shoots like ``generic`` and attacks
    /// its host the ways its `hostile=` faults choose (``HostileBehaviour``; `traversal` when none is given). Its
    /// own small default sensor keeps the attacks quick.
    public static let hostile: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "hostile"
        model.model = "Hostile Camera"
        model.serialNumber = "RCHOSTILE1"
        model.personality = .hostile
        model.defaultSensorWidth = 640
        model.defaultSensorHeight = 480
        return model
    }()

    /// Every personality rawcap ships, by ``identifier``.
    public static let all: [CameraModel] = [
        .generic, .genericWithoutExposureBias, .genericWithoutBulb, .nikon, .nikonWithoutObjectEvents, .canon, .sony, .sonyOutsidePCRemote,
        .fujifilm, .hostile,
    ]

    /// The personality named `identifier` (case-insensitive).
    ///
    /// - Throws: ``EmulatorError/Code-swift.struct/unknownModel`` naming the known ones.
    public static func named(_ identifier: String) throws(EmulatorError) -> CameraModel {
        guard let model = all.first(where: { $0.identifier.lowercased() == identifier.lowercased() }) else {
            throw EmulatorError(
                .unknownModel, "\(identifier): known models are \(all.map(\.identifier).joined(separator: ", "))")
        }
        return model
    }

    /// The image quality a value of ``qualityProperty`` selects.
    public func quality(for value: PTPValue) -> ImageQuality? { qualityValues.first { $0.value == value }?.quality }

    /// The value of ``qualityProperty`` that selects `quality`.
    public func qualityValue(for quality: ImageQuality) -> PTPValue? {
        qualityValues.first { $0.quality == quality }?.value
    }
}
