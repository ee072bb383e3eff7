import Logging
import PTP

/// Triggers one shot on a camera and collects the objects it stores.
///
/// The standard driver (``StandardCaptureDriver``) uses InitiateCapture and the ObjectAdded/CaptureComplete
/// events; vendor drivers (Nikon, Canon, Sony, Fujifilm remote release) will conform too, and
/// ``CameraProfile/select(for:)`` is the one place that picks one.
public protocol CaptureDriver: Sendable {
    /// A short name for logs (`standard`).
    var name: String { get }

    /// Takes one shot and returns its objects once the camera has stored them all (or the waits have run out).
    ///
    /// - Parameters:
    ///   - expecting: how many objects the shot should store (2 for RAW+JPEG), or `nil` when unknown.
    ///   - announce: called for each object as soon as it is known, before this returns (the journal records it).
    /// - Throws: ``CaptureError`` (`.cameraBusy`, `.cardFull`, `.captureTimeout`), or what the session throws.
    func capture(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject]

    /// Puts the camera under remote control once per run, before any setting is read: a vendor handshake (Sony's
    /// SDIOConnect), or nothing. Warnings about optional features the camera lacks go to `logger`, once.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/remoteControlUnavailable`` when the camera cannot be triggered
    ///   in its current mode, or what the session throws.
    func prepare(session: PTPSession, logger: Logger) async throws

    /// Called once the run has downloaded what it needs of a shot's objects, so a driver can release them on the
    /// camera (Canon EOS TransferComplete frees a shot held for the host).
    func downloaded(_ objects: [AnnouncedObject], session: PTPSession) async throws

    /// Called once when the run ends, however it ends (after the settings are restored): puts back what
    /// ``prepare(session:logger:)`` changed on the camera (Nikon's RecordingMedia). Failures are logged, not thrown:
    /// the run's own outcome is what the caller reports.
    func finish(session: PTPSession, logger: Logger) async

    /// Readies the camera, once per `rawcap tether` run after ``prepare(session:logger:)``, for shots taken on the
    /// body (its shutter button, a remote, its own interval timer) to reach the host (`BodyShots.swift`).
    func prepareBodyShots(session: PTPSession, logger: Logger) async throws

    /// Waits up to `wait` for a shot taken on the body and returns its objects once the camera has announced them
    /// all (`expecting`, or the family's end of shot), or `[]` when none began within `wait`. Objects whose handle is
    /// in `seen` (already saved) are passed over. See `BodyShots.swift` for each family's path.
    func bodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject]

    /// A host-triggered shot between body shots (`rawcap tether`'s SIGUSR1): ``capture(session:expecting:timing:announce:)``
    /// with whatever the family must switch around it.
    func captureBetweenBodyShots(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject]

    /// Why this camera cannot hold its shutter open in bulb, or `nil` when it can (its family's bulb operations are
    /// in `deviceInfo`). Asked before anything is fired, so a run that cannot have its exposure ends with exit 64.
    func bulbUnavailableReason(deviceInfo: DeviceInfo) -> String?

    /// The driver that stores each shot on the camera's card (where it stays, as a backup) as well as handing it to
    /// rawcap (`--keep-on-card`): the family's card capture target. Called once, before
    /// ``prepare(session:logger:)``.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/cardCopyUnavailable`` when the family or body cannot (exit 64,
    ///   before anything is fired).
    func keepingFilesOnCard(session: PTPSession) async throws -> any CaptureDriver

    /// The ExposureTime setting this family's bulb needs before the shutter opens.
    var bulbShutterSetting: BulbShutterSetting { get }

    /// The family's own shutter speed property (Canon EOS Tv, Sony ShutterSpeed), which `--exposure` uses instead of
    /// ExposureTime when the body has it; `nil` for families that keep theirs on ExposureTime.
    var shutterSpeedControl: (any ShutterSpeedControl)? { get }

    /// The exposure program that offers bulb, set first when the body is in another (Nikon: ExposureProgramMode
    /// 0x500E at 1, manual) and put back when the run ends; `nil` when the family has none to set.
    var bulbExposureProgram: ExposureSetting.Preset? { get }

    /// A cheap request that keeps a camera from sleeping while the run waits (`--keep-alive` between frames, a
    /// tether waiting for a press): the family's own where it has one (Canon EOS KeepDeviceOn), GetDeviceInfo
    /// otherwise.
    func keepAlive(session: PTPSession) async throws

    /// Takes one bulb shot: opens the shutter with the family's operation (after ``BulbHold/opening()``), holds it
    /// with ``BulbHold/hold()`` (which returns early on Ctrl-C or SIGTERM), closes it, and then collects the shot's
    /// objects as ``capture(session:expecting:timing:announce:)`` does.
    func captureBulb(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, hold: BulbHold,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject]
}

extension CaptureDriver {
    /// Standard PTP needs no preparation.
    public func prepare(session: PTPSession, logger: Logger) async throws {}

    /// Nothing to release: the objects stay where the camera stored them.
    public func downloaded(_ objects: [AnnouncedObject], session: PTPSession) async throws {}

    /// Nothing to put back.
    public func finish(session: PTPSession, logger: Logger) async {}

    /// A driver that cannot choose where shots are stored.
    public func keepingFilesOnCard(session: PTPSession) async throws -> any CaptureDriver {
        throw CaptureError(
            .cardCopyUnavailable, "--keep-on-card: rawcap knows no capture target for the \(name) driver's cameras")
    }

    /// A driver without bulb operations.
    public func bulbUnavailableReason(deviceInfo: DeviceInfo) -> String? {
        "rawcap has no bulb operations for the \(name) driver"
    }

    /// No setting.
    public var bulbShutterSetting: BulbShutterSetting { .none }

    /// None.
    public var bulbExposureProgram: ExposureSetting.Preset? { nil }

    /// ExposureTime only.
    public var shutterSpeedControl: (any ShutterSpeedControl)? { nil }

    /// GetDeviceInfo: the cheapest request PTP has, valid in any state (ISO 15740 10.5.1).
    public func keepAlive(session: PTPSession) async throws { _ = try await session.getDeviceInfo() }

    /// Refuses: ``bulbUnavailableReason(deviceInfo:)`` stops such a run before it starts.
    public func captureBulb(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, hold: BulbHold,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        throw CaptureError(.exposureUnavailable, bulbUnavailableReason(deviceInfo: try await session.deviceInfo()) ?? name)
    }
}

/// Reads and sets a camera's image quality (RAW, RAW+JPEG, JPEG) where standard property descriptors cannot: Canon
/// EOS reports its settings in GetEvent records and sets them with SetDevicePropValueEx.
public protocol QualityControl: Sendable {
    /// The property it reads and writes (Canon EOS ImageFormat, 0xD120), for `config`'s listing.
    var property: DevicePropertyCode { get }
    /// What the camera offers and is set to.
    func read(session: PTPSession) async throws -> FormatCatalog
    /// Sets `quality`.
    func set(_ quality: ShotQuality, session: PTPSession) async throws
}

/// An object a shot stored on the camera.
public struct AnnouncedObject: Hashable, Sendable {
    /// Its handle.
    public var handle: ObjectHandle
    /// Its ObjectInfo.
    public var info: ObjectInfo
    /// Whether it arrived after CaptureComplete, or was found on the card because its ObjectAdded never came.
    public var late: Bool
    /// Its bytes when the driver had to download it already (a handle that can be read only once, such as Sony's
    /// 0xFFFFC001); `nil` leaves the download to the runner.
    public var data: [UInt8]?

    /// Creates an entry.
    public init(handle: ObjectHandle, info: ObjectInfo, late: Bool = false, data: [UInt8]? = nil) {
        self.handle = handle
        self.info = info
        self.late = late
        self.data = data
    }

    /// Whether it is a JPEG (EXIF/JPEG or JFIF).
    public var isJPEG: Bool { info.objectFormat == .exifJPEG || info.objectFormat == .jfif }
}

/// How long a driver waits, and how often it retries.
public struct CaptureTiming: Hashable, Sendable {
    /// How long a shot may take from InitiateCapture to its last object (long exposures need more).
    public var shotTimeout: Duration
    /// How long to wait for objects still missing after CaptureComplete, or for CaptureComplete once every
    /// expected object has arrived.
    public var lateGrace: Duration
    /// Attempts at InitiateCapture while the camera answers DeviceBusy.
    public var busyAttempts: Int
    /// Wait between busy attempts (doubled each time, capped at a second).
    public var busyDelay: Duration

    /// Creates timing; the defaults suit a camera on USB.
    public init(
        shotTimeout: Duration = .seconds(30), lateGrace: Duration = .seconds(2), busyAttempts: Int = 8,
        busyDelay: Duration = .milliseconds(100)
    ) {
        self.shotTimeout = shotTimeout
        self.lateGrace = lateGrace
        self.busyAttempts = busyAttempts
        self.busyDelay = busyDelay
    }
}
