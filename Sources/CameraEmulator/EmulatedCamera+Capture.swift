import PTP
import RawImage

extension EmulatedCamera {
    /// InitiateCapture (ISO 15740 §10.5.14): checks the store and format, answers at once, and develops the shot in
    /// the background; ObjectAdded for each stored object and CaptureComplete follow as events carrying the
    /// request's transaction ID.
    ///
    /// - Parameters:
    ///   - storage: 0 lets the camera choose (the capture target property), else the card or camera memory.
    ///   - format: 0 takes the image quality setting; TIFF/EP (0x3802) shoots raw alone, EXIF/JPEG (0x3801) a JPEG
    ///     alone.
    /// - Returns: OK; DeviceBusy while the previous shot develops; InvalidStorageID, InvalidObjectFormatCode, or
    ///   StoreFull when the store lacks room for a shot.
    func initiateCapture(storage: UInt32, format: UInt32, transactionID: UInt32) -> PTPResponderReply {
        guard captureTask == nil, bulb == nil else { return PTPResponderReply(.deviceBusy) }
        let target = storage == 0 ? captureTargetStorage : StorageID(rawValue: storage)
        guard store.store(target) != nil else { return PTPResponderReply(.invalidStorageID) }
        let quality: ImageQuality
        switch format {
        case 0: quality = currentQuality
        case UInt32(ObjectFormatCode.tiffEP.rawValue): quality = .raw
        case UInt32(ObjectFormatCode.exifJPEG.rawValue): quality = .jpeg
        default: return PTPResponderReply(.invalidObjectFormatCode)
        }
        guard let free = store.store(target)?.freeBytes, free >= estimatedShotByteCount(quality) else {
            return PTPResponderReply(.storeFull)
        }
        let exposure: ExposureSettings
        do {
            exposure = try currentExposure()
        } catch {
            return PTPResponderReply(.generalError)
        }
        let time = clock.now()
        let plan = makeShotPlan(quality: quality, exposure: exposure, time: time, rawFileFormat: model.rawFileFormat)
        captureTask = Task {
            let result = await ShotRenderer.develop(plan)
            self.finishCapture(result, plan: plan, time: time, storage: target, transactionID: transactionID)
        }
        return PTPResponderReply()
    }

    /// The plan of the next shot at the current settings, taken at `time`; counts the shot (its noise seed).
    func makeShotPlan(
        quality: ImageQuality, exposure: ExposureSettings, time: PTPDateTime, rawFileFormat: RawFileFormat
    ) -> ShotRenderer.Plan {
        var identity = CaptureMetadata(
            make: model.manufacturer, model: model.model, uniqueCameraModel: "\(model.manufacturer) \(model.model)",
            serialNumber: model.serialNumber, lensModel: model.lensModel)
        identity.orientation = .normal
        var plan = ShotRenderer.Plan(
            width: sensorWidth, height: sensorHeight, cfa: model.cfa, bitsPerSample: currentRawBitDepth,
            exposure: exposure, seed: configuration.seed &+ shotCount, captureTime: CameraClock.captureTime(time),
            identity: identity, illuminant: configuration.illuminant, sensor: configuration.sensor,
            whiteBalance: whiteBalanceTarget, quality: quality, rawFileFormat: rawFileFormat,
            frameHandler: configuration.renderedFrameHandler)
        plan.lens = lens.sceneLens
        shotCount += 1
        return plan
    }

    /// Bytes a shot of `quality` needs at most (see ``estimatedShotByteCount``).
    func estimatedShotByteCount(_ quality: ImageQuality) -> UInt64 {
        let pixels = UInt64(sensorWidth * sensorHeight)
        return (quality.includesRaw ? pixels * 2 + 64 * 1024 : 0) + (quality.includesJPEG ? pixels / 2 + 64 * 1024 : 0)
    }

    /// Stores a developed shot and announces it: ObjectAdded per object and CaptureComplete, in the configured
    /// ``CaptureEventOrder``. A shot that no longer fits (the store filled meanwhile) sends StoreFull instead of its
    /// objects.
    private func finishCapture(
        _ result: Result<ShotRenderer.Result, EmulatorError>, plan: ShotRenderer.Plan, time: PTPDateTime,
        storage: StorageID, transactionID: UInt32
    ) {
        let complete = PTPEvent(code: .captureComplete, transactionID: transactionID, parameters: [transactionID])
        var added: [PTPEvent] = []
        var stored: [ObjectHandle] = []
        defer {
            captureTask = nil
            if let events = personalityShotEvents(stored, transactionID: transactionID) {
                // A vendor personality announces its shots its own way (or not at all: polled).
                for event in events { emit(event) }
            } else if configuration.eventOrder == .gphoto2, let first = added.first {
                emit(first)
                emit(complete)
                for event in added.dropFirst() { emit(event) }
            } else {
                for event in added { emit(event) }
                emit(complete)
            }
        }
        let shot: ShotRenderer.Result
        switch result {
        case .success(let developed): shot = developed
        case .failure(let error):
            captureErrors.append(error)
            return
        }
        fileNumber += 1
        if fileNumber > 9999 {
            // DCF: a folder holds files 0001…9999; the next file starts the next folder.
            folderNumber = min(folderNumber + 1, 999)
            fileNumber = 1
        }
        let parent = storage == Self.cardStorageID ? captureFolder() : ObjectHandle(rawValue: 0)
        guard let parent else {
            emit(PTPEvent(code: .storeFull, transactionID: transactionID, parameters: [storage.rawValue]))
            return
        }
        let stem = model.filePrefix + String(repeating: "0", count: 4 - String(fileNumber).count) + String(fileNumber)
        var objects: [(ObjectInfo, [UInt8])] = []
        let thumb = shot.thumbnail
        func info(_ format: ObjectFormatCode, _ name: String, _ size: Int, _ width: Int, _ height: Int, depth: Int)
            -> ObjectInfo
        {
            ObjectInfo(
                storageID: storage, objectFormat: format, objectCompressedSize: UInt32(clamping: size),
                thumbFormat: thumb == nil ? .undefined : .jfif, thumbCompressedSize: UInt32(thumb?.bytes.count ?? 0),
                thumbPixWidth: UInt32(thumb?.width ?? 0), thumbPixHeight: UInt32(thumb?.height ?? 0),
                imagePixWidth: UInt32(width), imagePixHeight: UInt32(height), imageBitDepth: UInt32(depth),
                parentObject: parent, filename: name, captureDate: time.ptpString, modificationDate: time.ptpString)
        }
        if let raw = shot.raw {
            let format = model.rawFileFormat
            objects.append(
                (
                    info(
                        format.objectFormat, stem + "." + format.fileExtension, raw.count, plan.width, plan.height,
                        depth: plan.bitsPerSample), raw
                ))
        }
        if let jpeg = shot.jpeg {
            objects.append(
                (info(.exifJPEG, stem + ".JPG", jpeg.bytes.count, jpeg.width, jpeg.height, depth: 24), jpeg.bytes))
        }
        let needed = objects.reduce(UInt64(0)) { $0 + UInt64($1.1.count) }
        guard let free = store.store(storage)?.freeBytes, needed <= free else {
            emit(PTPEvent(code: .storeFull, transactionID: transactionID, parameters: [storage.rawValue]))
            return
        }
        for (objectInfo, bytes) in objects {
            guard let handle = store.add(objectInfo, data: bytes, thumbnail: thumb?.bytes) else { continue }
            stored.append(handle)
            added.append(PTPEvent(code: .objectAdded, transactionID: transactionID, parameters: [handle.rawValue]))
        }
    }
}
