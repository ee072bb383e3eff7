import DNG
import FoundationEssentials
import OutputFiles
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The captures folder: picks names that are free (adding `-1`, `-2`, … rather than overwriting), and writes
/// every file through ``DNG/OutputFile`` (temporary name, fsync, rename without replacing).
public final class OutputStore: Sendable {
    /// The folder.
    public let folder: String
    private let reserved = Mutex<Set<String>>([])

    /// Uses `folder`, creating it (and its parents) when missing.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/outputUnavailable`` when it cannot be created or is not a folder.
    public init(folder: String) throws {
        let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        self.folder = trimmed.isEmpty ? "." : trimmed
        var isFolder = false
        if FileManager.default.fileExists(atPath: self.folder, isDirectory: &isFolder) {
            guard isFolder else {
                throw CaptureError(.outputUnavailable, "\(self.folder) exists and is not a folder")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
            } catch {
                throw CaptureError(
                    .outputUnavailable,
                    "cannot create the folder \(self.folder): \(SystemErrorText.reason(error))")
            }
        }
        guard access(self.folder, W_OK | X_OK) == 0 else {
            throw CaptureError(
                .outputUnavailable, "cannot write in \(self.folder): \(String(cString: strerror(errno)))")
        }
    }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { folder == "." ? name : folder + "/" + name }

    /// Creates the subfolders a stem names (`2026-11-29/0001`: `2026-11-29`) inside the folder.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/outputUnavailable`` when one cannot be created.
    public func makeSubfolders(for stem: String) throws {
        let parts = stem.split(separator: "/").dropLast()
        guard !parts.isEmpty else { return }
        let subfolder = path(parts.joined(separator: "/"))
        do {
            try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
        } catch {
            throw CaptureError(
                .outputUnavailable, "cannot create the folder \(subfolder): \(SystemErrorText.reason(error))")
        }
    }

    /// Reserves a stem such that `stem.EXT` is free for every extension in `extensions` (RAW and JPEG of a shot
    /// share their stem): `stem`, else `stem-1`, `stem-2`, …
    public func reserveStem(_ stem: String, extensions: [String]) -> String {
        reserved.withLock { reserved in
            var candidate = stem
            var suffix = 0
            while extensions.contains(where: { ext in
                let name = candidate + "." + ext
                return reserved.contains(name) || FileManager.default.fileExists(atPath: path(name))
            }) {
                suffix += 1
                candidate = "\(stem)-\(suffix)"
            }
            for ext in extensions { reserved.insert(candidate + "." + ext) }
            return candidate
        }
    }

    /// Forgets reservations of `stem` (after its files are written or abandoned).
    public func release(_ stem: String, extensions: [String]) {
        reserved.withLock { reserved in for ext in extensions { reserved.remove(stem + "." + ext) } }
    }

    /// Writes `bytes` as a new file `name` and returns its path (the next free name when `name` was taken
    /// meanwhile and `whenTaken` allows it).
    public func write(_ bytes: [UInt8], name: String, whenTaken: OutputFile.WhenTaken = .refuse) throws -> String {
        try OutputFile.write(bytes, to: path(name), whenTaken: whenTaken)
    }
}
