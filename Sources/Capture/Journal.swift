import DNG
import FoundationEssentials
import OutputFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The capture journal: JSON lines appended to `rawcap-journal.jsonl` in the captures folder, each one synced to
/// disk before the call returns, so that after a crash or a disconnect the journal tells what was requested,
/// announced and written (``JournalEntry`` lists the events), and `rawcap pull --resume` knows what to fetch.
///
/// Safe to use from several tasks: lines are written whole, one at a time, with `O_APPEND`. The file is created with
/// its first line, so a run that records nothing (or cannot write its first line: a full disk) leaves no empty
/// journal behind.
public final class Journal: @unchecked Sendable {
    /// The journal's file name inside a captures folder.
    public static let fileName = "rawcap-journal.jsonl"

    /// The journal's path.
    public let path: String
    /// This run's ID.
    public let runID: String
    /// The camera every entry names, unless the entry says otherwise.
    public var camera: String?
    /// The camera's serial number.
    public var serial: String?

    /// The journal file, opened by the first line written.
    private struct File {
        /// -1 until the first line.
        var descriptor: Int32 = -1
        /// Whether this journal created the file (rather than appending to an earlier run's).
        var created = false
        /// Whether a line was written.
        var written = false
    }

    /// Held while a line is written and synced.
    private let file = Mutex(File())
    private let encoder: JSONEncoder

    /// The journal in `folder`; the file is created (or appended to) by the first ``record(_:)``.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/outputUnavailable`` naming the path and the system's reason, when
    ///   the folder cannot be written or the journal there cannot be opened.
    public init(folder: String, runID: String = Journal.makeRunID()) throws {
        path = folder.hasSuffix("/") ? folder + Self.fileName : folder + "/" + Self.fileName
        let folderPath = folder.isEmpty ? "." : folder
        let writable = access(path, F_OK) == 0 ? access(path, W_OK) : access(folderPath, W_OK | X_OK)
        guard writable == 0 else {
            throw CaptureError(
                .outputUnavailable, "cannot open the journal \(path): \(String(cString: strerror(errno)))")
        }
        self.runID = runID
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit {
        file.withLock { file in
            if file.descriptor >= 0 { close(file.descriptor) }
        }
    }

    /// A new run ID: the UTC time and a random suffix.
    public static func makeRunID() -> String {
        UTCTimestamp.basic(Date()) + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// Appends `entry`, stamped with the time and the run, and syncs it.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/outputUnavailable`` when the line cannot be written (full disk).
    public func record(_ entry: JournalEntry) throws {
        var entry = entry
        entry.time = UTCTimestamp.extended(Date())
        entry.run = runID
        if entry.camera == nil { entry.camera = camera }
        if entry.serial == nil { entry.serial = serial }
        var line = try encoder.encode(entry)
        line.append(0x0A)
        try file.withLock { file in
            if file.descriptor < 0 {
                // O_EXCL first, to know whether this run made the file (and may remove it if it stays empty).
                var descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                file.created = descriptor >= 0
                if descriptor < 0 && errno == EEXIST {
                    descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
                }
                guard descriptor >= 0 else {
                    let failure = errno
                    throw Self.failure(path: path, errno: failure, "cannot open the journal")
                }
                file.descriptor = descriptor
            }
            let descriptor = file.descriptor
            try line.withUnsafeBytes { buffer in
                // O_APPEND puts the whole line at the end in one write(2); a short write is a full disk.
                let written = write(descriptor, buffer.baseAddress, buffer.count)
                guard written == buffer.count else {
                    let failure = written < 0 ? errno : ENOSPC
                    if file.created && !file.written {
                        // Nothing of this run's is in it: a full disk leaves no empty (or cut) journal behind.
                        unlink(path)
                        close(descriptor)
                        file = File()
                    }
                    throw Self.failure(path: path, errno: failure, "cannot write the journal")
                }
            }
            file.written = true
            _ = fdatasync(descriptor)
        }
    }

    /// A full disk (or quota, or file size limit) is the disk-full error every file write throws (exit 74);
    /// anything else makes the folder unusable.
    private static func failure(path: String, errno code: Int32, _ what: String) -> any Error {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: OutputFileError.system(what, path: path, errno: code)
        default: CaptureError(.outputUnavailable, "\(what) \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Records `entry`, ignoring a failure (for entries written while another error is already on its way out).
    public func recordQuietly(_ entry: JournalEntry) { try? record(entry) }

    /// Whether `folder` holds a journal.
    public static func exists(folder: String) -> Bool {
        let path = folder.hasSuffix("/") ? folder + fileName : folder + "/" + fileName
        return access(path, F_OK) == 0
    }

    /// Every entry of the journal in `folder` (none when it does not exist); lines that do not decode (a line cut
    /// by a crash) are skipped.
    public static func read(folder: String) -> [JournalEntry] {
        let path = folder.hasSuffix("/") ? folder + fileName : folder + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(JournalEntry.self, from: Data($0)) }
    }
}
