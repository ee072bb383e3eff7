import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// One line of `rawcap convert --json`: a file written, or a file that failed. Keys are stable and sorted; absent
/// values are left out.
struct ConvertRecord: Codable, Sendable {
    /// The input path as given.
    var input: String
    /// The file written (`path`, as in every command's JSON).
    var path: String?
    /// The output's size in bytes.
    var size: Int?
    /// SHA-256 of the output, lowercase hex.
    var sha256: String?
    /// The camera's model from the input (its Make when it names no model), as shoot and pull name the camera.
    var camera: String?
    /// The camera's maker from the input, when it names one.
    var make: String?
    /// `dng`, `linear-dng` or `tiff`.
    var format: String?
    /// What the input was: `DNG 1.4.0.0`, `TIFF/EP`, or the maker's format read by LibRaw (`Nikon NEF`, `Canon CR2`, `Sony ARW`, `Fujifilm RAF`).
    var inputFormat: String?
    /// `none`, `lossless` or `deflate`.
    var compression: String?
    var width: Int?
    var height: Int?
    /// The name the output would have had, when that file existed (and was kept).
    var existing: String?
    /// Why the file failed: the object every rawcap command prints for a failure with `--json`.
    var error: ErrorBody?

    /// `{"code":"badInput","command":"convert","exitStatus":65,"message":"…"}`, as ``CommandFailure/json(command:)``.
    struct ErrorBody: Codable, Sendable {
        var code: String
        var command: String
        var exitStatus: Int32
        var message: String
    }

    init(_ result: Converter.Result) {
        input = result.input
        path = result.output
        size = result.byteCount
        sha256 = result.sha256
        camera = result.camera
        make = result.make
        format = result.target.name
        inputFormat = result.inputFormat
        compression = result.compression
        width = result.width
        height = result.height
        existing = result.takenName
    }

    init(input: String, failure: CommandFailure) {
        self.input = input
        error = ErrorBody(
            code: failure.code.rawValue, command: "convert", exitStatus: failure.status.rawValue,
            message: failure.message.oneLine)
    }

    /// The record as one line of JSON.
    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail; an empty object would still be valid JSON.
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
