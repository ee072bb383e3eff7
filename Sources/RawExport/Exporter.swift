import DNG
import FoundationEssentials
import JPEG
import OutputFiles
import RawDecoders
import RawImage

/// The one step from a decoded raw to a written file, for every command (`shoot`, `tether` and `pull` through
/// `Capture.ShotProcessor`, `convert` through `RawcapCLI.Converter`): what the file holds, which previews it carries,
/// how the raw data is linearised and oriented, its Software tag and where it goes are decided here once. Callers
/// keep what is theirs (decoding and its diagnostics, RAW+JPEG pairing, journaling, text and JSON output).
public enum Exporter {
    /// The Software tag of every file rawcap writes (DNG and TIFF).
    public static let software = "rawcap \(RawcapVersion.current)"

    /// Writes `source` as `request` asks and returns what was written.
    ///
    /// A CFA LinearizationTable is applied first (rawcap's DNG writer carries a table only for LinearRaw images), so
    /// every product holds the linear values every reader would compute from the original. A TIFF is a rendering,
    /// already upright: its Orientation is `.normal` whatever the camera said. Rendered CFA previews are drawn on
    /// another thread while the raw data is written (``DNG/PendingPreviews``); a frame rawcap cannot render in colour
    /// gets a grey thumbnail of its raw brightness (``GreyThumbnail``), so it is still written. The file is published
    /// through ``OutputFiles/OutputFile`` under the destination's name, or the next free `STEM-N` when that is taken (rawcap
    /// never overwrites).
    ///
    /// - Throws: ``ExportError`` for a request that does not fit the source (``ExportError/Code/notCFA``) or a file
    ///   that was written but cannot be read back for its SHA-256; `DNGError` from the writers, `OutputFileError` for
    ///   an original (nothing is left behind); `RawImageError` and `JPEGError` when the data cannot be linearised, demosaiced or rendered.
    public static func export(_ source: ExportSource, _ request: ExportRequest) throws -> ExportResult {
        let path = request.destination.path(fileExtension: request.product.fileExtension)
        let whenTaken = request.destination.whenTaken(fileExtension: request.product.fileExtension)
        let decoded: DecodedRaw
        switch (source, request.product) {
        case (.original(let bytes), .original):
            let final = try OutputFile.write(bytes, to: path, whenTaken: whenTaken)
            return ExportResult(
                kind: .original, path: final, intendedPath: path, byteCount: bytes.count,
                sha256: request.computesSHA256 ? MessageDigest.hash(.sha256, bytes) : nil, width: nil, height: nil,
                metadata: nil, bitsPerSample: nil, fallback: nil)
        case (.original, _), (.decoded, .original):
            throw ExportError(.invalidRequest, "\(request.product) cannot be made from \(source.kind)")
        case (.decoded(let raw), _):
            decoded = try raw.applyingLinearization()
        }

        var options = request.dngOptions
        options.compression = request.compression
        options.software = software
        options.computesFileSHA256 = request.computesSHA256
        var fallback: ExportResult.Fallback?
        let kind: ExportResult.Kind
        let written: (path: String, byteCount: Int, sha256: [UInt8]?, width: Int, height: Int)
        let metadata: CaptureMetadata
        var bitsPerSample: Int?
        switch (request.product, decoded.image) {
        case (.cfaDNG, .cfa(let frame)):
            metadata = frame.metadata
            bitsPerSample = frame.bitsPerSample
            do {
                let result = try writeCFA(
                    frame, previews: request.previews, options: options, to: path, whenTaken: whenTaken)
                (kind, written) = (.cfaDNG, (result.path, result.byteCount, result.sha256, frame.width, frame.height))
            } catch let error as DNGError
                where request.fallback == .always && [.unsupportedBitDepth, .invalidInput].contains(error.code)
            {
                fallback = .cfaRefused(error)
                let image = try LinearImage(demosaicing: frame)
                let result = try writeLinear(
                    image, previews: request.previews, options: options, to: path, whenTaken: whenTaken)
                kind = .linearDNG
                written = (result.path, result.byteCount, result.sha256, image.width, image.height)
            }
        case (.cfaDNG, .linear(let image)):
            guard request.fallback != .never else {
                throw ExportError(.notCFA, "the raw is already demosaiced (LinearRaw), so it has no CFA data to store")
            }
            if request.fallback == .always { fallback = .alreadyLinear }
            metadata = image.metadata
            let result = try writeLinear(
                image, previews: request.previews, options: options, to: path, whenTaken: whenTaken)
            (kind, written) = (.linearDNG, (result.path, result.byteCount, result.sha256, image.width, image.height))
        case (.linearDNG, _):
            let image: LinearImage
            switch decoded.image {
            case .cfa(let frame): image = try LinearImage(demosaicing: frame)
            case .linear(let linear): image = linear
            }
            metadata = image.metadata
            let result = try writeLinear(
                image, previews: request.previews, options: options, to: path, whenTaken: whenTaken)
            (kind, written) = (.linearDNG, (result.path, result.byteCount, result.sha256, image.width, image.height))
        case (.tiff, _):
            var tiffMetadata: CaptureMetadata
            let rendered: RGBImage16
            switch decoded.image {
            case .cfa(let frame):
                tiffMetadata = frame.metadata
                rendered = try frame.renderRGB16(RenderOptions())
            case .linear(let image):
                tiffMetadata = image.metadata
                rendered = try image.renderRGB16(RenderOptions())
            }
            metadata = tiffMetadata
            // The rendering applied the orientation, so the pixels are already upright (RGBTIFFWriter's contract).
            tiffMetadata.orientation = .normal
            let tiffOptions = RGBTIFFWriter.Options(
                bitsPerSample: 16, compression: request.compression == .lossless ? .deflate : .none,
                software: software)
            let result = try RGBTIFFWriter.write(
                rendered, metadata: tiffMetadata, options: tiffOptions, to: path, whenTaken: whenTaken)
            (kind, written) = (.tiff, (result.path, result.byteCount, nil, rendered.width, rendered.height))
        case (.original, _):
            throw ExportError(.invalidRequest, "an original needs the file's bytes")
        }
        var sha256 = written.sha256
        if request.computesSHA256 && sha256 == nil {
            do {
                sha256 = try MessageDigest.hashFile(.sha256, at: written.path)
            } catch {
                throw ExportError(
                    .unreadable, path: written.path, "the file was written but cannot be read back: \(error)")
            }
        }
        return ExportResult(
            kind: kind, path: written.path, intendedPath: path, byteCount: written.byteCount, sha256: sha256,
            width: written.width, height: written.height, metadata: metadata, bitsPerSample: bitsPerSample,
            fallback: fallback)
    }

    /// The DNG's thumbnail and preview rendered from `frame`; for a frame rawcap cannot render in colour (a CFA with
    /// colours other than red, green and blue, unusable colour tags), a grey thumbnail of the raw data, so that such
    /// files are still written.
    public static func renderedPreviews(of frame: RawFrame) throws -> DNGPreviews {
        do {
            return try DNGPreviews.render(from: frame)
        } catch {
            return DNGPreviews(thumbnail: try GreyThumbnail.make(from: frame), preview: nil)
        }
    }

    private static func writeCFA(
        _ frame: RawFrame, previews: ExportPreviews, options: DNGOptions, to path: String,
        whenTaken: OutputFile.WhenTaken
    ) throws -> DNGWriter.Result {
        switch previews {
        case .given(let given):
            return try DNGWriter.write(frame, previews: given, options: options, to: path, whenTaken: whenTaken)
        case .rendered:
            // The previews render on other threads while the raw data is written (the preview SubIFD is the file's
            // last part); a frame whose previews cannot be predicted is rendered first.
            guard let shape = try? PendingPreviews.Shape(renderingFrom: frame) else {
                return try DNGWriter.write(
                    frame, previews: try renderedPreviews(of: frame), options: options, to: path, whenTaken: whenTaken)
            }
            let pending = PendingPreviews(expecting: shape) { try renderedPreviews(of: frame) }
            return try DNGWriter.write(frame, previews: pending, options: options, to: path, whenTaken: whenTaken)
        }
    }

    private static func writeLinear(
        _ image: LinearImage, previews: ExportPreviews, options: DNGOptions, to path: String,
        whenTaken: OutputFile.WhenTaken
    ) throws -> DNGWriter.Result {
        let chosen: DNGPreviews
        switch previews {
        case .given(let given): chosen = given
        case .rendered: chosen = try DNGPreviews.render(from: image)
        }
        return try DNGWriter.write(image, previews: chosen, options: options, to: path, whenTaken: whenTaken)
    }
}

/// What a file is made from.
public enum ExportSource: Sendable {
    /// A decoded raw (``RawDecoders/RawDecoder/decode(_:)``): for DNGs and TIFFs.
    case decoded(DecodedRaw)
    /// A file's bytes, written as they are: for ``ExportProduct/original(fileExtension:)``.
    case original([UInt8])

    var kind: String {
        switch self {
        case .decoded: "a decoded raw"
        case .original: "a file's bytes"
        }
    }
}

/// What the written file holds.
public enum ExportProduct: Sendable, Hashable, CustomStringConvertible {
    /// A CFA DNG of the raw's (linearised) samples; a raw that is already linear, or a frame the CFA layout cannot
    /// hold, as ``ExportRequest/fallback`` says.
    case cfaDNG
    /// A LinearRaw DNG, demosaiced by rawcap when the raw is a CFA.
    case linearDNG
    /// A rendered, upright 16-bit RGB TIFF (Deflate when the compression is lossless).
    case tiff
    /// The source's bytes unchanged (a camera's JPEG or original file), with this extension.
    case original(fileExtension: String)

    /// The file name's extension.
    public var fileExtension: String {
        switch self {
        case .cfaDNG, .linearDNG: "dng"
        case .tiff: "tif"
        case .original(let fileExtension): fileExtension
        }
    }

    /// `cfa-dng`, `linear-dng`, `tiff` or `original`.
    public var description: String {
        switch self {
        case .cfaDNG: "cfa-dng"
        case .linearDNG: "linear-dng"
        case .tiff: "tiff"
        case .original: "original"
        }
    }
}

/// When a CFA DNG is asked for and the raw does not give one.
public enum LinearFallback: Sendable, Hashable {
    /// A raw that is already linear is refused (``ExportError/Code/notCFA``); a frame the CFA layout cannot hold
    /// fails with the writer's error (`shoot --format bayer…`).
    case never
    /// A raw that is already linear gives a linear DNG; a frame the CFA layout cannot hold fails (`convert`, whose
    /// DNG keeps the input's kind).
    case linearInput
    /// Both give a linear DNG, and ``ExportResult/fallback`` says why (`--format auto`, `pull`).
    case always
}

/// The DNG's thumbnail and preview.
public enum ExportPreviews: Sendable {
    /// Rendered from the raw data by rawcap.
    case rendered
    /// Made elsewhere: the camera's own JPEG (``DNG/DNGPreviews/render(fromCameraJPEG:)``).
    case given(DNGPreviews)
}

/// Where the file goes: `STEM.EXT` (the extension from the product) or, when that name is taken, the first free
/// `FREE-N.EXT` (with `FREE-N.C` free too for each companion extension `C`: a RAW file and its JPEG share a stem).
public struct ExportDestination: Sendable, Hashable {
    /// The path without the extension (`captures/0001`, `DSC_0001`).
    public var pathStem: String
    /// The stem the free names count from (`0001` gives `0001-1`, …); the leaf of ``pathStem`` by default.
    public var freeStem: String
    /// Extensions of files that will share the stem.
    public var companions: [String]

    /// Creates a destination.
    public init(pathStem: String, freeStem: String? = nil, companions: [String] = []) {
        self.pathStem = pathStem
        self.freeStem = freeStem ?? pathStem.split(separator: "/").last.map(String.init) ?? pathStem
        self.companions = companions
    }

    /// `STEM.EXT` in `folder` (the current folder when empty).
    public init(folder: String, stem: String, companions: [String] = []) {
        let pathStem = folder.isEmpty ? stem : folder.hasSuffix("/") ? folder + stem : "\(folder)/\(stem)"
        self.init(pathStem: pathStem, freeStem: stem, companions: companions)
    }

    /// The path asked for.
    public func path(fileExtension: String) -> String { pathStem + "." + fileExtension }

    func whenTaken(fileExtension: String) -> OutputFile.WhenTaken {
        .nextFree(stem: freeStem, fileExtension: fileExtension, companions: companions)
    }
}

/// How to write one file.
public struct ExportRequest: Sendable {
    /// What the file holds.
    public var product: ExportProduct
    /// When a CFA DNG is asked for and the raw does not give one.
    public var fallback: LinearFallback
    /// How the raw data is stored (a DNG's Compression; for a TIFF, lossless is Deflate).
    public var compression: DNGOptions.Compression
    /// The DNG's thumbnail and preview.
    public var previews: ExportPreviews
    /// Whether the result carries the file's SHA-256 (read back while the file is synced, for a DNG).
    public var computesSHA256: Bool
    /// Where the file goes.
    public var destination: ExportDestination
    /// The DNG encoder's other choices (tile size, threads, raw digest); its compression, Software and SHA-256
    /// choices are the request's.
    public var dngOptions: DNGOptions

    /// Creates a request.
    public init(
        product: ExportProduct, fallback: LinearFallback = .linearInput, compression: DNGOptions.Compression,
        previews: ExportPreviews = .rendered, computesSHA256: Bool, destination: ExportDestination,
        dngOptions: DNGOptions = DNGOptions()
    ) {
        self.product = product
        self.fallback = fallback
        self.compression = compression
        self.previews = previews
        self.computesSHA256 = computesSHA256
        self.destination = destination
        self.dngOptions = dngOptions
    }
}

/// What was written.
public struct ExportResult: Sendable {
    /// What the file is.
    public enum Kind: Sendable, Hashable {
        case cfaDNG, linearDNG, tiff, original
    }

    /// Why a CFA DNG was asked for and a linear one written (``LinearFallback/always``).
    public enum Fallback: Sendable {
        /// The raw was already demosaiced (LinearRaw).
        case alreadyLinear
        /// The DNG writer refused the frame as CFA data.
        case cfaRefused(DNGError)
    }

    /// What the file is.
    public var kind: Kind
    /// Where the file is.
    public var path: String
    /// Where it was meant to be (``path`` differs when that name was taken).
    public var intendedPath: String
    /// The file's size in bytes.
    public var byteCount: Int
    /// The file's SHA-256, when ``ExportRequest/computesSHA256`` asked for it.
    public var sha256: [UInt8]?
    /// The stored image's pixel size (the raw image for a DNG, the upright rendering for a TIFF); `nil` for an
    /// original.
    public var width: Int?
    public var height: Int?
    /// The raw's metadata (its camera orientation, exposure); `nil` for an original.
    public var metadata: CaptureMetadata?
    /// The CFA frame's bits per sample after linearisation; `nil` for a linear raw or an original.
    public var bitsPerSample: Int?
    /// Why a linear DNG was written for a CFA DNG request.
    public var fallback: Fallback?
}

/// A request ``Exporter`` cannot carry out, or a file it wrote and cannot read back.
public struct ExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Hashable, Sendable {
        /// A CFA DNG was asked for with ``LinearFallback/never`` and the raw is already linear.
        case notCFA
        /// The product cannot be made from the source (an original from a decoded raw, a DNG from bytes).
        case invalidRequest
        /// The file was written but reading it back for its SHA-256 failed.
        case unreadable
    }

    /// What went wrong.
    public let code: Code
    /// The file involved, when there is one.
    public let path: String?
    /// Words for a person.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, path: String? = nil, _ detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    public var description: String { path.map { "\($0): \(detail)" } ?? detail }

    public static func == (lhs: ExportError, rhs: ExportError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
