import PTP

/// The formats a camera can deliver, in rawcap's names, derived from DeviceInfo's CaptureFormats and the raw bit
/// depth property's descriptor; and the choice `--format auto` makes among them.
///
/// - TIFF/EP (0x3802) and the makers' raw formats (Canon CRW/CR2/CR3, Sony ARW, Nikon NEF, which Nikon reports as
///   0x3000) carry Bayer data: one ``RawFormat/bayer16``/``RawFormat/bayer14``/``RawFormat/bayer12`` offer per bit
///   depth the descriptor allows (only the current one when the property is read-only), or ``RawFormat/bayer``
///   when the camera has no such property.
/// - ``RawFormat/linear`` comes from a DNG the camera writes itself (0x3811: phones write ProRAW-style LinearRaw
///   DNGs), or else from rawcap demosaicing a Bayer frame (``Offer/isDerived``).
/// - TIFF (0x380D) and EXIF/JPEG (0x3801) are processed pictures.
///
/// ```swift
/// let catalog = try await RawFormatCatalog.load(settings)
/// let choice = try catalog.choose(.auto)   // bayer16, "the purest …"
/// try await settings.set(choice.offer.settings)
/// ```
public struct RawFormatCatalog: Hashable, Sendable {
    /// One format the camera can deliver and how to get it.
    public struct Offer: Hashable, Sendable, Encodable {
        /// rawcap's name.
        public var format: RawFormat
        /// The object format the camera sends.
        public var objectFormat: UInt16
        /// The object format's name (`TIFF_EP`, `Canon.CRW3`).
        public var objectFormatName: String
        /// Bits per sample, when known.
        public var bitDepth: Int?
        /// The settings that select it (`bitdepth=14`); empty when nothing needs setting.
        public var settings: [Setting]
        /// Whether rawcap makes it from another format (linear from Bayer by demosaicing).
        public var isDerived: Bool
        /// What it is, for people.
        public var note: String

        /// A `NAME=VALUE` that selects an offer.
        public struct Setting: Hashable, Sendable, Encodable {
            /// The setting's readable name.
            public var name: String
            /// The value as `config set` takes it.
            public var value: String
            /// As an assignment for ``CameraSettings/set(_:)-([PropertyAssignment])``.
            public var assignment: PropertyAssignment { PropertyAssignment(name: name, value: value) }
        }

        enum CodingKeys: String, CodingKey {
            case format, objectFormat, objectFormatName, bitDepth, settings, isDerived = "derived", note
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(format.rawValue, forKey: .format)
            try container.encode(PropertyValueStyle.hex(Int(objectFormat)), forKey: .objectFormat)
            try container.encode(objectFormatName, forKey: .objectFormatName)
            try container.encodeIfPresent(bitDepth, forKey: .bitDepth)
            try container.encode(settings, forKey: .settings)
            try container.encode(isDerived, forKey: .isDerived)
            try container.encode(note, forKey: .note)
        }
    }

    /// What ``choose(_:)`` picked, and why.
    public struct Choice: Hashable, Sendable {
        /// The offer.
        public var offer: Offer
        /// Why, in one sentence.
        public var reason: String
    }

    /// Every offer, purest first (Bayer by falling depth, linear, TIFF, JPEG).
    public let offers: [Offer]

    /// Derives the offers from DeviceInfo and the raw bit depth property's descriptor (`nil` when the camera has
    /// none).
    ///
    /// - Parameter bitDepthSetting: the readable name of the bit depth property (`bitdepth`).
    public init(deviceInfo: DeviceInfo, bitDepth: DevicePropDesc?, bitDepthSetting: String = "bitdepth") {
        let vendor = deviceInfo.cameraVendor
        let formats = deviceInfo.captureFormats
        var offers: [Offer] = []
        func name(_ code: ObjectFormatCode) -> String {
            // A Nikon's raw shots are 0x3000 (Undefined) objects holding NEFs (a real D850's capture formats are
            // "JPEG TIFF Undefined Type": libgphoto2 camlibs/ptp2/cameras/nikon-d850.txt); name them for what they
            // are.
            if vendor == .nikon && code == .undefined { return "NEF (0x3000)" }
            return code.description(vendor: vendor)
        }

        var bayerSources = formats.filter { Self.isBayerSource($0, vendor: vendor) }
        if vendor == .canon, bayerSources.isEmpty, deviceInfo.supports(OperationCode.Canon.getEvent) {
            // A Canon EOS lists only JPEG among its CaptureFormats although it shoots raw through its EOS operations
            // (a real 5D Mark IV: "Capture Formats: JPEG", libgphoto2 camlibs/ptp2/cameras/canon-eos5dmark4.txt; a
            // real 60D likewise, Fixtures/ptp-real/canon-eos-60d_deviceinfo.hex); its raw formats are among
            // ImageFormats (CRW, CR2 and CR3 all listed by some bodies), and its ImageFormat property (0xD120) says
            // which it writes. The newest listed stands for it.
            bayerSources = [0xB108, 0xB103, 0xB101].map(ObjectFormatCode.init(rawValue:)).filter {
                deviceInfo.imageFormats.contains($0)
            }.prefix(1).map { $0 }
        }
        // TIFF/EP first: rawcap reads it itself; makers' formats go through LibRaw.
        let bayerSource = bayerSources.first { $0 == .tiffEP } ?? bayerSources.first
        if let source = bayerSource {
            let depths = Self.depths(bitDepth)
            if depths.isEmpty {
                offers.append(
                    Offer(
                        format: .bayer, objectFormat: source.rawValue, objectFormatName: name(source), bitDepth: nil,
                        settings: [], isDerived: false,
                        note: "Bayer data as \(name(source)), at the depth the camera chooses"))
            }
            for depth in depths {
                let settable = bitDepth?.isSettable ?? false
                offers.append(
                    Offer(
                        format: .bayerFormat(bits: depth), objectFormat: source.rawValue,
                        objectFormatName: name(source),
                        bitDepth: depth,
                        settings: settable ? [Offer.Setting(name: bitDepthSetting, value: String(depth))] : [],
                        isDerived: false, note: "Bayer data as \(name(source)), \(depth) bits per sample"))
            }
        }
        if formats.contains(.dng) {
            offers.append(
                Offer(
                    format: .linear, objectFormat: ObjectFormatCode.dng.rawValue, objectFormatName: name(.dng),
                    bitDepth: nil, settings: [], isDerived: false,
                    note: "the camera's own DNG (LinearRaw or CFA as the camera writes it)"))
        } else if let source = bayerSource {
            offers.append(
                Offer(
                    format: .linear, objectFormat: source.rawValue, objectFormatName: name(source), bitDepth: nil,
                    settings: [], isDerived: true, note: "demosaiced by rawcap from the Bayer \(name(source))"))
        }
        if formats.contains(.tiff) {
            offers.append(
                Offer(
                    format: .tiff, objectFormat: ObjectFormatCode.tiff.rawValue, objectFormatName: name(.tiff),
                    bitDepth: nil, settings: [], isDerived: false, note: "processed RGB TIFF from the camera"))
        }
        if formats.contains(.exifJPEG) {
            offers.append(
                Offer(
                    format: .jpeg, objectFormat: ObjectFormatCode.exifJPEG.rawValue, objectFormatName: name(.exifJPEG),
                    bitDepth: 8, settings: [], isDerived: false, note: "processed JPEG from the camera"))
        }
        self.offers = offers
        captureFormatNames = formats.map(name)
    }

    /// The capture formats DeviceInfo listed, by name (for messages).
    public let captureFormatNames: [String]

    /// Reads the bit depth property's descriptor through `settings` (when the camera has one) and derives the
    /// catalog.
    public static func load(_ settings: CameraSettings, bitDepthSetting: String = "bitdepth") async throws
        -> RawFormatCatalog
    {
        var descriptor: DevicePropDesc?
        if let definition = try? settings.definition(named: bitDepthSetting) {
            do {
                descriptor = try await settings.descriptor(definition)
            } catch is CameraControlError {
                descriptor = nil  // the camera would not describe it: depths unknown
            }
        }
        return RawFormatCatalog(deviceInfo: settings.deviceInfo, bitDepth: descriptor, bitDepthSetting: bitDepthSetting)
    }

    /// The formats on offer, purest first, without repeats.
    public var formats: [RawFormat] { offers.map(\.format) }

    /// The offer `request` selects.
    ///
    /// `auto` takes the purest: Bayer at the highest bit depth, then linear (a camera without Bayer output), then
    /// TIFF, then JPEG; the reason says which and why.
    ///
    /// - Throws: ``CameraControlError/Code/formatUnavailable`` listing the formats the camera can deliver.
    public func choose(_ request: RawFormatRequest) throws(CameraControlError) -> Choice {
        let available = formats.map(\.rawValue)
        switch request {
        case .format(let format):
            guard let offer = offers.first(where: { $0.format == format }) else {
                throw CameraControlError(
                    .formatUnavailable, property: "format",
                    "this camera cannot deliver \(format) (capture formats: \(capturesText))", allowed: available)
            }
            return Choice(offer: offer, reason: "\(format): asked for; \(offer.note)")
        case .auto:
            guard let offer = offers.first else {
                throw CameraControlError(
                    .formatUnavailable, property: "format",
                    "the camera lists no capture format rawcap can use (capture formats: \(capturesText))")
            }
            return Choice(offer: offer, reason: reason(for: offer))
        }
    }

    private var capturesText: String {
        captureFormatNames.isEmpty ? "none" : captureFormatNames.joined(separator: ", ")
    }

    private func reason(for offer: Offer) -> String {
        let bayerDepths = offers.filter(\.format.isBayer).compactMap(\.bitDepth)
        switch offer.format {
        case .bayer16, .bayer14, .bayer12:
            let depths = bayerDepths.sorted().map(String.init).joined(separator: ", ")
            return "\(offer.format): Bayer data is the purest the camera delivers, and \(offer.bitDepth ?? 0) bits "
                + "is the highest of its raw bit depths (\(depths)); \(offer.note)"
        case .bayer:
            return "bayer: Bayer data is the purest the camera delivers; \(offer.note)"
        case .linear:
            return "linear: the camera delivers no Bayer raw format, so the linear raw is the purest; \(offer.note)"
        case .tiff, .jpeg:
            return "\(offer.format): the camera delivers no raw format (capture formats: \(capturesText)); "
                + offer.note
        }
    }

    /// The allowed bit depths: each value of an enumeration or range, or the current value alone when the
    /// property is read-only; highest first.
    static func depths(_ descriptor: DevicePropDesc?) -> [Int] {
        guard let descriptor else { return [] }
        var values: [Int]
        if !descriptor.isSettable {
            values = descriptor.currentValue.integerValue.map { [$0] } ?? []
        } else {
            switch descriptor.form {
            case .enumeration(let list):
                values = list.compactMap(\.integerValue)
            case .range(let minimum, let maximum, let step):
                guard let low = minimum.integerValue, let high = maximum.integerValue, low <= high else { return [] }
                let stride = max(1, step.integerValue ?? 1)
                values = Array(Swift.stride(from: max(low, 8), through: min(high, 16), by: stride))
            case .none:
                values = descriptor.currentValue.integerValue.map { [$0] } ?? []
            }
        }
        // Only real sample depths count; a camera may list odd values.
        return Array(Set(values.filter { (8...16).contains($0) })).sorted(by: >)
    }

    /// Whether `format` carries Bayer data on a camera of `vendor`.
    static func isBayerSource(_ format: ObjectFormatCode, vendor: VendorExtensionID) -> Bool {
        if format == .tiffEP { return true }
        switch vendor {
        case .canon: return [0xB101, 0xB103, 0xB108].contains(format.rawValue)  // CRW, CR2, CR3
        case .sony: return format.rawValue == 0xB101  // ARW
        case .fujifilm: return format.rawValue == 0xB103  // RAF (X-Trans CFA data)
        case .nikon: return format == .undefined  // Nikon reports NEF as 0x3000
        default: return false
        }
    }
}
