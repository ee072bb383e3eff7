import DNG
import Dispatch
import JPEG
import RawImage
import SceneSynthesis

/// Photographs the synthetic scene for one shot and encodes the result, away from the camera's request path.
///
/// Rendering a 24-megapixel frame takes a good part of a second, so it runs on a queue of its own rather than on
/// Swift's cooperative pool (two threads on the build machines), which keeps the camera answering operations while
/// a shot develops. Only the encoded bytes come back: the frame is dropped once encoded.
enum ShotRenderer {
    /// Everything a shot needs, fixed when InitiateCapture is answered.
    struct Plan: Sendable {
        var width: Int
        var height: Int
        var cfa: CFAPattern
        var bitsPerSample: Int
        var exposure: ExposureSettings
        var seed: UInt64
        var captureTime: CaptureTime?
        var identity: CaptureMetadata
        var illuminant: SceneIlluminant
        var sensor: SensorModel
        /// The light the white balance balances for; `nil` for the scene's own light.
        var whiteBalance: SceneIlluminant?
        var quality: ImageQuality
        /// The container the raw file is written in.
        var rawFileFormat: RawFileFormat = .tiffEP
        var frameHandler: (@Sendable (RawFrame) -> Void)?
        /// The lens's focus on the tilted chart, once a drive has moved it (`EmulatedCamera+LiveView.swift`).
        var lens: SceneLens?
    }

    /// A developed shot.
    struct Result: Sendable {
        /// The TIFF/EP file, when the quality includes raw.
        var raw: [UInt8]?
        /// The JPEG file and its size, when the quality includes JPEG.
        var jpeg: EncodedImage?
        /// A small JPEG for GetThumb.
        var thumbnail: EncodedImage?
    }

    /// A JPEG with its pixel size.
    struct EncodedImage: Sendable {
        var bytes: [UInt8]
        var width: Int
        var height: Int
    }

    private static let queue = DispatchQueue(label: "rawcap.emulator.render", qos: .utility)
    /// JPEG quality of the camera's JPEGs ("fine").
    static let jpegQuality = 92
    /// Long side of the thumbnails GetThumb returns: 160 pixels, DCF's thumbnail size.
    static let thumbnailLongSide = 160
    /// JPEG quality of thumbnails.
    static let thumbnailQuality = 80

    /// Develops `plan` on the render queue.
    static func develop(_ plan: Plan) async -> Swift.Result<Result, EmulatorError> {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Swift.Result { () throws(EmulatorError) in try developNow(plan) }) }
        }
    }

    /// Renders the raw frame of `plan`.
    static func renderFrame(_ plan: Plan) throws(RawImageError) -> RawFrame {
        var scene = try SyntheticScene(
            width: plan.width, height: plan.height, cfa: plan.cfa, bitsPerSample: plan.bitsPerSample)
        scene.illuminant = plan.illuminant
        scene.sensor = plan.sensor
        scene.identity = plan.identity
        scene.lens = plan.lens
        var frame = try scene.render(exposure: plan.exposure, seed: plan.seed, captureTime: plan.captureTime)
        if let target = plan.whiteBalance {
            // A fixed white balance records that light's neutral; the pixels are what they are either way.
            var balanced = scene
            balanced.illuminant = target
            frame.color.asShotNeutral = try balanced.colorCalibration().asShotNeutral
        }
        return frame
    }

    static func developNow(_ plan: Plan) throws(EmulatorError) -> Result {
        let frame: RawFrame
        do {
            frame = try renderFrame(plan)
        } catch {
            throw EmulatorError(.captureFailed, "rendering the shot: \(error)")
        }
        plan.frameHandler?(frame)
        var result = Result()
        do {
            var small: RGBImage8
            if plan.quality.includesJPEG {
                // The camera's JPEG: the default crop at full size, demosaiced at full quality.
                let image = try frame.renderRGB8(RenderOptions(method: .quality))
                let jpeg = try JPEGImage(encoding: image, quality: jpegQuality)
                result.jpeg = EncodedImage(bytes: jpeg.bytes, width: jpeg.width, height: jpeg.height)
                small = try image.downscaled(toLongSide: thumbnailLongSide)
            } else {
                small = try frame.renderRGB8(RenderOptions(longSide: thumbnailLongSide))
            }
            let thumbnail = try JPEGImage(encoding: small, quality: thumbnailQuality)
            result.thumbnail = EncodedImage(bytes: thumbnail.bytes, width: thumbnail.width, height: thumbnail.height)
        } catch {
            throw EmulatorError(.captureFailed, "rendering the shot's JPEG: \(error)")
        }
        if plan.quality.includesRaw {
            // After the JPEGs: formats with an embedded preview carry the shot's thumbnail.
            result.raw = try plan.rawFileFormat.encode(
                frame, thumbnail: result.thumbnail?.bytes, software: EmulatedCamera.software)
        }
        return result
    }
}
