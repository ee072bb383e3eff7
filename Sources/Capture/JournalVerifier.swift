import DNG
import FoundationEssentials
import OutputFiles

/// `rawcap pull --verify`: every file the journal of a folder says was written (`file-written`, by `shoot` or
/// `pull`) is read again and its SHA-256 compared with the journal's.
///
/// A path the journal names is looked for as written, then (when the folder was moved) by its name in the folder.
/// When the journal names one path more than once (a file rewritten under the same name is not possible: rawcap
/// never overwrites; a repeated entry is a copy of the same line), the last entry counts.
public struct JournalVerifier: Sendable {
    /// What one file's check found.
    public struct Result: Hashable, Sendable {
        /// The outcome.
        public enum Status: String, Hashable, Sendable {
            /// The file's SHA-256 is the journal's.
            case ok
            /// The file is there but its bytes are not those the journal recorded.
            case mismatch
            /// The file is not there (nor by its name in the folder).
            case missing
            /// The file is there but could not be read.
            case unreadable
        }
        /// The path as the journal names it.
        public var journalPath: String
        /// Where the file was found (the journal's path or the folder's copy), `nil` when missing.
        public var path: String?
        /// The SHA-256 the journal recorded, lowercase hex.
        public var expected: String
        /// The file's SHA-256 now, lowercase hex, when it could be read.
        public var actual: String?
        /// The outcome.
        public var status: Status
        /// Why a file could not be read.
        public var detail: String?
    }

    /// The folder whose journal is checked.
    public var folder: String

    /// Creates a verifier for `folder`.
    public init(folder: String) { self.folder = folder }

    /// The files to check: the journal's `file-written` entries with a path and a SHA-256, one per path (the last),
    /// in the journal's order.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/outputUnavailable`` when the folder has no journal.
    public func entries() throws -> [(path: String, sha256: String)] {
        let journalPath = (folder.hasSuffix("/") ? folder : folder + "/") + Journal.fileName
        guard FileManager.default.fileExists(atPath: journalPath) else {
            throw CaptureError(.outputUnavailable, "\(folder) has no journal (\(Journal.fileName)) to verify against")
        }
        var order: [String] = []
        var digests: [String: String] = [:]
        for entry in Journal.read(folder: folder) where entry.event == JournalEntry.Event.fileWritten {
            guard let path = entry.path, let sha256 = entry.sha256 else { continue }
            if digests[path] == nil { order.append(path) }
            digests[path] = sha256.lowercased()
        }
        return order.compactMap { path in digests[path].map { (path, $0) } }
    }

    /// Checks one file the journal names.
    public func verify(path journalPath: String, sha256 expected: String) -> Result {
        var candidates = [journalPath]
        let name = journalPath.split(separator: "/").last.map(String.init) ?? journalPath
        let inFolder = (folder.hasSuffix("/") ? folder : folder + "/") + name
        if inFolder != journalPath { candidates.append(inFolder) }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            return Result(journalPath: journalPath, path: nil, expected: expected, actual: nil, status: .missing)
        }
        // Only a regular file is read: a FIFO or device put in a file's place would block or never end.
        let type = (try? FileManager.default.attributesOfItem(atPath: found))?[.type] as? FileAttributeType
        guard type == .typeRegular else {
            return Result(
                journalPath: journalPath, path: found, expected: expected, actual: nil, status: .unreadable,
                detail: "not a regular file")
        }
        do {
            let actual = MessageDigest.hex(try MessageDigest.hashFile(.sha256, at: found))
            return Result(
                journalPath: journalPath, path: found, expected: expected, actual: actual,
                status: actual == expected ? .ok : .mismatch)
        } catch {
            return Result(
                journalPath: journalPath, path: found, expected: expected, actual: nil, status: .unreadable,
                detail: "\(error)")
        }
    }
}
