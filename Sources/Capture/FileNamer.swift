import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Turns `--name` templates into file stems, and anything from a camera into a harmless file name part.
///
/// Placeholders: `{date}` (YYYYMMDD), `{time}` (HHMMSS), `{date:FORMAT}` (the shot's local time by an strftime
/// format, `{date:%Y-%m-%d}`), `{seq}` (4-digit sequence number, continuing across runs in the same folder), `{n}`
/// (the frame's number in this run, from 1), `{camera}` (the model), `{serial}`, `{file}` and `{ext}` (the camera's
/// own file name without and with only its extension, `DSC_0042` and `NEF`), `{bracket}` (the bracket step, `ev-2`,
/// `ev+0.7`, `ev0`; empty outside a bracket). gphoto2's `--filename` codes work too: strftime's `%Y %m %d %H %M %S`
/// (and the other letters below), `%n` (the frame's number), `%f` (the camera's file name), `%C` (its extension),
/// `%%`. A `/` makes subfolders inside the output folder (`{date}/{seq}`). rawcap adds the extension of what it
/// writes, so a template ending in `.%C` or `.{ext}` ends without it (`%f.%C` is `DSC_0042.dng`).
///
/// Values are sanitised: what comes from a camera never brings a slash, `..`, a control character or a leading dot
/// into a path; the template's own text keeps every letter (`Hochzeit Müller {n}`), and only what is unsafe in a
/// file name (control characters, a leading dot or dash) is replaced.
public struct FileNamer: Hashable, Sendable {
    /// The default template.
    public static let defaultTemplate = "{date}-{time}-{seq}"
    /// The placeholders a template may use (`{date:FORMAT}` besides).
    public static let placeholders = ["date", "time", "seq", "n", "camera", "serial", "file", "ext", "bracket"]
    /// The strftime letters a template may use, in `{date:…}` or bare as gphoto2 takes them: none of them writes a
    /// `/` (`%D`, `%x` and `%c` do, and are refused).
    static let timeLetters: Set<Character> = [
        "Y", "y", "m", "d", "e", "H", "I", "M", "S", "p", "j", "a", "A", "b", "B", "h", "u", "w", "U", "W", "V", "G",
        "g", "Z", "z", "s", "k", "l", "F", "T", "R",
    ]
    /// gphoto2's own `--filename` letters.
    static let gphoto2Letters: Set<Character> = ["n", "f", "C", "%"]

    /// The template.
    public let template: String

    /// Checks and keeps `template`.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/invalidPlan`` for an unknown placeholder or `%` code, an unclosed
    ///   brace, a subfolder part that is empty, `.` or `..`, a template starting with `/`, or one that names nothing.
    public init(template: String) throws {
        func refuse(_ why: String) -> CaptureError { CaptureError(.invalidPlan, "--name \(template): \(why)") }
        guard !template.isEmpty else { throw CaptureError(.invalidPlan, "--name needs a template") }
        guard !template.hasPrefix("/") else {
            throw refuse("the name is inside the output folder; give the folder with -o and subfolders as a/b")
        }
        for part in template.split(separator: "/", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part != ".", part != ".." else {
                throw refuse("'\(part)' cannot be a subfolder or file name")
            }
        }
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { throw refuse("'{' without '}'") }
            let name = String(rest[rest.index(after: open)..<close])
            if name.hasPrefix("date:") {
                try Self.checkTimeFormat(String(name.dropFirst(5)), refuse: refuse, bare: false)
            } else if !Self.placeholders.contains(name) {
                throw refuse(
                    "unknown placeholder {\(name)}; known: "
                        + (Self.placeholders.map { "{\($0)}" } + ["{date:%Y-%m-%d}"]).joined(separator: " "))
            }
            rest = rest[rest.index(after: close)...]
        }
        try Self.checkTimeFormat(Self.outsideBraces(template), refuse: refuse, bare: true)
        self.template = template
    }

    /// The template's text outside `{…}`.
    static func outsideBraces(_ template: String) -> String {
        var text = ""
        var depth = 0
        for character in template {
            if character == "{" { depth += 1 } else if character == "}" { depth = max(0, depth - 1) } else if depth == 0 {
                text.append(character)
            }
        }
        return text
    }

    /// Refuses `%` codes outside ``timeLetters`` (and, bare, gphoto2's letters).
    static func checkTimeFormat(
        _ format: String, refuse: (String) -> CaptureError, bare: Bool
    ) throws {
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { continue }
            guard let letter = characters.next() else { throw refuse("a '%' at the end (write %% for a percent sign)") }
            if timeLetters.contains(letter) || (bare ? gphoto2Letters.contains(letter) : letter == "%") { continue }
            throw refuse(
                "%\(letter) is not a date code rawcap takes; use %Y %m %d %H %M %S (strftime)"
                    + (bare ? ", %n %f %C (gphoto2)" : ""))
        }
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
        /// The camera's name of the shot's file (`DSC_0042.NEF`), empty when unknown.
        public var cameraFile: String

        /// Creates values.
        public init(
            date: Date, sequence: Int, frameNumber: Int, camera: String, serial: String, bracket: Double?,
            cameraFile: String = ""
        ) {
            self.date = date
            self.sequence = sequence
            self.frameNumber = frameNumber
            self.camera = camera
            self.serial = serial
            self.bracket = bracket
            self.cameraFile = cameraFile
        }
    }

    /// The stem for `values`, sanitised part by part (`a/b` names subfolders of the output folder); a bracket step is
    /// appended when the template has no `{bracket}`.
    public func stem(_ values: Values) -> String {
        // Local time with localtime_r (TZ, else /etc/localtime, as Foundation's TimeZone.current), without loading
        // ICU's calendar for it.
        var time = time_t(values.date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        _ = localtime_r(&time, &local)
        let bracket = values.bracket.map(Self.bracketLabel) ?? ""
        let (file, ext) = Self.splitName(values.cameraFile)
        // Every substituted value is sanitised strictly (it may come from the camera); the template's own text
        // only loses what is unsafe.
        let fields: [String: String] = [
            "date":
                (local.tm_year + 1900).zeroPadded(to: 4) + (local.tm_mon + 1).zeroPadded(to: 2)
                + local.tm_mday.zeroPadded(to: 2),
            "time": local.tm_hour.zeroPadded(to: 2) + local.tm_min.zeroPadded(to: 2) + local.tm_sec.zeroPadded(to: 2),
            "seq": values.sequence.zeroPadded(to: 4), "n": String(values.frameNumber),
            "camera": Self.sanitize(values.camera), "serial": Self.sanitize(values.serial),
            "file": file.isEmpty ? "" : Self.sanitize(file), "ext": ext.isEmpty ? "" : Self.sanitize(ext),
            "bracket": bracket,
        ]
        // rawcap names the extension by what it writes: gphoto2's `%f.%C` ends without the camera's.
        var effective = Substring(template)
        for ending in [".%C", ".{ext}"] where effective.hasSuffix(ending) && effective.count > ending.count {
            effective = effective.dropLast(ending.count)
        }
        var parts: [String] = []
        for part in effective.split(separator: "/") {
            var text = ""
            var rest = Substring(part)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                text += Self.expandBare(String(rest[..<open]), local: &local, fields: fields)
                let name = String(rest[rest.index(after: open)..<close])
                if name.hasPrefix("date:") {
                    text += Self.sanitize(Self.strftime(String(name.dropFirst(5)), &local), lenient: true)
                } else {
                    text += fields[name] ?? ""
                }
                rest = rest[rest.index(after: close)...]
            }
            text += Self.expandBare(String(rest), local: &local, fields: fields)
            parts.append(text)
        }
        if !bracket.isEmpty, !template.contains("{bracket}"), let last = parts.indices.last {
            parts[last] += "_" + bracket
        }
        return parts.map { Self.sanitize($0, lenient: true) }.joined(separator: "/")
    }

    /// The last part of a stem: the file's name inside its subfolder.
    public static func leaf(_ stem: String) -> String {
        stem.split(separator: "/").last.map(String.init) ?? stem
    }

    /// Template text outside braces with its `%` codes expanded (strftime's, gphoto2's `%n`, `%f`, `%C`).
    static func expandBare(_ text: String, local: inout tm, fields: [String: String]) -> String {
        guard text.contains("%") else { return text }
        var result = ""
        var characters = text.makeIterator()
        while let character = characters.next() {
            guard character == "%", let letter = characters.next() else {
                result.append(character)
                continue
            }
            switch letter {
            case "%": result += "%"
            case "n": result += fields["n"] ?? ""
            case "f": result += fields["file"] ?? ""
            case "C": result += fields["ext"] ?? ""
            default: result += sanitize(strftime("%" + String(letter), &local), lenient: true)
            }
        }
        return result
    }

    /// `format` by strftime for `local` ("" when it makes nothing or too much).
    static func strftime(_ format: String, _ local: inout tm) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = Glibc.strftime(&buffer, buffer.count, format, &local)
        guard count > 0 else { return "" }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `DSC_0042.NEF` as (`DSC_0042`, `NEF`).
    static func splitName(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// `ev-2`, `ev+0.7`, `ev0`.
    public static func bracketLabel(_ ev: Double) -> String {
        let rounded = (ev * 10).rounded() / 10
        if rounded == 0 { return "ev0" }
        let magnitude = rounded.magnitude
        let text = magnitude == magnitude.rounded() ? String(Int(magnitude)) : String(cFormat: "%.1f", magnitude)
        return "ev" + (rounded < 0 ? "-" : "+") + text
    }

    /// A file name part made only of letters, digits and `._+-` (with `lenient`, any character that is safe in a
    /// file name: letters of every script, spaces, punctuation), never starting with a dot or a dash, never empty,
    /// at most 200 bytes: what a camera (or a template) gives can never leave the folder, hide the file or look like
    /// an option.
    public static func sanitize(_ text: String, lenient: Bool = false) -> String {
        var result = ""
        var lastWasReplacement = false
        for scalar in text.unicodeScalars {
            let allowed: Bool
            if lenient {
                // Unsafe: control characters (C0, DEL, C1), the path separator, and backslash (a separator elsewhere).
                allowed =
                    !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) && scalar != "/" && scalar != "\\"
                    && scalar.properties.generalCategory != .format
            } else {
                allowed =
                    (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
                    || (scalar >= "0" && scalar <= "9") || scalar == "." || scalar == "_" || scalar == "+"
                    || scalar == "-"
            }
            if allowed {
                result.unicodeScalars.append(scalar)
                lastWasReplacement = false
            } else if !lastWasReplacement {
                result += "-"
                lastWasReplacement = true
            }
        }
        while let first = result.first, first == "." || first == "-" || first == " " { result.removeFirst() }
        while result.contains("..") { result = result.replacing("..", with: ".") }
        while let last = result.last, last == "-" || last == "." || last == " " { result.removeLast() }
        // NAME_MAX is 255 bytes; leave room for a suffix and an extension.
        while result.utf8.count > 200 { result.removeLast() }
        return result.isEmpty ? "unnamed" : result
    }
}
