import ArgumentParser
import DNG
import FoundationEssentials
import JPEG
import OutputFiles
import RawDecoders
import RawExport
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// Turns one raw file into a DNG, a LinearRaw DNG or a 16-bit TIFF: the work of `rawcap convert` for one input,
/// apart from printing. Reading and checking the input is ``InputFile``'s; the file is written by
/// ``RawExport/Exporter``, as shoot and pull write theirs.
struct Converter {
    /// What to write.
    enum Target: Sendable, Hashable {
        /// A CFA DNG with the input's samples unchanged (a LinearRaw input stays LinearRaw).
        case dng(DNGOptions.Compression)
        /// A LinearRaw DNG, demosaiced by rawcap.
        case linearDNG(DNGOptions.Compression)
        /// A rendered 16-bit RGB TIFF, Deflate for lossless.
        case tiff(DNGOptions.Compression)

        /// `dng`, `linear-dng` or `tiff`: the JSON `format`.
        var name: String {
            switch self {
            case .dng: "dng"
            case .linearDNG: "linear-dng"
            case .tiff: "tiff"
            }
        }

        var fileExtension: String { product.fileExtension }

        /// What ``RawExport/Exporter`` writes.
        var product: ExportProduct {
            switch self {
            case .dng: .cfaDNG
            case .linearDNG: .linearDNG
            case .tiff: .tiff
            }
        }

        var compression: DNGOptions.Compression {
            switch self {
            case .dng(let compression), .linearDNG(let compression), .tiff(let compression): compression
            }
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

    /// Reads, decodes and writes `input` through ``RawExport/Exporter``.
    ///
    /// - Throws: ``CommandFailure``: 65 for an input rawcap cannot decode, 66 for one that does not exist, 73 when
    ///   the output cannot be created, 74 for a read or write that fails part-way. Nothing is left behind.
    func convert(_ input: String) throws(CommandFailure) -> Result {
        let file = try InputFile(path: input)
        let decoded = try file.decodeVerified()
        let name = ConvertOutputName(input: input, folder: folder, fileExtension: target.fileExtension)
        let request = ExportRequest(
            product: target.product, fallback: .linearInput, compression: target.compression,
            computesSHA256: computesSHA256,
            destination: ExportDestination(folder: name.folder, stem: name.stem))
        let written: ExportResult
        do {
            written = try Exporter.export(.decoded(decoded), request)
        } catch let error as DNGError {
            let path = error.path ?? name.path(suffix: 0)
            throw CommandFailure(Self.status(for: error), "\(input): cannot write \(path): \(Self.describe(error))")
        } catch let error as ExportError where error.code == .unreadable {
            throw CommandFailure(SysExit.ioError, error.description)
        } catch {
            // RawImageError and JPEGError from linearising or rendering: the input's content is unusable.
            throw CommandFailure(SysExit.dataError, "\(input): \(error)")
        }
        let metadata = Self.metadata(of: decoded)
        let make = metadata.make.flatMap { $0.isEmpty ? nil : $0 }
        return Result(
            input: input, output: written.path,
            takenName: written.path == written.intendedPath ? nil : written.intendedPath,
            byteCount: written.byteCount, sha256: written.sha256.map(MessageDigest.hex),
            camera: metadata.model.flatMap { $0.isEmpty ? nil : $0 } ?? make, make: make,
            inputFormat: decoded.info.container.description, target: target,
            compression: compressionName, width: written.width ?? 0, height: written.height ?? 0)
    }

    private var compressionName: String {
        switch target {
        case .dng(let compression), .linearDNG(let compression): compression.description
        case .tiff(let compression): compression == .lossless ? "deflate" : "none"
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

    /// The exit status for a file that cannot be created (73) or written (74).
    static func status(for error: OutputFileError) -> ExitCode {
        switch error.code {
        case .fileExists, .folderNotFound, .notWritable, .invalidPath: SysExit.cannotCreate
        default: SysExit.ioError
        }
    }

    /// The error's detail without repeating the path, which the message already names.
    static func describe(_ error: OutputFileError) -> String {
        error.detail.isEmpty ? "\(error.code)" : error.detail
    }
}
