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
