import DNG
import Foundation
import JPEG
import TestSupport
import Testing

/// `rawcap live --mjpeg -` from each personality as a user reaches it: over PTP/IP from `rawcap sim serve`, and
/// through libusb from `rawcap sim usb`. The stream on standard output must split into valid JPEGs, every one of
/// which libjpeg-turbo decodes.
@Suite(.serialized) struct LiveViewReachTests {
    /// The JPEGs of an MJPEG stream, split by walking each file's markers (the entropy-coded data ends at the first
    /// marker that is neither a stuffed FF 00 nor a restart marker), so a stray FF D9 in a segment cannot fool it.
    static func split(_ stream: [UInt8]) throws -> [[UInt8]] {
        var images: [[UInt8]] = []
        var index = 0
        while index < stream.count {
            guard index + 1 < stream.count, stream[index] == 0xFF, stream[index + 1] == 0xD8 else {
                throw SplitError(offset: index, what: "no SOI")
            }
            let start = index
            index += 2
            scan: while true {
                guard index + 3 < stream.count, stream[index] == 0xFF else { throw SplitError(offset: index, what: "no marker") }
                let marker = stream[index + 1]
                let length = Int(stream[index + 2]) << 8 | Int(stream[index + 3])
                index += 2 + length
                if marker == 0xDA {
                    while index + 1 < stream.count {
                        if stream[index] == 0xFF, stream[index + 1] != 0, !(0xD0...0xD7).contains(stream[index + 1]) {
                            break
                        }
                        index += 1
                    }
                    guard index + 1 < stream.count, stream[index + 1] == 0xD9 else {
                        throw SplitError(offset: index, what: "no EOI after the scan")
                    }
                    index += 2
                    break scan
                }
            }
            images.append(Array(stream[start..<index]))
        }
        return images
    }

    struct SplitError: Error { var offset: Int; var what: String }

    static func checkStream(_ path: String, frames: Int, stderr: String) throws {
        let stream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let images = try split(stream)
        #expect(images.count == frames, "\(stderr)")
        for image in images {
            let decoded = try JPEGImage(validating: image).decoded()
            #expect(decoded.width == 640 && decoded.height == 424)
        }
        #expect(Set(images.map { $0.hashValue }).count > frames / 2, "frames differ")
        #expect(stderr.contains("live: \(frames) frames in"), "\(stderr)")
    }

    static let frameCount = 300

    /// Over Wi-Fi from `sim serve`; a Fujifilm body's frames come from its live-view port (55742 above the command
    /// port 55740), the others' from their operations.
    @Test(arguments: ["canon", "nikon", "sony", "fuji"])
    func ptpipFromSimServe(model: String) async throws {
        let server = try await SimServeProcess.start(["--model", model, "--sensor", "320x240"])
        let folder = try TemporaryDirectory("live-ptpip-\(model)")
        let out = folder.file("stream.mjpeg").path
        let result = try await Subprocess.runDetached(
            "/bin/sh",
            [
                "-c", "\"$1\" live --camera \"$2\" --mjpeg - --frames \(Self.frameCount) > \"$3\"", "sh",
                try RawcapBinary.path(), "\(model == "fuji" ? "fujiptpip" : "ptpip"):127.0.0.1:\(server.port)", out,
            ])
        let stopped = await server.stop()
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        try Self.checkStream(out, frames: Self.frameCount, stderr: result.errorOutput)
    }

    @Test(arguments: ["canon", "nikon", "sony", "fuji"])
    func fakeUSBFromSimUSB(model: String) async throws {
        try Umockdev.require()
        let folder = try TemporaryDirectory("live-usb-\(model)")
        let out = folder.file("stream.mjpeg").path
        let rawcap = try RawcapBinary.path()
        let result = try await Subprocess.runDetached(
            rawcap,
            [
                "sim", "usb", "--model", model, "--sensor", "320x240", "--", "/bin/sh", "-c",
                "\"$1\" live --camera usb --mjpeg - --frames \(Self.frameCount) > \"$2\"", "sh", rawcap, out,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        try Self.checkStream(out, frames: Self.frameCount, stderr: result.errorOutput)
    }

    @Test func aStandardCameraHasNoLiveViewAndSaysWhy() async throws {
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["live", "--camera", "sim", "--sim-sensor", "96x64", "--frames", "1"])
        #expect(result.status == 69, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("PTP (ISO 15740) has none"), "\(result.errorOutput)")
        #expect(result.errorOutput.split(separator: "\n").count == 1, "\(result.errorOutput)")
    }

    @Test func jsonLinesAndAFile() async throws {
        let folder = try TemporaryDirectory("live-json")
        let out = folder.file("stream.mjpeg").path
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            ["live", "--camera", "sim", "--sim-model", "nikon", "--sim-sensor", "320x240", "--frames", "5", "--json", "--mjpeg", out])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 6)
        #expect(lines.dropLast().allSatisfy { $0?["event"] as? String == "frame" && ($0?["size"] as? Int ?? 0) > 1000 })
        #expect(lines.last??["event"] as? String == "summary")
        #expect(lines.last??["frames"] as? Int == 5)
        try Self.checkStream(out, frames: 5, stderr: result.errorOutput)
    }

    @Test func sigtermEndsLiveViewWith143() async throws {
        let folder = try TemporaryDirectory("live-sigterm")
        let out = folder.file("stream.mjpeg").path
        let script = """
            "$1" live --camera sim --sim-model canon --sim-sensor 320x240 --mjpeg "$2" 2> "$2.err" &
            pid=$!
            sleep 3
            kill -TERM $pid
            wait $pid
            echo "status=$?"
            """
        let result = try await Subprocess.runDetached("/bin/sh", ["-c", script, "sh", try RawcapBinary.path(), out])
        let errors = (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        #expect(result.output.contains("status=143"), "\(result.output) \(errors)")
        #expect(errors.contains("terminated (SIGTERM); live view ended after"), "\(errors)")
        let images = try Self.split([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(images.count > 10, "frames were written before the signal")
    }

    /// `--http`: the page, `/status`, the MJPEG stream and the shutter, driven by curl (a browser's requests); the
    /// shutter's shot is a DNG in `-o`, and SIGUSR1 takes another.
    @Test func httpServesThePageTheStreamAndTheShutter() async throws {
        let curl = try ExternalTool.require("curl")
        let folder = try TemporaryDirectory("live-http")
        let shots = folder.file("shots").path
        let script = """
            "$1" live --camera sim --sim-model canon --sim-sensor 640x480 --http 127.0.0.1:0 -o "$2" 2> "$2.err" &
            pid=$!
            for i in $(seq 1 100); do grep -q "serving http" "$2.err" 2>/dev/null && break; sleep 0.1; done
            port=$(grep -o '127.0.0.1:[0-9]*' "$2.err" | head -1 | cut -d: -f2)
            "$3" -s "http://127.0.0.1:$port/" | grep -c 'src="/stream"'
            sleep 1
            "$3" -s "http://127.0.0.1:$port/status"; echo
            timeout 2 "$3" -s "http://127.0.0.1:$port/stream" -o "$2.stream"
            "$3" -s -X POST "http://127.0.0.1:$port/shoot"; echo
            kill -USR1 $pid
            sleep 4
            kill -TERM $pid
            wait $pid
            echo "status=$?"
            """
        let result = try await Subprocess.runDetached(
            "/bin/sh", ["-c", script, "sh", try RawcapBinary.path(), shots, curl])
        let errors = (try? String(contentsOfFile: shots + ".err", encoding: .utf8)) ?? ""
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "1", "the page shows the stream: \(result.output) \(errors)")
        let status = try #require(lines.dropFirst().first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(status["camera"] as? String == "Canon EOS 5D Mark IV")
        #expect((status["fps"] as? Double ?? 0) > 1)
        #expect((status["exposure"] as? String ?? "").contains("ISO"), "\(status)")
        let shot = try #require(lines.dropFirst(2).first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let files = try #require(shot["files"] as? [String], "\(result.output) \(errors)")
        #expect(files.count == 1 && files[0].hasSuffix(".dng"))
        #expect(result.output.contains("status=143"), "\(result.output) \(errors)")
        let dngs = try FileManager.default.contentsOfDirectory(atPath: shots).filter { $0.hasSuffix(".dng") }
        #expect(dngs.count == 2, "the shutter and SIGUSR1 each saved one: \(dngs) \(errors)")
        let stream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shots + ".stream")))
        let text = String(decoding: stream.prefix(200), as: UTF8.self)
        #expect(text.hasPrefix("--rawcapframe\r\nContent-Type: image/jpeg\r\nContent-Length: "), "\(text)")
        #expect(stream.count > 50_000, "frames streamed for two seconds")
    }

    /// The page in a real browser (headless Chromium through Selenium, `Scripts/live_page.py`): the stream shows
    /// frames that change, the page shows the rate, the camera and its exposure, the Shoot button saves a DNG into
    /// `-o` and says so, and the stream goes on after the shot.
    @Test func thePageWorksInABrowser() async throws {
        let python = try ExternalTool.requirePython(modules: ["selenium"])
        let chromium = try ExternalTool.require("chromium")
        let chromedriver = try ExternalTool.require("chromedriver")
        let folder = try TemporaryDirectory("live-browser")
        let shots = folder.file("shots").path
        let page = ExternalTool.packageRoot.appendingPathComponent("Tests/InteropTests/Scripts/live_page.py").path
        let script = """
            "$1" live --camera sim --sim-model canon --sim-sensor 640x480 --http 127.0.0.1:0 -o "$2" 2> "$2.err" &
            pid=$!
            for i in $(seq 1 100); do grep -q "serving http" "$2.err" 2>/dev/null && break; sleep 0.1; done
            port=$(grep -o '127.0.0.1:[0-9]*' "$2.err" | head -1 | cut -d: -f2)
            "$3" "$4" "http://127.0.0.1:$port/" "$5" "$6"
            echo "page=$?"
            kill -TERM $pid
            wait $pid
            """
        let result = try await Subprocess.runDetached(
            "/bin/sh", ["-c", script, "sh", try RawcapBinary.path(), shots, python, page, chromium, chromedriver])
        let errors = (try? String(contentsOfFile: shots + ".err", encoding: .utf8)) ?? ""
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.last == "page=0", "\(result.output) \(result.errorOutput) \(errors)")
        let seen = try #require(
            lines.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
            "\(result.output) \(result.errorOutput)")
        #expect(seen["frameSize"] as? [Int] == [640, 424], "the browser decoded the stream's frames: \(seen)")
        #expect((seen["fps"] as? Double ?? 0) > 1, "\(seen)")
        #expect(seen["camera"] as? String == "Canon EOS 5D Mark IV")
        #expect((seen["exposure"] as? String ?? "").contains("ISO"), "\(seen)")
        let dngs = try FileManager.default.contentsOfDirectory(atPath: shots).filter { $0.hasSuffix(".dng") }
        #expect(dngs.count == 1, "the Shoot button saved one DNG: \(dngs) \(errors)")
        #expect(seen["shot"] as? String == "saved " + shots + "/" + (dngs.first ?? "?"), "\(seen)")
        #expect((seen["framesAfterShot"] as? Int ?? 0) > (seen["frames"] as? Int ?? .max), "\(seen)")
    }

    /// A body that answers DeviceBusy to frame after frame (a Nikon's GetLiveViewImage, a Canon's GetViewFinderData)
    /// keeps the stream going: the frames come when it answers again.
    @Test(arguments: [("nikon", "0x9203"), ("canon", "0x9153")])
    func aBusyCameraDoesNotEndTheStream(model: String, operation: String) async throws {
        let folder = try TemporaryDirectory("live-busy-\(model)")
        let out = folder.file("stream.mjpeg").path
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "live", "--camera", "sim", "--sim-model", model, "--sim-sensor", "320x240", "--sim-fault",
                "busy=40:\(operation)", "--frames", "10", "--mjpeg", out,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        try Self.checkStream(out, frames: 10, stderr: result.errorOutput)
    }
}
