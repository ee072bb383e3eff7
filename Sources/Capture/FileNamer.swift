import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Turns `--name` templates into file stems, and anything from a camera into a harmless file name part.
///
/// Placeholders: `{date}` (YYYYMMDD), `{time}` (HHMMSS), `{seq}` (4-digit sequence number, continuing across runs
/// in the same folder), `{n}` (the frame's number in this run, from 1), `{camera}` (the model), `{serial}`,
/// `{bracket}` (the bracket step, `ev-2`, `ev+0.7`, `ev0`; empty outside a bracket). Values are sanitised: camera
/// strings never bring a slash, `..`, a control character or a leading dot into a path.
public struct FileNamer: Hashable, Sendable {
    /// The default template.
    public static let defaultTemplate = "{date}-{time}-{seq}"
    /// The placeholders a template may use.
    public static let placeholders = ["date", "time", "seq", "n", "camera", "serial", "bracket"]

    /// The template.
    public let template: String

    /// Checks and keeps `template`.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/invalidPlan`` for an unknown placeholder, an unclosed brace, a
    ///   slash, or a template that names nothing.
    public init(template: String) throws {
        guard !template.contains("/") else {
            throw CaptureError(.invalidPlan, "--name \(template): a name template cannot contain '/'")
        }
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw CaptureError(.invalidPlan, "--name \(template): '{' without '}'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard Self.placeholders.contains(name) else {
                throw CaptureError(
                    .invalidPlan,
                    "--name \(template): unknown placeholder {\(name)}; known: "
                        + Self.placeholders.map { "{\($0)}" }.joined(separator: " "))
            }
            rest = rest[rest.index(after: close)...]
        }
        guard !template.isEmpty else { throw CaptureError(.invalidPlan, "--name needs a template") }
        self.template = template
    }

    /// The values of one frame's placeholders.
    public struct Values: Sendable {
        /// When the frame was shot.
        public var date: Date
        /// The sequence number.
        public var sequence: Int
        /// The frame's number in the run, from 1.
        public var frameNumber: Int
        /// The camera model.
        public var camera: String
        /// The serial number.
        public var serial: String
        /// The bracket step in EV, or `nil`.
        public var bracket: Double?

        /// Creates values.
        public init(
            date: Date, sequence: Int, frameNumber: Int, camera: String, serial: String, bracket: Double?
        ) {
            self.date = date
            self.sequence = sequence
            self.frameNumber = frameNumber
            self.camera = camera
            self.serial = serial
            self.bracket = bracket
        }
    }

    /// The stem for `values`, sanitised; a bracket step is appended when the template has no `{bracket}`.
    public func stem(_ values: Values) -> String {
        // Local time with localtime_r (TZ, else /etc/localtime, as Foundation's TimeZone.current), without loading
        // ICU's calendar for it.
        var time = time_t(values.date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        _ = localtime_r(&time, &local)
        let bracket = values.bracket.map(Self.bracketLabel) ?? ""
        var text = template
        let replacements: [(String, String)] = [
            (
                "date",
                (local.tm_year + 1900).zeroPadded(to: 4) + (local.tm_mon + 1).zeroPadded(to: 2)
                    + local.tm_mday.zeroPadded(to: 2)
            ),
            ("time", local.tm_hour.zeroPadded(to: 2) + local.tm_min.zeroPadded(to: 2) + local.tm_sec.zeroPadded(to: 2)),
            ("seq", values.sequence.zeroPadded(to: 4)), ("n", String(values.frameNumber)),
            ("camera", Self.sanitize(values.camera)), ("serial", Self.sanitize(values.serial)),
            ("bracket", bracket),
        ]
        for (name, value) in replacements { text = text.replacing("{\(name)}", with: value) }
        if !bracket.isEmpty, !template.contains("{bracket}") { text += "_" + bracket }
        return Self.sanitize(text)
    }

    /// `ev-2`, `ev+0.7`, `ev0`.
    public static func bracketLabel(_ ev: Double) -> String {
        let rounded = (ev * 10).rounded() / 10
        if rounded == 0 { return "ev0" }
        let magnitude = rounded.magnitude
        let text = magnitude == magnitude.rounded() ? String(Int(magnitude)) : String(cFormat: "%.1f", magnitude)
        return "ev" + (rounded < 0 ? "-" : "+") + text
    }

    /// A file name part made only of letters, digits and `._+-`, never starting with a dot or a dash, never
    /// empty: what a camera (or a template) gives can never leave the folder, hide the file or look like an option.
    public static func sanitize(_ text: String) -> String {
        var result = ""
        var lastWasReplacement = false
        for scalar in text.unicodeScalars {
            let allowed =
                (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || scalar == "." || scalar == "_" || scalar == "+" || scalar == "-"
            if allowed {
                result.unicodeScalars.append(scalar)
                lastWasReplacement = false
            } else if !lastWasReplacement {
                result += "-"
                lastWasReplacement = true
            }
        }
        while let first = result.first, first == "." || first == "-" { result.removeFirst() }
        while result.contains("..") { result = result.replacing("..", with: ".") }
        while let last = result.last, last == "-" || last == "." { result.removeLast() }
        if result.count > 200 { result = String(result.prefix(200)) }
        return result.isEmpty ? "unnamed" : result
    }
}
