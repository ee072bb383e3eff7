import WireFormat

/// How a camera sends live view frames, per maker, and how each maker wraps the JPEG.
///
/// Sources, libgphoto2 `camlibs/ptp2`: `library.c` `camera_capture_preview` (the order of operations per maker,
/// the retries, the wrappers), `config.c` (the focus drives), `ptp.h` (codes), `ptp.c`
/// (`ptp_canon_eos_get_viewfinder_image`, `ptp_nikon_get_liveview_image`).
public enum LiveViewProtocol: Hashable, Sendable, CustomStringConvertible {
    /// Canon EOS: EVFOutputDevice (0xD1B0) gets the PC bit, then GetViewFinderData (0x9153) returns
    /// ``CanonEOSViewFinderData`` records.
    case canonEOS
    /// Nikon: StartLiveView (0x9201), DeviceReady (0x90C8) until not busy, GetLiveViewImage (0x9203) returns a
    /// ``NikonLiveViewImage``, EndLiveView (0x9202) ends it.
    case nikon
    /// Sony: GetObjectInfo and GetObject of the live view object 0xFFFFC002 (``SonyLiveViewImage``).
    case sony
    /// Fujifilm over USB: InitiateOpenCapture (0x101C), then GetObjectInfo, GetObject and DeleteObject of 0x80000001,
    /// a bare JPEG.
    case fujifilm

    public var description: String {
        switch self {
        case .canonEOS: "Canon EOS GetViewFinderData"
        case .nikon: "Nikon GetLiveViewImage"
        case .sony: "Sony live view object 0xFFFFC002"
        case .fujifilm: "Fujifilm live view object 0x80000001"
        }
    }

    /// The live view protocol of a camera of `family` that lists `operations`, or the reason there is none.
    ///
    /// libgphoto2 asks the same questions: a Canon needs GetViewFinderData, a Nikon StartLiveView (`library.c`
    /// `camera_capture_preview`: "Sorry, your Nikon camera does not support LiveView mode"); a Sony in PC Remote mode
    /// always has the object (the family already requires SDIOConnect), a Fujifilm needs InitiateOpenCapture. A
    /// camera of another maker, or one that lacks the operation, has no live view rawcap can read: the standard
    /// (ISO 15740) has none.
    public static func select(family: CameraFamily, operations: [OperationCode]) -> Result<Self, Unavailable> {
        switch family {
        case .canonEOS:
            guard operations.contains(OperationCode.Canon.getViewFinderData) else {
                return .failure(Unavailable("the Canon camera does not list GetViewFinderData (0x9153)"))
            }
            return .success(.canonEOS)
        case .nikon:
            guard operations.contains(OperationCode.Nikon.startLiveView),
                operations.contains(OperationCode.Nikon.getLiveViewImage)
            else {
                return .failure(Unavailable("the Nikon camera does not list StartLiveView (0x9201) and GetLiveViewImage (0x9203)"))
            }
            return .success(.nikon)
        case .sony:
            return .success(.sony)
        case .fujifilm:
            guard operations.contains(.initiateOpenCapture) else {
                return .failure(Unavailable("the Fujifilm camera does not list InitiateOpenCapture (0x101C)"))
            }
            return .success(.fujifilm)
        case .generic:
            return .failure(
                Unavailable(
                    "the camera offers no live view rawcap knows: PTP (ISO 15740) has none, and it is not a Canon EOS, Nikon, Sony or Fujifilm body"
                ))
        }
    }

    /// Why a camera has no live view.
    public struct Unavailable: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }
}

/// Finds a JPEG inside a vendor's live view data: from the first SOI (FF D8) to the last EOI (FF D9).
///
/// libgphoto2 `library.c` `save_jpeg_in_data_to_preview` looks for the first SOI and the first EOI after it; the last
/// EOI is taken here instead, because an EXIF thumbnail inside the JPEG ends with an EOI of its own.
public enum LiveViewJPEG {
    /// The range of the JPEG in `bytes`, or `nil` when there is no SOI followed by an EOI.
    public static func locate(in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        guard let start = firstSOI(in: bytes) else { return nil }
        var end = bytes.endIndex - 1
        while end > start + 2 {
            if bytes[end - 1] == 0xFF, bytes[end] == 0xD9 { return start..<(end + 1) }
            end -= 1
        }
        return nil
    }

    /// Whether `bytes` is one whole JPEG: SOI first, EOI last.
    public static func isWholeJPEG(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 4 && bytes[bytes.startIndex] == 0xFF && bytes[bytes.startIndex + 1] == 0xD8
            && bytes[bytes.endIndex - 2] == 0xFF && bytes[bytes.endIndex - 1] == 0xD9
    }

    static func firstSOI(in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == 0xFF, bytes[index + 1] == 0xD8 { return index }
            index += 1
        }
        return nil
    }
}

// MARK: Canon EOS

/// Canon EOS live view facts. Sources: libgphoto2 `ptp.h` (`PTP_DPC_CANON_EOS_EVFOutputDevice` 0xD1B0,
/// `PTP_DPC_CANON_EOS_EVFMode` 0xD1B1, `PTP_OC_CANON_EOS_GetViewFinderData` 0x9153), `ptp.c`
/// `ptp_canon_eos_get_viewfinder_image` (parameters 0x00200000, 0, 0 "from trace"), `library.c`
/// `camera_capture_preview` (EVFMode set to 1 when it is not; EVFOutputDevice set to 2, "2 means PC, 1 means TFT",
/// when no bit other than TFT's is set; 0xA102 or DeviceBusy mean "not there yet": wait 5 ms × tries, at most 3 s).
public enum CanonEOSLiveView {
    /// EVFOutputDevice, 0xD1B0 (UINT32 bit mask: 1 the camera's screen, 2 the PC).
    public static let outputDeviceProperty = DevicePropertyCode(rawValue: 0xD1B0)
    /// EVFMode, 0xD1B1 (UINT16: 0 off, 1 on).
    public static let modeProperty = DevicePropertyCode(rawValue: 0xD1B1)
    /// The screen's bit of EVFOutputDevice.
    public static let outputTFT: UInt32 = 1
    /// The PC's bit of EVFOutputDevice.
    public static let outputPC: UInt32 = 2
    /// GetViewFinderData's parameters.
    public static let getViewFinderDataParameters: [UInt32] = [0x0020_0000, 0, 0]
    /// The longest wait for a first frame (libgphoto2: 3 seconds).
    public static let firstFrameWait = Duration.seconds(3)

    /// The EVFOutputDevice value that sends frames to the PC, or `nil` when `current` already does: libgphoto2 sets
    /// 2 when no bit but the screen's is set, and leaves other values (PC or mobile outputs already on) alone.
    public static func outputDeviceValue(current: UInt32) -> UInt32? {
        current & ~outputTFT == 0 ? outputPC : nil
    }

    /// DriveLens (0x9155) parameter for a step towards near or far of `size` 1…3 (libgphoto2 `config.c`
    /// `_put_Canon_EOS_MFDrive`: "Near N" is N, "Far N" is N | 0x8000).
    public static func driveLensParameter(towardsFar: Bool, size: Int) -> UInt32 {
        let step = UInt32(min(3, max(1, size)))
        return towardsFar ? step | 0x8000 : step
    }

    /// The step of a DriveLens parameter: negative towards near, positive towards far; `nil` for a parameter
    /// libgphoto2 never sends.
    public static func driveLensStep(_ parameter: UInt32) -> Int? {
        let size = Int(parameter & 0x7FFF)
        guard (1...3).contains(size), parameter & ~UInt32(0x8003) == 0 else { return nil }
        return parameter & 0x8000 != 0 ? size : -size
    }
}

/// What GetViewFinderData (0x9153) returns: records of UINT32 length (the record's whole size, these 8 bytes
/// included), UINT32 type, then the payload. Type 1 is the live view JPEG, 11 a JPEG too, 9 a frame in movie mode
/// (libgphoto2 `library.c` `camera_capture_preview`: "1: JPEG preview", "type 1 is JPEG (regular), type 9 is in movie
/// mode"; both 1 and 11 are saved as JPEG). Other records (focus and histogram data) are skipped.
public struct CanonEOSViewFinderData: Hashable, Sendable {
    /// One record.
    public struct Record: Hashable, Sendable {
        public var type: UInt32
        public var payload: ArraySlice<UInt8>
        public init(type: UInt32, payload: ArraySlice<UInt8>) {
            self.type = type
            self.payload = payload
        }
    }

    /// The JPEG record type.
    public static let jpegType: UInt32 = 1
    /// The other JPEG record type libgphoto2 saves as JPEG.
    public static let jpegTypeAlternate: UInt32 = 11

    public var records: [Record]

    public init(records: [Record]) { self.records = records }

    /// Decodes the data phase. A length under 8 or past the end is an error (libgphoto2 cuts such a record to the
    /// rest of the data and logs it; a reader that trusts it can loop forever on a length of 0).
    public init(ptpEncoded bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes, byteOrder: .little)
        var records: [Record] = []
        while !reader.isAtEnd {
            let start = reader.offset
            let length = Int(try reader.read(UInt32.self))
            let type = try reader.read(UInt32.self)
            guard length >= 8 else {
                throw WireError(.invalidValue, at: start, "view finder record length \(length) is under 8")
            }
            guard length - 8 <= reader.remainingCount else {
                throw WireError(.truncated, at: start, "view finder record of \(length) bytes, \(reader.remainingCount + 8) left")
            }
            records.append(Record(type: type, payload: try reader.readBytes(count: length - 8)))
        }
        self.records = records
    }

    /// The first JPEG record's payload.
    public var jpeg: ArraySlice<UInt8>? {
        records.first { $0.type == Self.jpegType || $0.type == Self.jpegTypeAlternate }?.payload
    }

    /// The data phase.
    public var ptpEncoded: [UInt8] {
        var writer = WireWriter(byteOrder: .little, capacity: records.reduce(0) { $0 + 8 + $1.payload.count })
        for record in records {
            writer.write(UInt32(8 + record.payload.count))
            writer.write(record.type)
            writer.write(bytes: record.payload)
        }
        return writer.bytes
    }
}

// MARK: Nikon

/// Nikon live view facts. Sources: libgphoto2 `ptp.h` (StartLiveView 0x9201, EndLiveView 0x9202, GetLiveViewImage
/// 0x9203, MfDrive 0x9204, `PTP_DPC_NIKON_LiveViewStatus` 0xD1A2, `LiveViewProhibitCondition` 0xD1A4,
/// `PTP_RC_NIKON_NotLiveView` 0xA00B, `MfDriveStepEnd` 0xA00C, `MfDriveStepInsufficiency` 0xA00E), `library.c`
/// `camera_capture_preview` (StartLiveView, DeviceReady every 20 ms for up to 2 s; GetLiveViewImage answering
/// NotLiveView — "this happens on the D7000 after 14000 frames" — starts live view again; DeviceBusy retried after
/// 10 ms; the first frame after starting is skipped, "the first image on the S9700 is corrupted") and `config.c`
/// `_put_Nikon_MFDrive` (MfDrive flag 1 for a negative value, towards near, 2 towards far; steps at least 1; then
/// DeviceReady until not busy).
public enum NikonLiveView {
    /// LiveViewStatus, 0xD1A2 (UINT8: 1 while live view runs).
    public static let statusProperty = DevicePropertyCode(rawValue: 0xD1A2)
    /// LiveViewProhibitCondition, 0xD1A4 (UINT32 bit mask; 0 when live view may start).
    public static let prohibitConditionProperty = DevicePropertyCode(rawValue: 0xD1A4)
    /// MfDrive's direction towards the closest distance.
    public static let towardsNear: UInt32 = 1
    /// MfDrive's direction towards infinity.
    public static let towardsFar: UInt32 = 2
    /// DeviceReady's pause after StartLiveView (libgphoto2 `nikon_wait_busy(params, 20, 2000)`).
    public static let readyPoll = Duration.milliseconds(20)
    /// The longest wait for live view to start.
    public static let readyWait = Duration.seconds(2)

    /// The first reason of a LiveViewProhibitCondition mask, in libgphoto2's order ("by decreasing order of
    /// possibility"), or `nil` for 0.
    public static func prohibitReason(_ mask: UInt32) -> String? {
        guard mask != 0 else { return nil }
        let reasons: [(Int, String)] = [
            (8, "battery exhausted"), (17, "temperature too high"), (9, "TTL error"), (22, "in mirror-up operation"),
            (5, "minimum aperture warning"), (15, "processing of shooting operation"), (2, "sequence error"),
            (31, "exposure program mode is not P/A/S/M"), (21, "bulb warning"), (20, "card unformatted"),
            (19, "card error"), (18, "card protected"),
            (14, "recording destination card, but no card or card protected"),
            (12, "pending unretrieved SDRAM image"), (4, "fully pressed button"), (24, "lens is retracting"),
        ]
        for (bit, reason) in reasons where mask & (1 << UInt32(bit)) != 0 { return reason }
        return hexCode(mask)
    }

    static func hexCode(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "code 0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// What GetLiveViewImage (0x9203) returns: a header, then the JPEG.
///
/// The header's size depends on the body. libgphoto2 does not read it: it looks for the JPEG's SOI and EOI
/// (`library.c` `save_jpeg_in_data_to_preview`, "FIXME: perhaps handle the 128 byte header data too"). Other hosts
/// skip a fixed size per body: digiCamControl (`CameraControl.Devices/Nikon/NikonBase.cs` `GetLiveViewImage`:
/// `headerSize = 384` for the D800 generation and later, its default; `NikonD3X.cs` and `NikonD700.cs`: 64), and
/// Nikon's SDK wrappers take 64 for the first module types, 128 for the third and 384 for the rest. The header
/// starts with big-endian UINT16s: the JPEG's width and height, then the whole image's width and height (offsets 0,
/// 2, 4, 6 in digiCamControl's `GetAdditionalLiveViewData`, the 384-byte layout).
///
/// Decoding takes the JPEG at `headerSize` when an SOI is there, and otherwise finds it as libgphoto2 does.
public struct NikonLiveViewImage: Hashable, Sendable {
    /// The header of the D800 generation and later (D850, Z bodies).
    public static let headerSize384 = 384
    /// The header of the earliest live view bodies (D3X, D700).
    public static let headerSize64 = 64

    /// The header bytes (empty when no JPEG was where the header should end).
    public var header: ArraySlice<UInt8>
    /// The JPEG.
    public var jpeg: ArraySlice<UInt8>

    public init(header: ArraySlice<UInt8>, jpeg: ArraySlice<UInt8>) {
        self.header = header
        self.jpeg = jpeg
    }

    /// The header size for a body, by its DeviceInfo model: 64 for the D3X and D700 (digiCamControl), else 384.
    public static func headerSize(model: String) -> Int {
        let words = model.uppercased().split(separator: " ").filter { $0 != "NIKON" }
        return words.count == 1 && ["D3X", "D700"].contains(String(words[0])) ? headerSize64 : headerSize384
    }

    /// Decodes a frame whose header is expected to be `headerSize` bytes.
    public init(ptpEncoded bytes: [UInt8], headerSize: Int) throws(WireError) {
        let all = bytes[...]
        if headerSize + 4 <= bytes.count, bytes[headerSize] == 0xFF, bytes[headerSize + 1] == 0xD8,
            let range = LiveViewJPEG.locate(in: all[headerSize...])
        {
            self.init(header: all[..<headerSize], jpeg: all[range])
            return
        }
        guard let range = LiveViewJPEG.locate(in: all) else {
            throw WireError(.invalidValue, at: 0, "no JPEG in the \(bytes.count)-byte live view frame")
        }
        self.init(header: all[..<range.lowerBound], jpeg: all[range])
    }

    /// The JPEG's width and height from a header of 8 bytes or more.
    public var jpegSize: (width: Int, height: Int)? {
        guard header.count >= 4 else { return nil }
        var reader = WireReader(header, byteOrder: .big)
        guard let width = try? reader.read(UInt16.self), let height = try? reader.read(UInt16.self) else { return nil }
        return (Int(width), Int(height))
    }

    /// A frame as a body with a `headerSize`-byte header sends it: the JPEG's and the whole image's size, big-endian,
    /// then zeros up to the JPEG.
    public static func encode(
        jpeg: [UInt8], width: Int, height: Int, wholeWidth: Int, wholeHeight: Int, headerSize: Int = headerSize384
    ) -> [UInt8] {
        var writer = WireWriter(byteOrder: .big, capacity: headerSize + jpeg.count)
        for value in [width, height, wholeWidth, wholeHeight] { writer.write(UInt16(clamping: value)) }
        writer.write(bytes: [UInt8](repeating: 0, count: max(0, headerSize - 8)))
        writer.write(bytes: jpeg)
        return writer.bytes
    }
}

// MARK: Sony

/// Sony live view and focus facts. Sources: libgphoto2 `library.c` `camera_capture_preview` ("same for Alpha series
/// and QX": GetObjectInfo of 0xFFFFC002 — InvalidObjectHandle means no frame yet, wait 50 ms, "this state can persist
/// for up to 1 second on the ZV-1" — then GetObject; AccessDenied means asked too fast, wait 20 ms; at most 50
/// tries), `config.c` `_put_Sony_ManualFocus` (ManualFocusAdjust 0xD2D1, INT16 −7…7 through SetControlDeviceB, the
/// sign the direction — negative towards near — and the size the step; AFMFHold 0xD2D2) and `ptp.h`.
public enum SonyLiveView {
    /// The live view object.
    public static let objectHandle = SonyControl.liveViewHandle
    /// ManualFocusAdjust, 0xD2D1 (INT16 −7…7).
    public static let manualFocusAdjust = DevicePropertyCode(rawValue: 0xD2D1)
    /// AFMFHold, 0xD2D2.
    public static let afMFHold = DevicePropertyCode(rawValue: 0xD2D2)
    /// The wait after InvalidObjectHandle.
    public static let notReadyPause = Duration.milliseconds(50)
    /// The wait after AccessDenied.
    public static let tooFastPause = Duration.milliseconds(20)
    /// The most tries for one frame.
    public static let tries = 50
    /// The largest ManualFocusAdjust step.
    public static let maximumStep = 7
}

/// What GetObject of 0xFFFFC002 returns: a header whose first UINT32 (little-endian) is the offset of the JPEG, then
/// the JPEG (libgphoto2 `library.c` `camera_capture_preview`: "the data starts with an apparent offset into the data
/// to the JPEG, try to use that", gphoto2 issue 389, where FF D8 occurred inside the header). When the offset does
/// not point at an SOI the JPEG is looked for as libgphoto2 does then.
public struct SonyLiveViewImage: Hashable, Sendable {
    /// The header (the bytes before the JPEG).
    public var header: ArraySlice<UInt8>
    /// The JPEG.
    public var jpeg: ArraySlice<UInt8>

    /// The size of the header the emulated body writes: the offset and the JPEG's size, then padding.
    public static let emulatedHeaderSize = 136

    public init(ptpEncoded bytes: [UInt8]) throws(WireError) {
        let all = bytes[...]
        if bytes.count > 4 {
            let offset = Int(UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
            if offset + 1 < bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] == 0xD8,
                let range = LiveViewJPEG.locate(in: all[offset...])
            {
                header = all[..<offset]
                jpeg = all[range]
                return
            }
        }
        guard let range = LiveViewJPEG.locate(in: all) else {
            throw WireError(.invalidValue, at: 0, "no JPEG in the \(bytes.count)-byte live view object")
        }
        header = all[..<range.lowerBound]
        jpeg = all[range]
    }

    /// The object as the emulated body sends it: UINT32 offset of the JPEG, UINT32 its size, zeros to the offset.
    public static func encode(jpeg: [UInt8], headerSize: Int = emulatedHeaderSize) -> [UInt8] {
        var writer = WireWriter(byteOrder: .little, capacity: headerSize + jpeg.count)
        writer.write(UInt32(headerSize))
        writer.write(UInt32(jpeg.count))
        writer.write(bytes: [UInt8](repeating: 0, count: max(0, headerSize - 8)))
        writer.write(bytes: jpeg)
        return writer.bytes
    }
}

// MARK: Fujifilm

/// Fujifilm live view over USB. Source: libgphoto2 `library.c` `camera_capture_preview` (`PTP_VENDOR_FUJI`, without
/// the PTP/IP JPEG port): InitiateOpenCapture (0x101C, parameters 0, 0) once, up to 5 times until OK; GetObjectInfo
/// of 0x80000001 until it is there (InvalidObjectHandle: wait 5 ms); GetObject (DeviceBusy: wait 1 ms; AccessDenied:
/// asked too fast); DeleteObject of 0x80000001. "Fuji Liveview returns FF D8 ... FF D9 ... so no meta data wrapped
/// around the jpeg data". libgphoto2 has no Fujifilm focus drive.
public enum FujifilmLiveView {
    /// The live view object.
    public static let objectHandle = ObjectHandle(rawValue: 0x8000_0001)
    /// The wait after InvalidObjectHandle.
    public static let notReadyPause = Duration.milliseconds(5)
}

/// The step sizes of `rawcap focus --size`, per maker's drive.
public enum FocusStepSize: String, CaseIterable, Hashable, Sendable {
    case small, medium, large

    /// Canon DriveLens's size 1, 2 or 3 ("Near 1" … "Near 3" in libgphoto2 `config.c`).
    public var canonDriveLensSize: Int {
        switch self {
        case .small: 1
        case .medium: 2
        case .large: 3
        }
    }

    /// Nikon MfDrive steps per drive: rawcap's choice (libgphoto2 sends whatever number the user gives, at least 1).
    public var nikonSteps: UInt32 {
        switch self {
        case .small: 10
        case .medium: 50
        case .large: 200
        }
    }

    /// Sony ManualFocusAdjust magnitude (1…7 in libgphoto2 `config.c`).
    public var sonyStep: Int16 {
        switch self {
        case .small: 1
        case .medium: 3
        case .large: 7
        }
    }
}
