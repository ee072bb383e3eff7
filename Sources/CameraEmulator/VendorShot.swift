import DNG
import Dispatch
import JPEG
import PTP
import RawImage

/// Develops a shot for a vendor personality: the same synthetic frame ``ShotRenderer`` renders, with the raw file
/// written in the maker's format (NEF, CR2) by the personality's encoder instead of TIFF/EP.
///
/// Like ``ShotRenderer``, it runs on a queue of its own so the camera keeps answering polls (DeviceReady,
/// GetEvent) while a frame renders.
enum VendorShot {
    /// A developed shot.
    struct Result: Sendable {
        /// The raw file in the maker's format, when the quality includes raw.
        var raw: [UInt8]?
        /// The pixel size of the raw file's image and its depth.
        var rawWidth = 0, rawHeight = 0, rawBitDepth = 0
        /// The JPEG, when the quality includes JPEG.
        var jpeg: ShotRenderer.EncodedImage?
        /// A small JPEG for GetThumb.
        var thumbnail: ShotRenderer.EncodedImage?
    }

    /// Encodes a frame in the maker's raw format.
    typealias RawEncoder = @Sendable (RawFrame) throws(EmulatorError) -> [UInt8]

    private static let queue = DispatchQueue(label: "rawcap.emulator.vendor-render", qos: .utility)

    /// Develops `plan`, writing the raw file with `encode`.
    static func develop(_ plan: ShotRenderer.Plan, encode: @escaping RawEncoder) async
        -> Swift.Result<
            Result, EmulatorError
        >
    {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Swift.Result { () throws(EmulatorError) in try developNow(plan, encode: encode) })
            }
        }
    }

    private static func developNow(_ plan: ShotRenderer.Plan, encode: RawEncoder) throws(EmulatorError) -> Result {
        let frame: RawFrame
        do {
            frame = try ShotRenderer.renderFrame(plan)
        } catch {
            throw EmulatorError(.captureFailed, "rendering the shot: \(error)")
        }
        plan.frameHandler?(frame)
        var result = Result()
        if plan.quality.includesRaw {
            result.raw = try encode(frame)
            result.rawWidth = frame.activeArea.width & ~1
            result.rawHeight = frame.activeArea.height & ~1
            result.rawBitDepth = frame.bitsPerSample
        }
        do {
            var small: RGBImage8
            if plan.quality.includesJPEG {
                let image = try frame.renderRGB8(RenderOptions(method: .quality))
                let jpeg = try JPEGImage(encoding: image, quality: ShotRenderer.jpegQuality)
                result.jpeg = ShotRenderer.EncodedImage(bytes: jpeg.bytes, width: jpeg.width, height: jpeg.height)
                small = try image.downscaled(toLongSide: ShotRenderer.thumbnailLongSide)
            } else {
                small = try frame.renderRGB8(RenderOptions(longSide: ShotRenderer.thumbnailLongSide))
            }
            let thumbnail = try JPEGImage(encoding: small, quality: ShotRenderer.thumbnailQuality)
            result.thumbnail = ShotRenderer.EncodedImage(
                bytes: thumbnail.bytes, width: thumbnail.width, height: thumbnail.height)
        } catch {
            throw EmulatorError(.captureFailed, "rendering the shot's JPEG: \(error)")
        }
        return result
    }
}

extension EmulatedCamera {
    /// The plan of a shot at the current settings with `quality`, as InitiateCapture makes it; `nil` when the
    /// exposure settings do not describe a shot.
    func vendorShotPlan(quality: ImageQuality) -> ShotRenderer.Plan? {
        guard let exposure = try? currentExposure() else { return nil }
        // The vendor writers (NEF, CR2, ARW, RAF) make the file from the rendered frame; the renderer's own format
        // is not used.
        return makeShotPlan(quality: quality, exposure: exposure, time: clock.now(), rawFileFormat: .tiffEP)
    }

    /// The next file stem (`DSC_0001`): DCF numbers 0001…9999, then 0001 again.
    func nextVendorFileStem() -> String {
        fileNumber = fileNumber >= 9999 ? 1 : fileNumber + 1
        return model.filePrefix + String(repeating: "0", count: 4 - String(fileNumber).count) + String(fileNumber)
    }

    /// A developed vendor shot's files as the camera stores them, each with its ObjectInfo: the raw file (the
    /// maker's format code and extension, the readout's size and depth), then the JPEG.
    static func vendorShotObjects(
        _ shot: VendorShot.Result, stem: String,
        raw: (format: ObjectFormatCode, fileExtension: String, width: Int, height: Int, depth: Int),
        storage: StorageID, parent: ObjectHandle, time: PTPDateTime
    ) -> [(info: ObjectInfo, bytes: [UInt8])] {
        let thumb = shot.thumbnail
        func info(_ format: ObjectFormatCode, _ name: String, _ size: Int, _ width: Int, _ height: Int, _ depth: Int)
            -> ObjectInfo
        {
            ObjectInfo(
                storageID: storage, objectFormat: format, objectCompressedSize: UInt32(clamping: size),
                thumbFormat: thumb == nil ? .undefined : .jfif, thumbCompressedSize: UInt32(thumb?.bytes.count ?? 0),
                thumbPixWidth: UInt32(thumb?.width ?? 0), thumbPixHeight: UInt32(thumb?.height ?? 0),
                imagePixWidth: UInt32(width), imagePixHeight: UInt32(height), imageBitDepth: UInt32(depth),
                parentObject: parent, filename: name, captureDate: time.ptpString, modificationDate: time.ptpString)
        }
        var objects: [(info: ObjectInfo, bytes: [UInt8])] = []
        if let bytes = shot.raw {
            objects.append(
                (info(raw.format, stem + "." + raw.fileExtension, bytes.count, raw.width, raw.height, raw.depth), bytes)
            )
        }
        if let jpeg = shot.jpeg {
            objects.append((info(.exifJPEG, stem + ".JPG", jpeg.bytes.count, jpeg.width, jpeg.height, 24), jpeg.bytes))
        }
        return objects
    }
}
