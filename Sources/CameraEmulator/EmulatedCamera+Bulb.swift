import PTP
import RawImage

/// A bulb exposure the emulated camera holds open: when the host's open request arrived (monotonic clock), and how
/// the shot is finished when the close request comes.
struct BulbExposureState: Sendable {
    /// How the exposure was opened, which decides the operation that closes it.
    enum Opening: Sendable, Hashable {
        /// InitiateOpenCapture (0x101C) with its storage and format; closed by TerminateOpenCapture (0x1018).
        case openCapture(storage: UInt32, format: UInt32)
        /// Nikon InitiateCaptureRecInSdram/InitiateCaptureRecInMedia with ExposureTime at bulb; closed by
        /// TerminateCapture (0x920C).
        case nikon(toCard: Bool)
        /// Canon EOS RemoteReleaseOn with a full press and the shutter at bulb; closed by RemoteReleaseOff.
        case canonEOS
        /// Sony S2 (0xD2C2) pressed with the shutter at bulb; closed when S2 is let go.
        case sony
        /// Fujifilm InitiateCapture with CaptureControl 0x0500; closed by InitiateCapture with 0x000C.
        case fujifilm
    }

    var opening: Opening
    /// The operation that opened it.
    var openedBy: OperationCode
    var openedAt: ContinuousClock.Instant
    /// The opening request's transaction ID (TerminateOpenCapture names it).
    var transactionID: UInt32
}

/// One bulb exposure the emulated camera measured: the time between the host's open and close requests, on the
/// camera's monotonic clock (`ContinuousClock`), as a test reads it from ``EmulatedCamera/bulbExposures``.
public struct BulbExposureRecord: Hashable, Sendable {
    /// The operation that opened the shutter (InitiateOpenCapture, InitiateCaptureRecInSdram, RemoteReleaseOn, …).
    public var openedBy: OperationCode
    /// The operation that closed it.
    public var closedBy: OperationCode
    /// How long the shutter was open.
    public var measured: Duration
    /// The exposure time the shot records (EXIF ExposureTime): the measured time in milliseconds, at most an hour.
    public var recorded: Rational
}

extension EmulatedCamera {
    /// Whether the shutter speed is the model's bulb setting (``CameraModel/bulbExposureTimeValue``).
    var shutterIsBulb: Bool {
        guard let bulb = model.bulbExposureTimeValue else { return false }
        return properties.integer(.exposureTime) == Int(bulb)
    }

    /// Whether the current exposure program offers bulb (``CameraModel/bulbExposureProgram``).
    var bulbOffered: Bool {
        guard let program = model.bulbExposureProgram else { return true }
        return properties.integer(.exposureProgramMode) == Int(program)
    }

    /// `description` as the current program shows it: ExposureTime without its bulb value outside the program that
    /// offers bulb.
    func describedForProgram(_ description: DevicePropDesc) -> DevicePropDesc {
        guard description.propertyCode == .exposureTime, !bulbOffered, let bulb = model.bulbExposureTimeValue,
            case .enumeration(let values) = description.form
        else { return description }
        var shown = description
        shown.form = .enumeration(values.filter { $0 != .uint32(bulb) })
        return shown
    }

    /// Whether a bulb exposure is open.
    public var isBulbOpen: Bool { bulb != nil }

    /// Opens the shutter for `opening`; DeviceBusy while a shot develops or another exposure is open.
    func openBulb(_ opening: BulbExposureState.Opening, by operation: OperationCode, transactionID: UInt32)
        -> PTPResponderReply
    {
        guard captureTask == nil, bulb == nil else { return PTPResponderReply(.deviceBusy) }
        bulb = BulbExposureState(
            opening: opening, openedBy: operation, openedAt: ContinuousClock().now, transactionID: transactionID)
        return PTPResponderReply()
    }

    /// Closes the open exposure, records its length, and develops its shot through `develop` with the measured time
    /// as the exposure time (``currentExposure()`` reads it while `develop` runs).
    func closeBulb(by operation: OperationCode, develop: (BulbExposureState) -> PTPResponderReply)
        -> PTPResponderReply
    {
        guard let open = bulb else { return PTPResponderReply(.generalError) }
        let measured = ContinuousClock().now - open.openedAt
        bulb = nil
        // ExposureSettings takes up to an hour; longer exposures record an hour.
        let milliseconds = Int32(max(1, min(3_600_000, (measured / .milliseconds(1)).rounded())))
        guard let recorded = Rational(milliseconds, 1000) else { return PTPResponderReply(.generalError) }
        bulbExposures.append(
            BulbExposureRecord(openedBy: open.openedBy, closedBy: operation, measured: measured, recorded: recorded))
        bulbExposureTime = recorded
        defer { bulbExposureTime = nil }
        return develop(open)
    }

    /// InitiateOpenCapture (ISO 15740 §10.5.26, 0x101C; libgphoto2 `ptp.h` `ptp_initiateopencapture`, storage and
    /// format parameters): the standard bulb. The shutter opens and stays open until TerminateOpenCapture; the
    /// storage and format are checked as InitiateCapture checks them.
    func initiateOpenCapture(storage: UInt32, format: UInt32, transactionID: UInt32) -> PTPResponderReply {
        let target = storage == 0 ? captureTargetStorage : StorageID(rawValue: storage)
        guard store.store(target) != nil else { return PTPResponderReply(.invalidStorageID) }
        guard [0, UInt32(ObjectFormatCode.tiffEP.rawValue), UInt32(ObjectFormatCode.exifJPEG.rawValue)].contains(format)
        else { return PTPResponderReply(.invalidObjectFormatCode) }
        return openBulb(
            .openCapture(storage: storage, format: format), by: .initiateOpenCapture, transactionID: transactionID)
    }

    /// TerminateOpenCapture (0x1018; its parameter is the InitiateOpenCapture's transaction ID, libgphoto2 `ptp.h`
    /// `ptp_terminateopencapture(params, transid)`): closes the shutter; the shot develops and is announced with
    /// ObjectAdded and CaptureComplete carrying the opening request's transaction ID, as InitiateCapture's are.
    func terminateOpenCapture(_ openTransactionID: UInt32) -> PTPResponderReply {
        guard let open = bulb, case .openCapture(let storage, let format) = open.opening,
            open.transactionID == openTransactionID
        else { return PTPResponderReply(.invalidTransactionID) }
        return closeBulb(by: .terminateOpenCapture) { open in
            initiateCapture(storage: storage, format: format, transactionID: open.transactionID)
        }
    }
}
