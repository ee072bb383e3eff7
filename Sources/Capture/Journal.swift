import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The capture journal: JSON lines appended to `rawcap-journal.jsonl` in the captures folder, each one synced to
/// disk before the call returns, so that after a crash or a disconnect the journal tells what was requested,
/// announced and written (``JournalEntry`` lists the events), and `rawcap pull --resume` knows what to fetch.
///
/// Safe to use from several tasks: lines are written whole, one at a time, with `O_APPEND`.
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

    private let descriptor: Int32
    /// Held while a line is written and synced.
    private let lock = Mutex(())
    private let encoder: JSONEncoder

    /// Opens (creating if needed) the journal in `folder`.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/outputUnavailable`` naming the path and the system's reason.
    public init(folder: String, runID: String = Journal.makeRunID()) throws {
        path = folder.hasSuffix("/") ? folder + Self.fileName : folder + "/" + Self.fileName
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CaptureError(
                .outputUnavailable, "cannot open the journal \(path): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.runID = runID
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit { close(descriptor) }

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
        try lock.withLock { _ in
            try line.withUnsafeBytes { buffer in
                // O_APPEND puts the whole line at the end in one write(2); a short write is a full disk.
                let written = write(descriptor, buffer.baseAddress, buffer.count)
                guard written == buffer.count else {
                    let reason = written < 0 ? String(cString: strerror(errno)) : "short write"
                    throw CaptureError(.outputUnavailable, "cannot write the journal \(path): \(reason)")
                }
            }
            _ = fdatasync(descriptor)
        }
    }

    /// Records `entry`, ignoring a failure (for entries written while another error is already on its way out).
    public func recordQuietly(_ entry: JournalEntry) { try? record(entry) }

    /// Every entry of the journal in `folder` (none when it does not exist); lines that do not decode (a line cut
    /// by a crash) are skipped.
    public static func read(folder: String) -> [JournalEntry] {
        let path = folder.hasSuffix("/") ? folder + fileName : folder + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(JournalEntry.self, from: Data($0)) }
    }
}
