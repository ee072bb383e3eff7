import FoundationEssentials
import RawDecoders
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// Everything `rawcap inspect` tells about a raw file, as one value: printed as text for people and as JSON
/// (`--json`) for scripts. Field names are stable; absent values are left out of the JSON.
public struct InspectReport: Codable, Sendable {
    /// Who made the camera and which one it is.
    public struct Camera: Codable, Sendable {
        public var make: String?
        public var model: String?
        public var uniqueCameraModel: String?
        public var serialNumber: String?
        public var lens: String?
    }

    /// How the shot was taken.
    public struct Exposure: Codable, Sendable {
        /// Exposure time as a fraction, e.g. `1/250`.
        public var exposureTime: String?
        /// Exposure time in seconds.
        public var exposureSeconds: Double?
        public var fNumber: Double?
        public var iso: Int?
        /// Exposure bias in EV as a fraction, e.g. `-1/3`.
        public var exposureBias: String?
        /// Focal length in millimetres.
        public var focalLength: Double?
        /// EXIF form with sub-seconds and offset, e.g. `2024:05:17 14:03:59.042+02:00`.
        public var captureTime: String?
        public var orientation: String
        /// In a focus bracket, the lens's position (the file's XMP `rawcap:FocusStep`, the journal's `focusStep`).
        public var focusStep: Int?

        /// `time` and `seconds`, as shoot's and pull's `exposure` name them (docs/json.md).
        enum CodingKeys: String, CodingKey {
            case exposureTime = "time"
            case exposureSeconds = "seconds"
            case fNumber, iso, exposureBias, focalLength, captureTime, orientation, focusStep
        }
    }

    /// The raw image: size, pattern, geometry and levels.
    public struct Image: Codable, Sendable {
        /// `cfa` or `linear`.
        public var kind: String
        public var width: Int
        public var height: Int
        /// Bits per sample of the image's values (after linearization when there is a table).
        public var bitsPerSample: Int
        /// Bits per sample as stored in the file.
        public var storedBitsPerSample: Int
        /// The CFA pattern's name (`RGGB`, `X-Trans`, …), for CFA images.
        public var pattern: String?
        public var activeArea: PixelRect
        public var defaultCrop: PixelRect
        /// Per CFA position (CFA) or per channel (linear).
        public var blackLevels: [Double]
        /// One value (CFA) or per channel (linear).
        public var whiteLevels: [Int]
        /// Entries of the LinearizationTable, when the file has one.
        public var linearizationTableEntries: Int?
    }

    /// The colour calibration.
    public struct Color: Codable, Sendable {
        public var colorMatrix1: [Double]
        public var illuminant1: String
        public var colorMatrix2: [Double]?
        public var illuminant2: String?
        public var forwardMatrix1: [Double]?
        public var forwardMatrix2: [Double]?
        public var asShotNeutral: [Double]
        public var baselineExposure: Double
    }

    /// How the raw data is stored.
    public struct Storage: Codable, Sendable {
        /// `DNG 1.4.0.0`, `TIFF/EP`, or the LibRaw decoder of a vendor file.
        public var container: String
        /// `little` or `big`, for TIFF files.
        public var byteOrder: String?
        /// The compression scheme, for TIFF files.
        public var compression: String?
        /// Strips or tiles.
        public var layout: String
        /// Where the raw image sits in the file.
        public var location: String?
        /// NewRawImageDigest check: `verified`, `mismatch` (damaged pixel data), or absent when the file has none.
        public var rawImageDigest: String? = nil
        /// Which decoder read the samples: `rawcap` (its own DNG and TIFF/EP reader) or `LibRaw 0.20.2-Release`.
        public var reader: String = "rawcap"
    }

    /// One embedded preview.
    public struct Preview: Codable, Sendable {
        /// Where it sits in the file, e.g. `IFD0/SubIFD1`.
        public var location: String
        public var width: Int
        public var height: Int
        /// `JPEG`, `RGB` or a description.
        public var kind: String
        public var byteCount: Int
    }

    /// One per-channel histogram.
    public struct Histogram: Codable, Sendable {
        /// `R`, `G` or `B` (both greens of a Bayer pattern together).
        public var channel: String
        /// Sample counts in equal steps from black to white, darkest first; clipped samples are in the last bin.
        public var bins: [Int]
        /// Samples at or above the white level, as a fraction of ``sampleCount``.
        public var clippedFraction: Double
        /// Samples at or above the white level.
        public var clippedCount: Int
        /// Samples counted (the channel's photosites in the active area).
        public var sampleCount: Int
    }

    public var file: String
    public var fileSize: Int
    public var camera: Camera
    public var exposure: Exposure
    public var image: Image
    public var color: Color
    public var storage: Storage
    public var previews: [Preview]
    public var histograms: [Histogram]
    public var warnings: [String]

    /// Builds the report for `decoded`, read from `file` of `fileSize` bytes; computes the histograms.
    public init(file: String, fileSize: Int, decoded: DecodedRaw) {
        self.init(file: file, fileSize: fileSize, decoded: decoded, digest: InputFile.checkDigest(of: decoded))
    }

    /// Builds the report with the result of the NewRawImageDigest check already known.
    init(file: String, fileSize: Int, decoded: DecodedRaw, digest: InputFile.DigestCheck) {
        self.file = file
        self.fileSize = fileSize
        let linear = (try? decoded.applyingLinearization()) ?? decoded
        let metadata: CaptureMetadata
        let calibration: ColorCalibration
        switch linear.image {
        case .cfa(let frame):
            metadata = frame.metadata
            calibration = frame.color
            image = Image(
                kind: "cfa", width: frame.width, height: frame.height, bitsPerSample: frame.bitsPerSample,
                storedBitsPerSample: decoded.storedBitsPerSample, pattern: frame.cfa.name,
                activeArea: frame.activeArea, defaultCrop: frame.defaultCrop, blackLevels: frame.blackLevels,
                whiteLevels: [frame.whiteLevel], linearizationTableEntries: decoded.linearizationTable?.count)
            histograms = ChannelHistogram.histograms(of: frame).map(Histogram.init)
        case .linear(let picture):
            metadata = picture.metadata
            calibration = picture.color
            image = Image(
                kind: "linear", width: picture.width, height: picture.height, bitsPerSample: picture.bitsPerSample,
                storedBitsPerSample: decoded.storedBitsPerSample, pattern: nil,
                activeArea: PixelRect(width: picture.width, height: picture.height), defaultCrop: picture.defaultCrop,
                blackLevels: picture.blackLevels, whiteLevels: picture.whiteLevels,
                linearizationTableEntries: picture.linearizationTable?.count)
            histograms = ChannelHistogram.histograms(of: picture).map(Histogram.init)
        }
        camera = Camera(
            make: metadata.make, model: metadata.model, uniqueCameraModel: metadata.uniqueCameraModel,
            serialNumber: metadata.serialNumber, lens: metadata.lensModel)
        exposure = Exposure(
            exposureTime: metadata.exposureTime?.description, exposureSeconds: metadata.exposureTime?.doubleValue,
            fNumber: metadata.fNumber, iso: metadata.iso, exposureBias: metadata.exposureBias?.description,
            focalLength: metadata.focalLength, captureTime: metadata.captureTime?.description,
            orientation: metadata.orientation.description, focusStep: metadata.focusStep)
        color = Color(
            colorMatrix1: calibration.colorMatrix1.values, illuminant1: calibration.illuminant1.description,
            colorMatrix2: calibration.colorMatrix2?.values, illuminant2: calibration.illuminant2?.description,
            forwardMatrix1: calibration.forwardMatrix1?.values, forwardMatrix2: calibration.forwardMatrix2?.values,
            asShotNeutral: calibration.asShotNeutral, baselineExposure: calibration.baselineExposure)
        let info = decoded.info
        storage = Storage(
            container: info.container.description,
            byteOrder: info.byteOrder.map { $0 == .little ? "little" : "big" },
            compression: info.storage.compression.map { compression in
                compression == .jpeg ? "lossless JPEG" : compression.description
            },
            layout: info.storage.layout, location: info.storage.path.isEmpty ? nil : info.storage.path,
            rawImageDigest: digest == .absent ? nil : digest.rawValue, reader: info.reader.description)
        previews = info.previews.map {
            Preview(
                location: $0.path, width: $0.width, height: $0.height, kind: $0.kind.description,
                byteCount: $0.byteCount)
        }
        warnings = info.warnings
    }

    /// The report as lines of text, with the histograms drawn `histogramWidth` characters wide.
    public func text(histogramWidth: Int = 48) -> String {
        var lines: [String] = []
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            // Labels are ASCII and at most 13 characters (NSString's padding(toLength:withPad:startingAt:) did this).
            lines.append(label + String(repeating: " ", count: max(0, 13 - label.count)) + value)
        }
        add("File:", "\(file) (\(fileSize) bytes)")
        add(
            "Format:",
            [storage.container, storage.byteOrder.map { "\($0)-endian" }].compactMap { $0 }.joined(separator: ", "))
        // Make and Model are what the camera calls itself; UniqueCameraModel (the colour profile's key) is shown
        // too when it says something else.
        let makeModel = [camera.make, camera.model].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        var name = makeModel.isEmpty ? (camera.uniqueCameraModel ?? "") : makeModel
        if let unique = camera.uniqueCameraModel, !makeModel.isEmpty, unique != makeModel {
            name += " (profile \"\(unique)\")"
        }
        add("Camera:", [name, camera.serialNumber.map { "serial \($0)" }].compactMap { $0 }.joined(separator: ", "))
        add("Lens:", camera.lens)
        let exposureParts: [String?] = [
            exposure.exposureTime.map { "\($0) s" }, exposure.fNumber.map { "f/\(Self.trim($0))" },
            exposure.iso.map { "ISO \($0)" }, exposure.exposureBias.map { "\($0) EV" },
            exposure.focalLength.map { "\(Self.trim($0)) mm" },
        ]
        add("Exposure:", exposureParts.compactMap { $0 }.joined(separator: "  "))
        add("Captured:", exposure.captureTime)
        add("Orientation:", exposure.orientation)
        add("Focus step:", exposure.focusStep.map { "\($0) (focus bracket: drives from the first frame)" })
        let bits: String
        if image.linearizationTableEntries != nil {
            bits = "\(image.storedBitsPerSample)-bit stored, \(image.bitsPerSample)-bit linear"
        } else if image.storedBitsPerSample != image.bitsPerSample {
            // 10…14-bit data in 16-bit containers, WhiteLevel giving the range (DNG allows both forms).
            bits = "\(image.bitsPerSample)-bit in \(image.storedBitsPerSample)-bit samples"
        } else {
            bits = "\(image.bitsPerSample)-bit"
        }
        add("Image:", "\(image.width)×\(image.height), \(bits), " + (image.pattern.map { "CFA \($0)" } ?? "linear RGB"))
        add("Active area:", "\(image.activeArea)   default crop: \(image.defaultCrop)")
        add(
            "Levels:",
            "black \(image.blackLevels.map { Self.trim($0) }.joined(separator: "/"))  white \(image.whiteLevels.map(String.init).joined(separator: "/"))"
                + (image.linearizationTableEntries.map { "  (LinearizationTable of \($0) entries)" } ?? ""))
        add(
            "Colour:",
            "ColorMatrix1 (\(color.illuminant1))" + (color.illuminant2.map { " + ColorMatrix2 (\($0))" } ?? "")
                + (color.forwardMatrix1 == nil ? "" : " + ForwardMatrix")
                + ", neutral \(color.asShotNeutral.map { String(cFormat: "%.3f", $0) }.joined(separator: " "))"
                + (color.baselineExposure == 0 ? "" : ", baseline \(Self.trim(color.baselineExposure)) EV"))
        add(
            "Storage:",
            [storage.compression, storage.layout, storage.location.map { "in \($0)" }].compactMap { $0 }
                .joined(separator: ", "))
        add("Reader:", storage.reader)
        add(
            "Digest:",
            storage.rawImageDigest.map {
                $0 == "verified"
                    ? "NewRawImageDigest verified" : "NewRawImageDigest MISMATCH: the raw data is damaged"
            })
        add(
            "Previews:",
            previews.isEmpty
                ? "none"
                : previews.map { "\($0.width)×\($0.height) \($0.kind) (\($0.byteCount) bytes) in \($0.location)" }
                    .joined(separator: "; "))
        lines.append("Histogram (active area, black → white, log scale):")
        for histogram in histograms {
            let drawing = ChannelHistogram(
                channel: histogram.channel, bins: histogram.bins, clippedCount: 0, sampleCount: 0
            ).sparkline(width: histogramWidth)
            lines.append(
                "  \(histogram.channel) │\(drawing)│ clipped \(String(cFormat: "%.2f", histogram.clippedFraction * 100))%"
            )
        }
        for warning in warnings { lines.append("Warning: \(warning)") }
        // Make, Model, LensModel, serial numbers, warnings and the path come from the file (or its name): a control
        // character in one must neither reach the terminal (clear the screen, set the title) nor start a line of
        // its own that looks like part of the report. Each line is escaped as camera strings in messages are.
        return lines.map(\.visibleControlCharacters).joined(separator: "\n")
    }

    /// A number without a trailing `.0`.
    static func trim(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(cFormat: "%g", value)
    }
}

extension InspectReport.Histogram {
    init(_ histogram: ChannelHistogram) {
        self.init(
            channel: histogram.channel, bins: histogram.bins, clippedFraction: histogram.clippedFraction,
            clippedCount: histogram.clippedCount, sampleCount: histogram.sampleCount)
    }
}
