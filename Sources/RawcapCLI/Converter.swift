import ArgumentParser
import DNG
import FoundationEssentials
import RawDecoders
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// Turns one raw file into a DNG, a LinearRaw DNG or a 16-bit TIFF: the work of `rawcap convert` for one input,
/// apart from printing.
struct Converter {
    /// What to write.
    enum Target: Sendable, Hashable {
        /// A CFA DNG with the input's samples unchanged (a LinearRaw input stays LinearRaw).
        case dng(DNGOptions.Compression)
        /// A LinearRaw DNG, demosaiced by rawcap.
        case linearDNG(DNGOptions.Compression)
        /// A rendered RGB TIFF.
        case tiff(RGBTIFFWriter.Options)

        /// `dng`, `linear-dng` or `tiff`: the JSON `format`.
        var name: String {
            switch self {
            case .dng: "dng"
            case .linearDNG: "linear-dng"
            case .tiff: "tiff"
            }
        }

        var fileExtension: String {
            if case .tiff = self { return "tif" }
            return "dng"
        }
    }

    /// What was written for one input.
    struct Result: Sendable {
        let input: String
        let output: String
        /// The name the output would have had without a suffix, when that name was taken.
        let takenName: String?
        let byteCount: Int
        /// SHA-256 of the output, when the converter was asked for it (``Converter/computesSHA256``).
        let sha256: String?
        /// The camera's model as the input names it (its Make when it names no model): the name shoot and pull
        /// give the camera (its DeviceInfo model).
        let camera: String?
        /// The input's Make.
        let make: String?
        /// `DNG 1.4.0.0`, `TIFF/EP`, or the maker's format read by LibRaw (`Nikon NEF`, `Canon CR2`, `Sony ARW`, `Fujifilm RAF`).
        let inputFormat: String
        let target: Target
        /// `none`, `lossless` or `deflate`.
        let compression: String
        let width: Int
        let height: Int
    }

    let target: Target
    /// The output folder, or `nil` for each input's own folder.
    let folder: String?
    /// Whether to read each output back for its SHA-256 (`--json` reports it; the text line does not, and reading
    /// a 50 MB file back costs about a tenth of a conversion).
    var computesSHA256 = true

    /// Reads, decodes and writes `input`.
    ///
    /// - Throws: ``CommandFailure``: 65 for an input rawcap cannot decode, 66 for one that does not exist, 73 when
    ///   the output cannot be created, 74 for a read or write that fails part-way. Nothing is left behind.
    func convert(_ input: String) throws(CommandFailure) -> Result {
        let file = try InputFile(path: input)
        let decoded = try file.decodeVerified()
        let linear: DecodedRaw
        do {
            // rawcap's DNG writer carries a LinearizationTable only for LinearRaw images, so a CFA table is applied:
            // the samples become the linear values every reader would compute from the original.
            linear = try decoded.applyingLinearization()
        } catch {
            throw CommandFailure(SysExit.dataError, "\(input): \(error)")
        }
        let name = ConvertOutputName(input: input, folder: folder, fileExtension: target.fileExtension)
        var suffix = 0
        while true {
            let path = name.path(suffix: suffix)
            do {
                let (byteCount, width, height, sha256) = try write(linear, to: path)
                var digest: [UInt8]?
                if computesSHA256 {
                    do {
                        digest = try sha256 ?? MessageDigest.hashFile(.sha256, at: path)
                    } catch {
                        throw CommandFailure(
                            SysExit.ioError, "\(path): the file was written but cannot be read back: \(error)")
                    }
                }
                let metadata = Self.metadata(of: linear)
                let make = metadata.make.flatMap { $0.isEmpty ? nil : $0 }
                return Result(
                    input: input, output: path, takenName: suffix == 0 ? nil : name.path(suffix: 0),
                    byteCount: byteCount, sha256: digest.map(MessageDigest.hex),
                    camera: metadata.model.flatMap { $0.isEmpty ? nil : $0 } ?? make, make: make,
                    inputFormat: decoded.info.container.description, target: target,
                    compression: compressionName, width: width, height: height)
            } catch let error as DNGError where error.code == .fileExists && suffix < ConvertOutputName.maxSuffix {
                suffix += 1
            } catch let error as DNGError {
                throw CommandFailure(Self.status(for: error), "\(input): cannot write \(path): \(Self.describe(error))")
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure(SysExit.dataError, "\(input): \(error)")
            }
        }
    }

    private var compressionName: String {
        switch target {
        case .dng(let compression), .linearDNG(let compression): compression.description
        case .tiff(let options): options.compression.rawValue
        }
    }

    /// Writes the file and returns its size in bytes and the stored image's pixel size (the raw image for a DNG,
    /// the active area for a demosaiced one, the upright rendering for a TIFF). Errors: `DNGError` from the
    /// writers, `RawImageError` and `JPEGError` from rendering (both mean the input's content is unusable: 65).
    ///
    /// - Returns: the file's size and pixel size, and its SHA-256 when the writer read it back (DNGs, with `--json`).
    private func write(_ decoded: DecodedRaw, to path: String) throws
        -> (bytes: Int, width: Int, height: Int, sha256: [UInt8]?)
    {
        var options = DNGOptions()
        options.computesFileSHA256 = computesSHA256
        switch (target, decoded.image) {
        case (.dng(let compression), .cfa(let frame)):
            options.compression = compression
            // The previews render on other threads while the raw data is written (the preview SubIFD is the file's
            // last part); a frame whose previews cannot be predicted is rendered first.
            guard let shape = try? PendingPreviews.Shape(renderingFrom: frame) else {
                let written = try DNGWriter.write(
                    frame, previews: try Self.previews(of: frame), options: options, to: path)
                return (written.byteCount, frame.width, frame.height, written.sha256)
            }
            // Fail on an existing name before starting the rendering.
            try Self.checkFree(path)
            let previews = PendingPreviews(expecting: shape) { try Self.previews(of: frame) }
            let written = try DNGWriter.write(frame, previews: previews, options: options, to: path)
            return (written.byteCount, frame.width, frame.height, written.sha256)
        case (.dng(let compression), .linear(let image)), (.linearDNG(let compression), .linear(let image)):
            options.compression = compression
            let written = try DNGWriter.write(
                image, previews: try DNGPreviews.render(from: image), options: options, to: path)
            return (written.byteCount, image.width, image.height, written.sha256)
        case (.linearDNG(let compression), .cfa(let frame)):
            // Fail on an existing name before the demosaic, which takes seconds on a large frame.
            try Self.checkFree(path)
            let image = try LinearImage(demosaicing: frame)
            options.compression = compression
            let written = try DNGWriter.write(
                image, previews: try DNGPreviews.render(from: image), options: options, to: path)
            return (written.byteCount, image.width, image.height, written.sha256)
        case (.tiff(let options), _):
            try Self.checkFree(path)
            var metadata = Self.metadata(of: decoded)
            let rendered: RGBImage16
            switch decoded.image {
            case .cfa(let frame): rendered = try frame.renderRGB16(RenderOptions())
            case .linear(let image): rendered = try image.renderRGB16(RenderOptions())
            }
            // The rendering applied the orientation, so the pixels are already upright.
            metadata.orientation = .normal
            let written = try RGBTIFFWriter.write(rendered, metadata: metadata, options: options, to: path)
            return (written.byteCount, rendered.width, rendered.height, nil)
        }
    }

    /// The DNG's thumbnail and preview rendered from the frame; for a frame rawcap cannot render in colour (a CFA
    /// with colours other than red, green and blue, unusable colour tags), a grey thumbnail of the raw data, so that
    /// such files still convert.
    static func previews(of frame: RawFrame) throws -> DNGPreviews {
        do {
            return try DNGPreviews.render(from: frame)
        } catch {
            return DNGPreviews(thumbnail: try GreyThumbnail.make(from: frame), preview: nil)
        }
    }

    /// Throws ``DNGError/Code/fileExists`` when `path` exists, as ``OutputFile`` would, before expensive work.
    private static func checkFree(_ path: String) throws(DNGError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            throw DNGError(.fileExists, path: path, "the file already exists and rawcap never overwrites")
        }
    }

    static func metadata(of decoded: DecodedRaw) -> CaptureMetadata {
        switch decoded.image {
        case .cfa(let frame): frame.metadata
        case .linear(let image): image.metadata
        }
    }

    /// The exit status for a write failure: the output cannot be created (73), it failed part-way (74), or the
    /// input holds something a DNG/TIFF cannot represent (65).
    static func status(for error: DNGError) -> ExitCode {
        switch error.code {
        case .fileExists, .folderNotFound, .notWritable: SysExit.cannotCreate
        case .diskFull, .ioFailure, .libtiff: SysExit.ioError
        case .doesNotFit, .unsupportedBitDepth, .sampleOutOfRange, .invalidInput: SysExit.dataError
        default: SysExit.software
        }
    }

    /// The error's detail without repeating the path, which the message already names.
    static func describe(_ error: DNGError) -> String {
        error.detail.isEmpty ? "\(error.code)" : error.detail
    }
}
