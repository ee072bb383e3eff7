import CameraControl
import Capture
import PTP
import PTPUSB
import WireFormat

/// What `rawcap info` reports about a camera: the link, DeviceInfo, the stores, the operations and events by name,
/// every property with its current and allowed values, and the formats. Its JSON form (``Encodable``, keys sorted)
/// is stable: scripts may rely on the key names.
struct CameraInfoReport: Encodable, Sendable {
    /// The transport's facts (`camera` in JSON).
    var camera: Link?
    /// DeviceInfo's identity fields.
    var device: Device
    /// Each store (GetStorageIDs, GetStorageInfo).
    var storages: [Storage]
    /// OperationsSupported.
    var operations: [Code]
    /// EventsSupported.
    var events: [Code]
    /// DevicePropertiesSupported, each described by GetDevicePropDesc.
    var properties: [Property]
    /// CaptureFormats.
    var captureFormats: [Code]
    /// ImageFormats.
    var imageFormats: [Code]
    /// The raw formats the camera can deliver, in rawcap's names, purest first (``CameraControl/RawFormatCatalog``).
    var rawFormats: [RawFormatCatalog.Offer] = []
    /// What `--format auto` picks, and why.
    var rawFormatAuto: RawFormatAuto?
    /// What could not be read, in words.
    var notes: [String]

    /// The choice `--format auto` makes.
    struct RawFormatAuto: Encodable, Sendable {
        /// The format's name (`bayer14`).
        var format: String
        /// Why, in one sentence.
        var reason: String
    }

    /// The USB side of the camera.
    struct Link: Encodable, Sendable {
        /// `usb`, `ptpip` or `replay`.
        var transport: String
        /// The `--camera` value that selects this camera again: `usb:001:005`, `ptpip:192.168.1.10:15740`.
        var selector: String
        /// idVendor as four lower-case hex digits, as `lsusb` prints it (USB).
        var vendorID: String?
        /// idProduct, likewise (USB).
        var productID: String?
        /// The kernel's port path, `1-4.2` (USB).
        var port: String?
        /// The USB Manufacturer string (may differ from DeviceInfo's).
        var manufacturer: String?
        /// The USB Product string.
        var product: String?
        /// The USB SerialNumber string.
        var serialNumber: String?
        /// `still image (6/1/1)` or `vendor-specific (ff)` (USB).
        var interface: String?
        /// wMaxPacketSize of bulk IN: 512 at high speed, 1024 at super speed (USB).
        var maxPacketSize: Int?
        /// The name the camera gave in Init Command Ack (PTP/IP).
        var friendlyName: String? = nil
        /// `strict` or `lenient` (replay).
        var replayMode: String? = nil
        /// The camera model the recording names (replay).
        var recordedModel: String? = nil
    }

    /// DeviceInfo (ISO 15740 §5.5.1) without the code lists.
    struct Device: Encodable, Sendable {
        /// Manufacturer.
        var manufacturer: String
        /// Model.
        var model: String
        /// DeviceVersion: the firmware.
        var version: String
        /// SerialNumber.
        var serialNumber: String
        /// StandardVersion as text: 110 → "1.10".
        var ptpVersion: String
        /// The vendor extension.
        var vendorExtension: VendorExtension
        /// FunctionalMode (0 standard, 1 sleep).
        var functionalMode: Int
    }

    /// VendorExtensionID, its version and description, and the vendor whose codes the camera speaks.
    struct VendorExtension: Encodable, Sendable {
        /// VendorExtensionID in hex: `0x00000006`.
        var id: String
        /// Its name: `Microsoft`, `Nikon`.
        var name: String
        /// VendorExtensionVersion as text.
        var version: String
        /// VendorExtensionDesc.
        var description: String
        /// The vendor whose codes the camera speaks (``PTP/DeviceInfo/cameraVendor``): many cameras report Microsoft's
        /// ID and are recognised by their Manufacturer string.
        var cameraVendor: String
    }

    /// A store; `error` when the camera refused GetStorageInfo.
    struct Storage: Encodable, Sendable {
        /// StorageID in hex: `0x00010001`.
        var id: String
        /// StorageType: `RemovableRAM`, `FixedROM`…
        var type: String?
        /// FilesystemType: `DCF`, `GenericHierarchical`…
        var filesystem: String?
        /// AccessCapability: `ReadWrite`, `ReadOnly`…
        var access: String?
        /// MaxCapacity in bytes.
        var capacityBytes: UInt64?
        /// FreeSpaceInBytes.
        var freeBytes: UInt64?
        /// FreeSpaceInImages; absent when the camera does not say (0xFFFFFFFF).
        var freeImages: UInt32?
        /// StorageDescription.
        var description: String?
        /// VolumeLabel.
        var label: String?
        /// Why the store could not be read.
        var error: String?
    }

    /// A code and its name (in the camera vendor's context).
    struct Code: Encodable, Sendable, Hashable {
        /// The code in hex: `0x1001`.
        var code: String
        /// The standard or vendor name, or `Unknown(0x9ABC)`.
        var name: String
    }

    /// A device property; `error` when the camera refused GetDevicePropDesc or sent one that does not decode.
    struct Property: Encodable, Sendable {
        /// DevicePropertyCode in hex.
        var code: String
        /// Its name in the camera vendor's context.
        var name: String
        /// The DataType name: `UINT16`, `STR`, `AUINT8`…
        var type: String?
        /// Whether GetSet allows setting it.
        var writable: Bool?
        /// CurrentValue.
        var current: Value?
        /// FactoryDefaultValue.
        var factoryDefault: Value?
        /// The range or list of allowed values, when the camera gives one.
        var allowed: Allowed?
        /// Why the property could not be read.
        var error: String?
        /// The property as `config` names and writes it (`aperture`, `f/8`): what the text report shows. Not in
        /// the JSON, which keeps the camera's codes and numbers.
        var readable: PropertyState?

        enum CodingKeys: String, CodingKey {
            case code, name, type, writable, current, factoryDefault, allowed, error
        }
    }

    /// The allowed values: a range, or a list.
    enum Allowed: Encodable, Sendable {
        case range(minimum: Value, maximum: Value, step: Value)
        case values([Value])

        private enum Keys: String, CodingKey { case range, values, minimum, maximum, step }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            switch self {
            case .range(let minimum, let maximum, let step):
                var range = container.nestedContainer(keyedBy: Keys.self, forKey: .range)
                try range.encode(minimum, forKey: .minimum)
                try range.encode(maximum, forKey: .maximum)
                try range.encode(step, forKey: .step)
            case .values(let values):
                try container.encode(values, forKey: .values)
            }
        }
    }

    /// A property value in JSON: integers as numbers, strings as strings, arrays as arrays, 128-bit values as hex.
    enum Value: Encodable, Sendable, CustomStringConvertible {
        case signed(Int64)
        case unsigned(UInt64)
        case text(String)
        case list([Value])
        case raw(String)

        init(_ value: PTPValue) {
            switch value {
            case .int8(let v): self = .signed(Int64(v))
            case .int16(let v): self = .signed(Int64(v))
            case .int32(let v): self = .signed(Int64(v))
            case .int64(let v): self = .signed(v)
            case .uint8(let v): self = .unsigned(UInt64(v))
            case .uint16(let v): self = .unsigned(UInt64(v))
            case .uint32(let v): self = .unsigned(UInt64(v))
            case .uint64(let v): self = .unsigned(v)
            case .int128(let v), .uint128(let v): self = .raw(v.description)
            case .array(_, let values): self = .list(values.map(Value.init))
            case .string(let v): self = .text(v)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .signed(let v): try container.encode(v)
            case .unsigned(let v): try container.encode(v)
            case .text(let v), .raw(let v): try container.encode(v)
            case .list(let values): try container.encode(values)
            }
        }

        /// `400`, `"Canon"`, `[1, 2]`.
        var description: String {
            switch self {
            case .signed(let v): String(v)
            case .unsigned(let v): String(v)
            case .text(let v): "\"\(v)\""
            case .raw(let v): v
            case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
            }
        }
    }
}

extension CameraInfoReport {
    /// Asks the camera everything the report holds.
    ///
    /// OpenSession, then the camera's identity (GetDeviceInfo and, on a Nikon, GetVendorPropCodes, whose codes join
    /// DeviceInfo's property list), the stores and each property, then CloseSession. A camera that refuses the
    /// session is described by DeviceInfo alone (legal outside a session). A store or property the camera refuses is
    /// recorded with the camera's response and the report goes on; a failing link ends it with the transport's
    /// error.
    static func gather(session: PTPSession, link: CameraLink?) async throws -> CameraInfoReport {
        do {
            try await session.openSession()
        } catch let error as PTPError where error.code == .deviceResponse {
            var report = CameraInfoReport(try await session.getDeviceInfo(), link: link)
            report.notes.append("The camera refused OpenSession (\(error)); stores and properties need a session.")
            return report
        }
        let identity = try await session.cameraIdentity(usbVendorID: link?.usbVendorID, usbProductID: link?.usbProductID)
        let info = identity.deviceInfo
        let vendor = info.cameraVendor
        var report = CameraInfoReport(info, link: link)
        if !identity.vendorPropertyCodes.isEmpty {
            report.notes.append(
                "\(identity.vendorPropertyCodes.count) of the \(info.devicePropertiesSupported.count) properties are listed by GetVendorPropCodes (0x90CA), not in DeviceInfo."
            )
        }
        // The stores through the camera's own storage operations where it has them (Canon EOS 0x9101/0x9102).
        let listing = try await session.listStorages()
        report.storages = listing.stores.map(Self.storage)
        for refusal in listing.refusals {
            report.notes.append("The camera refused GetStorageIDs \(refusal.operations) (\(refusal.error)).")
        }
        if listing.operations == nil, listing.refusals.isEmpty {
            report.notes.append("The camera does not list GetStorageIDs.")
        }
        var descriptors: [DevicePropertyCode: DevicePropDesc] = [:]
        if let describe = VendorKits.kit(for: identity).describeProperties,
            let described = try await Self.vendorDescriptions(describe, session: session, identity: identity)
        {
            // The maker describes its properties its own way (a Sony body in PC Remote mode: GetAllDevicePropData).
            switch described {
            case .success(let all):
                for descriptor in all {
                    report.properties.append(Self.property(descriptor, vendor: vendor))
                    descriptors[descriptor.propertyCode] = descriptor
                }
            case .failure(let error):
                report.notes.append(
                    "The camera refused to describe its properties (\(error)): property values are unknown.")
                report.properties = info.devicePropertiesSupported.map {
                    Property(code: hex($0.rawValue), name: $0.description(vendor: vendor), error: "not readable")
                }
            }
        } else if info.supports(.getDevicePropDesc) || info.devicePropertiesSupported.isEmpty {
            for code in info.devicePropertiesSupported {
                let (property, descriptor) = try await property(code, session: session, vendor: vendor)
                report.properties.append(property)
                descriptors[code] = descriptor
            }
        } else {
            report.notes.append("The camera does not list GetDevicePropDesc: property values are unknown.")
            report.properties = info.devicePropertiesSupported.map {
                Property(code: hex($0.rawValue), name: $0.description(vendor: vendor), error: "not readable")
            }
        }
        report.addRawFormats(info, descriptors: descriptors, profile: CameraProfile.select(for: identity))
        report.addReadableValues(descriptors, identity: identity)
        // The report is complete; a camera that objects to closing does not spoil it.
        try? await session.endSession()
        return report
    }

    /// Names each described property and formats its values as `config` does (from the descriptors already read:
    /// no further requests). A Nikon's `quality` is named by its body's numbering when the descriptor and the
    /// model identify one (``PTP/NikonImageQualityTable/identify(model:usbProductID:descriptor:)``).
    mutating func addReadableValues(_ descriptors: [DevicePropertyCode: DevicePropDesc], identity: CameraIdentity) {
        let vendor = identity.deviceInfo.cameraVendor
        var catalog = PropertyCatalog.standard
        if vendor == .nikon, let quality = descriptors[.compressionSetting],
            let table = NikonImageQualityTable.identify(
                model: identity.deviceInfo.model, usbProductID: identity.nikonUSBProductID, descriptor: quality
            ).table
        {
            catalog = catalog.preferring(PropertyCatalog.nikonImageQuality(table))
        }
        for index in properties.indices {
            guard let code = UInt16(properties[index].code.dropFirst(2), radix: 16),
                let descriptor = descriptors[DevicePropertyCode(rawValue: code)]
            else { continue }
            let definition = catalog.definition(for: descriptor.propertyCode, vendor: vendor)
                ?? .unnamed(descriptor.propertyCode, vendor: vendor)
            properties[index].readable = PropertyState(definition, descriptor: descriptor, vendor: vendor)
        }
    }

    /// The maker's own property descriptions (``Capture/VendorKit/describeProperties``): `nil` when the camera takes
    /// the standard path, the camera's refusal as a failure.
    static func vendorDescriptions(
        _ describe: @Sendable (PTPSession, CameraIdentity) async throws -> [DevicePropDesc]?, session: PTPSession,
        identity: CameraIdentity
    ) async throws -> Result<[DevicePropDesc], PTPError>? {
        do {
            return try await describe(session, identity).map { .success($0) }
        } catch let error as PTPError where error.code == .deviceResponse {
            return .failure(error)
        }
    }

    /// The report of DeviceInfo alone.
    init(_ info: DeviceInfo, link: CameraLink?) {
        let vendor = info.cameraVendor
        let codes = { (values: [UInt16], name: (UInt16) -> String) in
            values.map { Code(code: hex($0), name: name($0)) }
        }
        camera = link.flatMap(Link.init)
        device = Device(
            manufacturer: info.manufacturer, model: info.model, version: info.deviceVersion,
            serialNumber: info.serialNumber, ptpVersion: hundredths(info.standardVersion),
            vendorExtension: VendorExtension(
                id: hex(info.vendorExtensionID.rawValue), name: info.vendorExtensionID.description,
                version: hundredths(info.vendorExtensionVersion), description: info.vendorExtensionDesc,
                cameraVendor: vendor.description),
            functionalMode: Int(info.functionalMode))
        storages = []
        operations = codes(info.operationsSupported.map(\.rawValue)) { OperationCode($0).description(vendor: vendor) }
        events = codes(info.eventsSupported.map(\.rawValue)) { EventCode($0).description(vendor: vendor) }
        properties = []
        captureFormats = codes(info.captureFormats.map(\.rawValue)) { ObjectFormatCode($0).description(vendor: vendor) }
        imageFormats = codes(info.imageFormats.map(\.rawValue)) { ObjectFormatCode($0).description(vendor: vendor) }
        notes = []
        addRawFormats(info, descriptors: [:], profile: CameraProfile.select(for: info))
    }

    private static func storage(_ store: StorageListing.Store) -> Storage {
        let id = store.id
        switch store.info {
        case .success(let info):
            return Storage(
                id: hex(id.rawValue), type: info.storageType.description, filesystem: info.filesystemType.description,
                access: info.accessCapability.description, capacityBytes: info.maxCapacity,
                freeBytes: info.freeSpaceInBytes, freeImages: info.freeImages, description: info.storageDescription,
                label: info.volumeLabel)
        case .failure(let error):
            return Storage(id: hex(id.rawValue), error: "refused by the camera: \(error.response?.description ?? "?")")
        }
    }

    /// Derives the raw formats from DeviceInfo and the bit depth descriptor already read (no further requests, so
    /// recordings of `rawcap info` replay strictly).
    mutating func addRawFormats(
        _ info: DeviceInfo, descriptors: [DevicePropertyCode: DevicePropDesc], profile: CameraProfile
    ) {
        // The maker's bit depth property (a Nikon's RawBitMode, its values read as bits), else rawcap's generic one.
        let bitDepthCode =
            profile.rawBitDepthProperty
            ?? (try? PropertyCatalog.standard.definition(named: "bitdepth", vendor: info.cameraVendor).code)
        let catalog = RawFormatCatalog(
            deviceInfo: info, bitDepth: bitDepthCode.flatMap { descriptors[$0] }.map(profile.bitDepthInBits))
        rawFormats = catalog.offers
        if let choice = try? catalog.choose(.auto) {
            rawFormatAuto = RawFormatAuto(format: choice.offer.format.rawValue, reason: choice.reason)
        }
    }

    private static func property(_ code: DevicePropertyCode, session: PTPSession, vendor: VendorExtensionID)
        async throws -> (Property, DevicePropDesc?)
    {
        var property = Property(code: hex(code.rawValue), name: code.description(vendor: vendor))
        var descriptor: DevicePropDesc?
        do {
            let desc = try await session.getDevicePropDesc(code)
            descriptor = desc
            property = Self.property(desc, vendor: vendor)
        } catch let error as PTPError where error.code == .deviceResponse {
            property.error = "refused by the camera: \(error.response?.description ?? "?")"
        } catch let error as WireError {
            property.error = "unreadable description: \(error)"
        }
        return (property, descriptor)
    }

    /// The report line of a property the camera described.
    private static func property(_ desc: DevicePropDesc, vendor: VendorExtensionID) -> Property {
        var property = Property(
            code: hex(desc.propertyCode.rawValue), name: desc.propertyCode.description(vendor: vendor))
        property.type = desc.dataType.description
        property.writable = desc.isSettable
        property.current = Value(desc.currentValue)
        property.factoryDefault = Value(desc.factoryDefaultValue)
        switch desc.form {
        case .none: break
        case .range(let minimum, let maximum, let step):
            property.allowed = .range(minimum: Value(minimum), maximum: Value(maximum), step: Value(step))
        case .enumeration(let values):
            property.allowed = .values(values.map(Value.init))
        }
        return property
    }
}

extension CameraInfoReport.Link {
    /// The USB facts of a USB camera; `nil` for a link without them (the emulated camera).
    init?(_ link: CameraLink) {
        switch link {
        case .emulated:
            return nil
        case .usb(let camera):
            self.init(
                transport: "usb", selector: camera.selector, vendorID: hex4(camera.vendorID),
                productID: hex4(camera.productID), port: camera.portPath, manufacturer: camera.manufacturer,
                product: camera.product, serialNumber: camera.serialNumber,
                interface: camera.interface.kind == .stillImage ? "still image (6/1/1)" : "vendor-specific (ff)",
                maxPacketSize: camera.interface.bulkIn.maxPacketSize)
        case .ptpip(let address, let friendlyName):
            self.init(transport: "ptpip", selector: "ptpip:\(address)", friendlyName: friendlyName)
        case .replay(let path, let mode, let cameraModel):
            self.init(transport: "replay", selector: "replay:\(path)", replayMode: mode, recordedModel: cameraModel)
        }
    }
}

/// `0x5001`, `0x00010001`: four hex digits at least.
func hex<T: BinaryInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, (value.bitWidth > 16 ? 8 : 4) - digits.count)) + digits
}

/// `04a9`: a USB ID as lsusb prints it.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// PTP's versions ×100 as text: 110 → "1.10".
func hundredths(_ value: UInt16) -> String {
    let fraction = String(value % 100)
    return "\(value / 100)." + (fraction.count < 2 ? "0" : "") + fraction
}
