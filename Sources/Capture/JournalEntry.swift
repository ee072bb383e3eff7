/// One line of the capture journal (`rawcap-journal.jsonl` in the captures folder).
///
/// | event | written when | key fields |
/// |---|---|---|
/// | `run-started` | a shoot or pull begins | `run`, `camera`, `serial`, `format`, `detail` (the plan) |
/// | `shot-requested` | a shot is about to be triggered | `shot`, `scheduled` and `started` (seconds from the run's start), `bracket` |
/// | `shot-taken` | `rawcap tether`: the camera announced a shot taken on its body (shutter button, remote, timer) | `shot`, `started` (seconds from the run's start) |
/// | `shot-overrun` | a shot starts later than its schedule allows | `shot`, `scheduled`, `started` |
/// | `object-announced` | the camera reports a stored object | `shot`, `handle`, `cameraFile`, `objectFormat`, `size` |
/// | `object-downloaded` | its bytes are in memory | `handle`, `size`, `seconds` |
/// | `file-written` | a file is safely on disk (fsync + rename) | `handle`, `path`, `size`, `sha256`, `kind` |
/// | `object-not-saved` | an object deliberately not saved (a JPEG used only as the DNG preview) | `handle`, `cameraFile` |
/// | `object-deleted` | an object was deleted from the camera, after its file was written | `handle` |
/// | `shot-missed` | a frame fell due while the camera was away (`--reconnect`), or its shot was lost with the camera; never fired late | `shot`, `scheduled`, `detail` |
/// | `camera-lost` | the camera left the link during a run with `--reconnect` | `shot` (the frame it interrupted), `code`, `detail` |
/// | `camera-back` | the same camera (by serial number) is back and its session open | `seconds` (how long it was away), `detail` |
/// | `hook-failed` | an `--exec` hook ended with a non-zero status, a signal, or could not start | `path`, `code` (`exit-N`, `signal-N`, `not-started`), `detail` |
/// | `bulb-closed` | a bulb exposure's shutter closed | `shot`, `exposure` (requested seconds), `openSeconds` (measured on the host's monotonic clock), `detail` (`interrupted…` when a stop closed it early) |
/// | `warning` | something the user should know (a fallback, a late object) | `detail` |
/// | `run-failed` | the run stops on an error | `code`, `detail` |
/// | `run-finished` | the run ends | `detail` (`complete` or `interrupted`), `files` (how many files it saved) |
///
/// Every line carries `time` (ISO 8601, UTC) and `run` (an ID per run), so several runs can share one journal.
public struct JournalEntry: Codable, Hashable, Sendable {
    /// The event name (see the table).
    public var event: String
    /// When, ISO 8601 UTC with milliseconds.
    public var time: String = ""
    /// The run's ID.
    public var run: String = ""
    /// The camera's model.
    public var camera: String?
    /// The camera's serial number.
    public var serial: String?
    /// The shot's index in the run (0-based).
    public var shot: Int?
    /// The shot's scheduled start, seconds after the run's start.
    public var scheduled: Double?
    /// The shot's actual start, seconds after the run's start.
    public var started: Double?
    /// The bracket step, in EV.
    public var bracket: Double?
    /// The focus bracket's position: drives of the smallest size from the first frame (negative towards near).
    public var focusStep: Int?
    /// The object's handle on the camera.
    public var handle: UInt32?
    /// The object's file name on the camera (never used as a path).
    public var cameraFile: String?
    /// The object's capture date as the camera gave it.
    public var captureDate: String?
    /// The object's PTP format code.
    public var objectFormat: UInt16?
    /// The StorageID the camera gave the object (`object-announced`): 0 for one held in its memory for the host.
    public var storage: UInt32?
    /// A size in bytes.
    public var size: UInt64?
    /// A number of files (`run-finished`: the files the run saved).
    public var files: Int?
    /// A duration in seconds.
    public var seconds: Double?
    /// The written file's path.
    public var path: String?
    /// The written file's SHA-256, hex.
    public var sha256: String?
    /// What was written: `dng`, `jpeg`, `tiff`, `original`.
    public var kind: String?
    /// The exposure time `--exposure` asked for, in seconds (`shot-requested`, `bulb-closed`).
    public var exposure: Double?
    /// How that exposure is given: `shutter` (a camera shutter speed) or `bulb` (held by rawcap).
    public var exposureMode: String?
    /// The camera shutter speed the exposure was snapped to, in seconds (`shutter` mode).
    public var shutterSeconds: Double?
    /// How long a bulb exposure's shutter was held open, in seconds, from the open request to the close request on
    /// the host's monotonic clock.
    public var openSeconds: Double?
    /// The output format.
    public var format: String?
    /// An error code.
    public var code: String?
    /// Free text.
    public var detail: String?

    /// Creates an entry for `event`; the journal fills in `time` and `run`.
    public init(_ event: String) { self.event = event }

    /// The journal's event names.
    public enum Event {
        public static let runStarted = "run-started"
        public static let shotRequested = "shot-requested"
        public static let shotOverrun = "shot-overrun"
        public static let shotTaken = "shot-taken"
        public static let hookFailed = "hook-failed"
        public static let objectAnnounced = "object-announced"
        public static let objectDownloaded = "object-downloaded"
        public static let fileWritten = "file-written"
        public static let objectDeleted = "object-deleted"
        public static let objectNotSaved = "object-not-saved"
        public static let bulbClosed = "bulb-closed"
        public static let warning = "warning"
        public static let shotMissed = "shot-missed"
        public static let cameraLost = "camera-lost"
        public static let cameraBack = "camera-back"
        public static let runFailed = "run-failed"
        public static let runFinished = "run-finished"
    }
}

extension JournalEntry {
    /// How many shots other runs than `run` journaled (requested by the host, or taken on the camera's body): the
    /// next run's `{seq}` counts on from there.
    public static func shotsTaken(in history: [JournalEntry], outside run: String) -> Int {
        history.filter { ($0.event == Event.shotRequested || $0.event == Event.shotTaken) && $0.run != run }.count
    }
}

extension JournalEntry {
    /// The `object-announced` line of `object`, announced for shot `shot` (from 0).
    public static func announced(_ object: AnnouncedObject, shot: Int) -> JournalEntry {
        var entry = JournalEntry(Event.objectAnnounced)
        entry.shot = shot
        entry.handle = object.handle.rawValue
        entry.cameraFile = object.info.filename
        entry.captureDate = object.info.captureDate
        entry.objectFormat = object.info.objectFormat.rawValue
        entry.storage = object.info.storageID.rawValue
        entry.size = object.info.byteCount
        entry.detail = object.late ? "late" : nil
        return entry
    }
}
