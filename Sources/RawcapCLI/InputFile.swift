import Foundation
import RawDecoders

/// A raw file named on the command line, read whole into memory.
struct InputFile {
    /// The path as given.
    let path: String
    /// The file's bytes.
    let bytes: [UInt8]

    /// Reads `path`.
    ///
    /// - Throws: ``CommandFailure`` with ``SysExit/noInput`` when the file does not exist or cannot be opened,
    ///   ``SysExit/dataError`` when it is too large, ``SysExit/ioError`` when reading fails part-way.
    init(path: String) throws(CommandFailure) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(SysExit.noInput, "\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure(SysExit.noInput, "\(path): is a folder") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CommandFailure(SysExit.noInput, "\(path): permission denied")
        }
        do {
            bytes = try RawDecoder.readFile(path)
        } catch {
            throw CommandFailure(SysExit.status(for: error), error.description)
        }
    }

    /// Decodes the file.
    func decode() throws(CommandFailure) -> DecodedRaw {
        do {
            return try RawDecoder.decode(bytes[...])
        } catch {
            throw CommandFailure(SysExit.status(for: error), "\(path): \(error)")
        }
    }
}
