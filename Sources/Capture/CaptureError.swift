/// Why a capture, download or save failed, in the capture engine's own terms.
///
/// Link failures (`TransportError`), device refusals (`PTPError`), output failures (`DNGError`, `OutputFileError`)
/// and undecodable objects (`DecodeError`) pass through unchanged; this type covers what only the engine can tell: a format the
/// camera cannot give, a capture that never completed, a full card, a stop on request.
public struct CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure; stable, so tests and the command line can switch on it.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The camera cannot deliver the requested format; the detail lists what it can.
        public static let formatUnavailable = Code(rawValue: "formatUnavailable")
        /// The camera stayed busy (DeviceBusy) through every retry.
        public static let cameraBusy = Code(rawValue: "cameraBusy")
        /// The camera's card (or memory) has no room for a shot (StoreFull).
        public static let cardFull = Code(rawValue: "cardFull")
        /// A shot produced no object in time (no ObjectAdded, no new object on the card).
        public static let captureTimeout = Code(rawValue: "captureTimeout")
        /// An object the camera announced is not what it claims (wrong size, no raw data, undecodable).
        public static let badObject = Code(rawValue: "badObject")
        /// The run was stopped (Ctrl-C) before it finished.
        public static let interrupted = Code(rawValue: "interrupted")
        /// The plan is inconsistent (a bracket the camera cannot set, a bad name template).
        public static let invalidPlan = Code(rawValue: "invalidPlan")
        /// A download went on, but so slowly that it would not end in any useful time (a camera trickling bytes
        /// just often enough that no single wait times out).
        public static let downloadStalled = Code(rawValue: "downloadStalled")
        /// The captures folder or its journal cannot be used.
        public static let outputUnavailable = Code(rawValue: "outputUnavailable")
        /// The camera is connected but not in a mode that takes remote commands (a Sony body outside "PC Remote").
        public static let remoteControlUnavailable = Code(rawValue: "remoteControlUnavailable")
        /// The camera left the link and did not come back within `--reconnect-timeout`.
        public static let cameraGone = Code(rawValue: "cameraGone")

        /// The camera cannot keep its files on its card while rawcap downloads them (`--keep-on-card`).
        public static let cardCopyUnavailable = Code(rawValue: "cardCopyUnavailable")
        /// The camera can give the requested exposure time neither as a shutter speed nor in bulb (`--exposure`).
        public static let exposureUnavailable = Code(rawValue: "exposureUnavailable")

        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened, for people.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// Errors compare by code only, so tests can write `#expect(throws: CaptureError(.cardFull))`.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `detail`, or the code when there is none.
    public var description: String { detail.isEmpty ? code.rawValue : detail }
}
