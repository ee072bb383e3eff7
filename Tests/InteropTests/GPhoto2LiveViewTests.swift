import DNG
import Foundation
import JPEG
import TestSupport
import Testing

/// gphoto2 (libgphoto2's `camera_capture_preview`) reading each maker's emulated live view on the fake USB bus: an
/// independent client of the wrappers, the start sequences and the "not yet" answers of
/// `EmulatedCamera+LiveView.swift`.
@Suite(.serialized, .timeLimit(.minutes(3))) struct GPhoto2LiveViewTests {
    @Test(arguments: ["canon", "nikon", "sony", "fuji"])
    func capturePreviewSavesTheFrameAsAJPEG(model: String) async throws {
        let folder = try TemporaryDirectory("gphoto2-preview-\(model)")
        let result = try await GPhoto2VendorSimUSBTests.runScript(
            #""$2" --capture-preview --filename preview.jpg"#, model: model, in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        // gphoto2 names a preview thumb_FILENAME.
        let bytes = [UInt8](try Data(contentsOf: folder.file("thumb_preview.jpg")))
        let image = try JPEGImage(validating: bytes).decoded()
        #expect(image.width == 640 && image.height == 424)
    }

    @Test(arguments: ["canon", "nikon", "sony"])
    func captureMovieStreamsFramesForThreeSeconds(model: String) async throws {
        let folder = try TemporaryDirectory("gphoto2-movie-\(model)")
        let result = try await GPhoto2VendorSimUSBTests.runScript(
            #""$2" --capture-movie=3s --stdout > movie.mjpeg"#, model: model, in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        let images = try LiveViewReachTests.split([UInt8](try Data(contentsOf: folder.file("movie.mjpeg"))))
        // At 30 frames a second the body could send 90; a loaded machine (the test suite runs beside) takes many.
        #expect(images.count >= 5, "\(result.errorOutput)")
        for image in images.prefix(5) {
            #expect(try JPEGImage(validating: image).decoded().width == 640)
        }
    }

    /// A Fujifilm body on Wi-Fi from `rawcap sim serve --model fuji`: libgphoto2's `fujiptpip.c` connects (asking
    /// twice, as the body refuses the first request), runs its Wi-Fi start (InitSequence, AppVersion,
    /// InitiateOpenCapture), connects the event and live-view ports, and takes the preview from the live-view port
    /// (`ptp_fujiptpip_jpeg`), not from an operation.
    @Test func capturePreviewOverFujifilmWiFiFromSimServe() async throws {
        let server = try await SimServeProcess.start(["--model", "fuji", "--sensor", "640x480"])
        let folder = try TemporaryDirectory("gphoto2-preview-fujiwifi")
        let result = try await GPhoto2.runFujifilmWiFi(
            port: server.port, ["--capture-preview", "--filename", "preview.jpg", "--debug", "--debug-logfile=gp.log"],
            in: folder.url)
        let stopped = await server.stop()
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        let bytes = [UInt8](try Data(contentsOf: folder.file("thumb_preview.jpg")))
        let image = try JPEGImage(validating: bytes).decoded()
        #expect(image.width == 640 && image.height == 424)
        let log = try String(contentsOf: folder.file("gp.log"), encoding: .utf8)
        // Connected after the body's first refusal, and the frame came from the live-view port: no operation asked
        // for the USB live view object.
        #expect(log.contains("bad type returned 5") && log.contains("fujiptpip connected!"))
        #expect(!log.contains("could not connect"), "the event or live-view port did not connect")
        #expect(!log.contains("(0x80000001)"), "the preview was asked for as object 0x80000001")
    }

    /// `--capture-movie` over Fujifilm's Wi-Fi variant: each frame from the live-view port.
    @Test func captureMovieOverFujifilmWiFiFromSimServe() async throws {
        let server = try await SimServeProcess.start(["--model", "fuji", "--sensor", "640x480"])
        let folder = try TemporaryDirectory("gphoto2-movie-fujiwifi")
        let result = try await GPhoto2.runFujifilmWiFi(
            port: server.port, ["--capture-movie=3s"], in: folder.url)
        let stopped = await server.stop()
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        // gphoto2 writes the frames to movie.mjpg.
        let images = try LiveViewReachTests.split([UInt8](try Data(contentsOf: folder.file("movie.mjpg"))))
        #expect(images.count >= 5, "\(result.errorOutput)")
        for image in images.prefix(5) {
            #expect(try JPEGImage(validating: image).decoded().width == 640)
        }
    }

    /// Over PTP/IP from `rawcap sim serve`: libgphoto2 takes the maker's path by DeviceInfo's vendor extension.
    @Test(arguments: ["canon", "nikon", "sony"])
    func capturePreviewOverPTPIPFromSimServe(model: String) async throws {
        let server = try await SimServeProcess.start(["--model", model, "--sensor", "640x480"])
        let folder = try TemporaryDirectory("gphoto2-preview-ptpip-\(model)")
        let result = try await GPhoto2.run(
            port: server.port, ["--capture-preview", "--filename", "preview.jpg"], in: folder.url)
        let stopped = await server.stop()
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        let bytes = [UInt8](try Data(contentsOf: folder.file("thumb_preview.jpg")))
        let image = try JPEGImage(validating: bytes).decoded()
        #expect(image.width == 640 && image.height == 424)
    }
}
