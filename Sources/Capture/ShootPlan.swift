import DNG

/// What `rawcap shoot` was asked to do: which format, how many frames, when, with which bracket, named how.
public struct ShootPlan: Sendable {
    /// The requested format.
    public var format: OutputFormat
    /// How many frames (or brackets, with ``bracket``).
    public var count: Int
    /// Time between frame starts (bracket starts with ``bracket``); `nil` shoots each frame as soon as the
    /// previous one is downloaded.
    public var interval: Duration?
    /// Exposure steps in EV (`[-2, 0, 2]`), each frame of the count shot at each; empty for no bracket.
    public var bracket: [Double]
    /// Save the camera's JPEG beside the raw file (RAW+JPEG).
    public var keepJPEG: Bool
    /// DNG compression.
    public var compression: DNGOptions.Compression
    /// File naming.
    public var namer: FileNamer
    /// Driver waits and retries.
    public var timing: CaptureTiming
    /// A focus bracket: the lens moves between frames (``FocusBracket``); `nil` for none.
    public var focusBracket: FocusBracket?
    /// Store each shot on the camera's card as well, where it stays as a backup (`--keep-on-card`).
    public var keepOnCard = false
    /// The exposure time `--exposure` asks for, or `nil` to leave the shutter as set.
    public var exposure: ExposureRequest?

    /// Creates a plan.
    public init(
        format: OutputFormat = .auto, count: Int = 1, interval: Duration? = nil, bracket: [Double] = [],
        keepJPEG: Bool = false, compression: DNGOptions.Compression = .none,
        namer: FileNamer = FileNamer.standard, timing: CaptureTiming = CaptureTiming()
    ) {
        self.format = format
        self.count = count
        self.interval = interval
        self.bracket = bracket
        self.keepJPEG = keepJPEG
        self.compression = compression
        self.namer = namer
        self.timing = timing
    }

    /// How many frames the plan shoots.
    public var frameCount: Int { count * max(1, bracket.count) }

    /// The count of a run that goes on until it is stopped (`--interval` without `--count`): Ctrl-C or SIGTERM
    /// ends it.
    public static let untilStopped = Int(Int32.max)

    /// Whether the run goes on until it is stopped.
    public var isOpenEnded: Bool { count >= Self.untilStopped }

    /// Parses `-2,0,+2` (EV steps; `+` optional, decimals allowed).
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/invalidPlan`` naming the step that does not parse (an empty one
    ///   too: `1,,2` is a typo, not two steps).
    public static func parseBracket(_ text: String) throws -> [Double] {
        let steps = try text.split(separator: ",", omittingEmptySubsequences: false).map { part -> Double in
            let trimmed = String(part).trimmingSpaces()
            guard !trimmed.isEmpty else {
                throw CaptureError(
                    .invalidPlan, "--bracket \(text): an empty step; give EV steps separated by commas, such as -2,0,+2"
                )
            }
            let number = trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed
            guard let value = Double(number), value.isFinite, abs(value) <= 10 else {
                throw CaptureError(.invalidPlan, "--bracket \(text): \(part) is not an EV step between -10 and +10")
            }
            return value
        }
        guard !steps.isEmpty else { throw CaptureError(.invalidPlan, "--bracket needs steps such as -2,0,+2") }
        return steps
    }

    /// Parses a duration: `5`, `5s`, `500ms`, `2m`, `1h`, `1.5s`.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/invalidPlan``.
    public static func parseDuration(_ text: String) throws -> Duration {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = text.lowercased()
        var scale = 1.0
        for (suffix, factor) in units where number.hasSuffix(suffix) {
            number.removeLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale <= 7 * 86400 else {
            throw CaptureError(.invalidPlan, "\(text) is not a duration such as 500ms, 5s, 2m or 1h")
        }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }
}

extension FileNamer {
    /// The default template's namer.
    public static var standard: FileNamer {
        // The default template is known to be valid.
        (try? FileNamer(template: defaultTemplate)) ?? FileNamer(unchecked: defaultTemplate)
    }

    private init(unchecked template: String) { self.template = template }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
