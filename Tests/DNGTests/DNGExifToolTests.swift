import DNG
import Foundation
import RawDecoders
import RawImage
import TestSupport
import Testing

/// exiftool (Debian's libimage-exiftool-perl) as an independent reader of the metadata: every entry of the plan
/// must come back from the file with its value, and `exiftool -validate` must find nothing to warn about.
@Suite struct DNGExifToolTests {
    /// A CFA file with every optional tag, a LinearRaw file with a table and a tone curve, and a lossless file.
    static func files(in folder: TemporaryDirectory) throws -> [(name: String, plan: DNGPlan, path: String)] {
        var result: [(String, DNGPlan, String)] = []
        let frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: 14, cfa: .grbg, orientation: .rotate270)
        let previews = try TestImages.previews(of: frame)
        for options in DNGExifToolTests.optionSets {
            let plan = try DNGEncoder(options: options).plan(for: frame, previews: previews)
            let path = folder.file("cfa-\(options.compression).dng").path
            try DNGWriter.write(plan, to: path)
            result.append(("CFA \(options.compression)", plan, path))
        }
        let linear = try LinearTestImages.image(width: 40, height: 30)
        let plan = try DNGEncoder().plan(
            for: linear, previews: DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: linear), preview: nil))
        let path = folder.file("linear.dng").path
        try DNGWriter.write(plan, to: path)
        result.append(("LinearRaw", plan, path))
        return result
    }

    static let optionSets = [DNGOptions(software: "rawcap test"), DNGOptions(compression: .lossless)]

    @Test func everyPlannedTagReadsBackWithItsValue() async throws {
        let exiftool = try ExternalTool.require("exiftool")
        let folder = try TemporaryDirectory("dng-exiftool")
        for (name, plan, path) in try Self.files(in: folder) {
            let result = try await Subprocess.runDetached(exiftool, ["-j", "-D", "-n", "-a", "-G1", path])
            #expect(result.status == 0, "\(name): \(result.errorOutput)")
            let tags = try ExifToolDump(json: result.stdout)
            var directories: [(group: String, entries: [DNGEntry])] = [("IFD0", plan.root.entries)]
            for (index, child) in plan.root.subDirectories.enumerated() {
                directories.append((index == 0 ? "SubIFD" : "SubIFD\(index)", child.entries))
            }
            if let exif = plan.root.exif { directories.append(("ExifIFD", exif.entries)) }
            var checked = 0
            for (group, entries) in directories {
                for entry in entries {
                    var found = tags.value(group: group, id: Int(entry.tag.rawValue))
                    #expect(found != nil, "\(name): exiftool finds no \(group) \(entry.tag)")
                    guard let value = found?.value, let key = found?.key else { continue }
                    // Long arrays print as "(Binary data …)" unless asked for one by one with -b.
                    if "\(value)".hasPrefix("(Binary data") {
                        let full = try await Subprocess.runDetached(exiftool, ["-b", "-n", "-\(key)", path])
                        found = (key, full.output)
                    }
                    guard let found else { continue }
                    #expect(
                        ExifToolDump.matches(found.value, entry.value),
                        "\(name): \(group) \(entry.tag) is \(found.value), planned \(entry.value)")
                    checked += 1
                }
            }
            #expect(checked > 40, "\(name): only \(checked) tags compared")
        }
    }

    @Test func validateReportsNoWarnings() async throws {
        let exiftool = try ExternalTool.require("exiftool")
        let folder = try TemporaryDirectory("dng-validate")
        for (name, _, path) in try Self.files(in: folder) {
            let result = try await Subprocess.runDetached(
                exiftool, ["-validate", "-warning", "-error", "-a", "-G1", path])
            #expect(result.status == 0, "\(name): \(result.errorOutput)")
            let lines = result.output.split(separator: "\n").map { String($0) }
            #expect(lines.contains { $0.contains("Validate") && $0.hasSuffix(": OK") }, "\(name): \(lines)")
            #expect(!lines.contains { $0.contains("Warning") || $0.contains("Error") }, "\(name): \(lines)")
        }
    }
}

/// A focus bracket frame's position goes into the XMP packet (tag 700) as `rawcap:FocusStep`: exiftool reads it
/// there, `exiftool -validate` finds nothing to warn about, and rawcap's own reader gets it back.
@Suite struct DNGXMPTests {
    @Test(arguments: [-30, 0, 1000])
    func theFocusStepReadsBack(step: Int) async throws {
        let exiftool = try ExternalTool.require("exiftool")
        let folder = try TemporaryDirectory("dng-xmp")
        var frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: 14, cfa: .rggb)
        frame.metadata.focusStep = step
        let path = folder.file("focus.dng").path
        try DNGWriter.write(frame, previews: try TestImages.previews(of: frame), to: path)
        let read = try await Subprocess.runDetached(exiftool, ["-s3", "-XMP-rawcap:FocusStep", path])
        #expect(read.status == 0 && read.output == "\(step)\n", "\(read.output) \(read.errorOutput)")
        let validate = try await Subprocess.runDetached(exiftool, ["-validate", "-warning", "-error", "-a", path])
        #expect(validate.output.contains(": OK") && !validate.output.contains("Warning"), "\(validate.output)")
        #expect(try RawDecoder.decode(contentsOf: path).frame?.metadata.focusStep == step)
    }

    @Test func noFocusStepMeansNoXMP() throws {
        let frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: 14, cfa: .rggb)
        let plan = try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame))
        #expect(!plan.root.entries.contains { $0.tag == .xmp })
    }
}

/// exiftool's `-j -D -n -G1` output: `"Group:Name": {"id": 50717, "val": 16383}`.
struct ExifToolDump {
    private var values: [String: (key: String, value: Any)] = [:]

    init(json: Data) throws {
        guard let array = try JSONSerialization.jsonObject(with: json) as? [[String: Any]], let object = array.first
        else { throw TestFailure("exiftool printed no JSON object") }
        for (key, item) in object {
            guard let item = item as? [String: Any], let id = item["id"] as? Int, let value = item["val"] else {
                continue
            }
            let group = key.split(separator: ":").first.map(String.init) ?? ""
            values["\(group):\(id)"] = (key, value)
        }
    }

    /// The value of the tag `id` in `group`, with exiftool's `Group:Name` key.
    func value(group: String, id: Int) -> (key: String, value: Any)? { values["\(group):\(id)"] }

    /// Whether exiftool's value (numbers, space-separated lists, hex for 16-byte digests) is the planned value.
    static func matches(_ found: Any, _ planned: DNGValue) -> Bool {
        let text = (found as? String) ?? "\(found)"
        let tokens = text.split(separator: " ").map(String.init)
        func numbersMatch(_ expected: [Double], tolerance: Double) -> Bool {
            let numbers = tokens.compactMap(Double.init)
            return numbers.count == expected.count
                && zip(numbers, expected).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
        }
        switch planned {
        case .ascii(let string):
            return text == string || Double(text).map { $0 == Double(string) } == true
        case .bytes(let bytes), .undefined(let bytes):
            if bytes.count == 16 && tokens.count == 1 {
                return text.lowercased() == bytes.map { String(format: "%02x", $0) }.joined()
            }
            if tokens.count == 1 && bytes.allSatisfy({ (0x30...0x39).contains($0) }) {
                return text == String(decoding: bytes, as: UTF8.self)
            }
            return numbersMatch(bytes.map(Double.init), tolerance: 0)
        case .shorts(let values): return numbersMatch(values.map(Double.init), tolerance: 0)
        case .longs(let values): return numbersMatch(values.map(Double.init), tolerance: 0)
        // Rationals are written as exact fractions; exiftool prints up to 10 significant digits.
        case .rationals(let values), .srationals(let values): return numbersMatch(values, tolerance: 1e-9)
        case .floats(let values): return numbersMatch(values.map(Double.init), tolerance: 1e-6)
        }
    }
}
