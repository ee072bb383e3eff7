import PTP
import RawImage
import WireFormat

/// The Nikon personality's state: the shot in SDRAM and the events waiting for GetEvent.
struct NikonEmulatorState: Sendable {
    /// An object in SDRAM: not on any store, not in GetObjectHandles, reachable by its handle only.
    struct SDRAMObject: Sendable {
        var info: ObjectInfo
        var data: [UInt8]
        var thumbnail: [UInt8]?
    }

    /// The first SDRAM handle (libgphoto2 `camera_nikon_capture` starts from `newobject = 0xffff0001`).
    static let firstSDRAMHandle: UInt32 = 0xFFFF_0001
    /// The last SDRAM handle the body shots count up to before starting again at ``firstSDRAMHandle``.
    static let lastSDRAMHandle: UInt32 = 0xFFFF_7FFF
    /// Most objects the body's own shots keep waiting in SDRAM for the host.
    static let maxBodySDRAMObjects = 64
    /// Most events kept for GetEvent; a host that never polls must not grow the queue without bound.
    static let maxQueuedEvents = 1024

    /// The last shot's objects, by handle; freed when the next shot starts (as the body reuses its buffer).
    var sdram: [UInt32: SDRAMObject] = [:]
    /// Events since the last GetEvent, oldest first.
    var events: [NikonEventList.Event] = []

    mutating func queue(_ event: NikonEventList.Event) {
        if events.count >= Self.maxQueuedEvents { events.removeFirst() }
        events.append(event)
    }

    /// Frees the object at `handle`; with `movingUp`, each later object takes the handle before its own, so the
    /// next one waits at 0xFFFF0001 (a body that never names its objects).
    mutating func release(_ handle: UInt32, movingUp: Bool) {
        guard sdram.removeValue(forKey: handle) != nil, movingUp else { return }
        for later in sdram.keys.filter({ $0 > handle }).sorted() {
            sdram[later - 1] = sdram.removeValue(forKey: later)
        }
    }
}

extension EmulatedCamera {
    /// The Nikon operations, and the standard object operations on SDRAM handles.
    ///
    /// - InitiateCaptureRecInSdram (0x90C0, parameter 0xFFFFFFFF or 0xFFFFFFFE): DeviceBusy while a shot develops,
    ///   else OK at once; the shot lands in SDRAM and GetEvent reports ObjectAddedInSdram (0xC101) per object, then
    ///   CaptureCompleteRecInSdram (0xC102).
    /// - InitiateCaptureRecInMedia (0x9207, parameters AF mode and media: 1 SDRAM, 0 card; libgphoto2 `ptp.h`):
    ///   SDRAM as above; the card stores the files in the DCF folder and reports ObjectAdded (0x4002) and
    ///   CaptureComplete (0x400D) through GetEvent.
    /// - InitiateCapture (0x100E): the card, as InitiateCaptureRecInMedia with media 0.
    /// - DeviceReady (0x90C8): DeviceBusy while the shot develops, else OK.
    /// - GetEvent (0x90C7): the queued events (``NikonEventList``), then an empty list.
    /// - GetVendorPropCodes (0x90CA): the vendor-range properties (0xD000 and up), which a real Nikon leaves out of
    ///   DeviceInfo (``vendorPropertyCodes``).
    /// - ChangeCameraMode (0x90C2, parameter 0 camera or 1 PC): OK; any other mode InvalidParameter.
    /// - GetObjectInfo, GetObject, GetPartialObject, GetThumb and DeleteObject on an SDRAM handle; on a body that does
    ///   not announce its objects (``CameraModel/announcesSDRAMObjects``) only on 0xFFFF0001, where DeleteObject
    ///   brings the shot's next object.
    func answerNikon(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply? {
        let p = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < p.count ? p[index] : 0 }
        switch request.code {
        case OperationCode.Nikon.initiateCaptureRecInSdram:
            guard dataOut == nil else { return PTPResponderReply(.invalidDataset) }
            return nikonCapture(toCard: false, operation: request.code, transactionID: request.transactionID)
        case OperationCode.Nikon.initiateCaptureRecInMedia:
            guard dataOut == nil else { return PTPResponderReply(.invalidDataset) }
            guard parameter(1) <= 1 else { return PTPResponderReply(.invalidParameter) }
            return nikonCapture(toCard: parameter(1) == 0, operation: request.code, transactionID: request.transactionID)
        case .initiateCapture:
            // The standard capture stores on the card, reported through GetEvent like every Nikon event.
            return nikonCapture(toCard: true, operation: request.code, transactionID: request.transactionID)
        case OperationCode.Nikon.deviceReady:
            // While a bulb exposure is open the body answers BulbReleaseBusy (0xA200), which libgphoto2 `config.c`
            // `nikon_wait_busy` waits out like DeviceBusy.
            if bulb != nil { return PTPResponderReply(ResponseCode.Nikon.bulbReleaseBusy) }
            return PTPResponderReply(captureTask == nil ? .ok : .deviceBusy)
        case OperationCode.Nikon.terminateCapture:
            // Ends the bulb exposure (libgphoto2 `config.c` `_put_Nikon_Bulb`: TerminateCapture(0, 0)); without one
            // open there is nothing to end.
            guard dataOut == nil else { return PTPResponderReply(.invalidDataset) }
            guard let open = bulb, case .nikon(let toCard) = open.opening else {
                return PTPResponderReply(.generalError)
            }
            return closeBulb(by: OperationCode.Nikon.terminateCapture) { open in
                nikonCapture(toCard: toCard, operation: open.openedBy, transactionID: open.transactionID)
            }
        case OperationCode.Nikon.getEvent:
            let list = NikonEventList(nikon.events)
            nikon.events.removeAll()
            return .dataset(list)
        case OperationCode.Nikon.getVendorPropCodes:
            var writer = WireWriter(byteOrder: .little)
            writer.writeArray(vendorPropertyCodes.map(\.rawValue))
            return .data(writer.bytes)
        case OperationCode.Nikon.changeCameraMode:
            return PTPResponderReply(parameter(0) <= 1 ? .ok : .invalidParameter)
        case .getObjectInfo, .getObject, .getPartialObject, .getThumb, .deleteObject:
            let announces = model.announcesSDRAMObjects
            guard announces || parameter(0) == NikonEmulatorState.firstSDRAMHandle,
                let object = nikon.sdram[parameter(0)]
            else { return nil }
            switch request.code {
            case .getObjectInfo:
                return .dataset(object.info)
            case .getObject:
                return .data(object.data)
            case .getThumb:
                guard let thumbnail = object.thumbnail else { return PTPResponderReply(.noThumbnailPresent) }
                return .data(thumbnail)
            case .getPartialObject:
                let size = UInt64(object.data.count)
                let offset = UInt64(parameter(1))
                guard offset <= size else { return PTPResponderReply(.invalidParameter) }
                let count = min(UInt64(parameter(2)), size - offset)
                return PTPResponderReply(
                    parameters: [UInt32(count)],
                    dataIn: SliceDataSource(base: PTPBytesSource(object.data), offset: offset, byteCount: count))
            default:
                nikon.release(parameter(0), movingUp: !announces)
                return PTPResponderReply()
            }
        default:
            return nil
        }
    }

    /// The properties a Nikon lists only through GetVendorPropCodes: its vendor-range codes (0xD000 and up). A real
    /// D5500 and D850 list the standard properties (0x5001–0x501F) and the MTP ones (0xD303, 0xD406, 0xD407) in
    /// DeviceInfo and the rest through 0x90CA (libgphoto2 `camlibs/ptp2/cameras/nikon-d5500.txt`, `nikon-d850.txt`:
    /// the summary lists DeviceInfo's properties, then the vendor list; the D5500's DeviceInfo holds 22, confirmed by
    /// a USB recording of a real D5500).
    nonisolated static let nikonDeviceInfoVendorCodes: Set<UInt16> = [0xD303, 0xD406, 0xD407]

    /// The vendor properties GetVendorPropCodes answers (see ``nikonDeviceInfoVendorCodes``).
    var vendorPropertyCodes: [DevicePropertyCode] {
        properties.codes.filter { $0.rawValue >= 0xD000 && !Self.nikonDeviceInfoVendorCodes.contains($0.rawValue) }
    }

    /// A Nikon shot to the card or SDRAM; `byBody` for the body's own shutter button (``pressShutter(timeout:)``),
    /// whose shot joins the SDRAM buffer after the shots still waiting there instead of replacing them.
    func nikonCapture(
        toCard: Bool, operation: OperationCode = OperationCode.Nikon.initiateCaptureRecInSdram, transactionID: UInt32,
        byBody: Bool = false
    ) -> PTPResponderReply {
        guard captureTask == nil, bulb == nil else { return PTPResponderReply(.deviceBusy) }
        if !byBody, shutterIsBulb, bulbExposureTime == nil {
            // ExposureTime at bulb: the shutter opens now and stays open until TerminateCapture (libgphoto2
            // `config.c` `_put_Nikon_Bulb`).
            return openBulb(.nikon(toCard: toCard), by: operation, transactionID: transactionID)
        }
        let quality = currentQuality
        if toCard {
            guard let free = store.store(Self.cardStorageID)?.freeBytes, free >= estimatedShotByteCount(quality) else {
                return PTPResponderReply(.storeFull)
            }
        }
        guard let plan = vendorShotPlan(quality: quality) else { return PTPResponderReply(.generalError) }
        // The body reuses its buffer: the previous shot's SDRAM objects are gone once the next host-triggered one
        // starts. A shot of the body's own button queues behind those still waiting.
        if !byBody { nikon.sdram.removeAll() }
        let time = clock.now()
        let tiffModel = CameraModel.nikonTIFFModel
        captureTask = Task {
            let result = await VendorShot.develop(plan) { frame throws(EmulatorError) in
                try NEFWriter.encode(frame, model: tiffModel, software: "Ver.1.10")
            }
            self.finishNikonCapture(
                result, time: time, toCard: toCard, transactionID: transactionID, byBody: byBody)
        }
        return PTPResponderReply()
    }

    private func finishNikonCapture(
        _ result: Result<VendorShot.Result, EmulatorError>, time: PTPDateTime, toCard: Bool, transactionID: UInt32,
        byBody: Bool
    ) {
        defer { captureTask = nil }
        let shot: VendorShot.Result
        switch result {
        case .success(let developed): shot = developed
        case .failure(let error):
            captureErrors.append(error)
            return
        }
        let stem = nextVendorFileStem()
        let storage = toCard ? Self.cardStorageID : StorageID(rawValue: 0)
        var parent = ObjectHandle(rawValue: 0)
        if toCard {
            guard let folder = captureFolder() else {
                nikon.queue(.init(code: .storeFull, parameter: Self.cardStorageID.rawValue))
                return
            }
            parent = folder
        }
        let thumb = shot.thumbnail
        let objects = Self.vendorShotObjects(
            shot, stem: stem,
            raw: (CameraModel.nikonNEFFormat, "NEF", shot.rawWidth, shot.rawHeight, shot.rawBitDepth),
            storage: storage, parent: parent, time: time)
        if toCard {
            for (objectInfo, bytes) in objects {
                guard let handle = store.add(objectInfo, data: bytes, thumbnail: thumb?.bytes) else {
                    nikon.queue(.init(code: .storeFull, parameter: Self.cardStorageID.rawValue))
                    return
                }
                nikon.queue(.init(code: .objectAdded, parameter: handle.rawValue))
            }
            nikon.queue(.init(code: .captureComplete, parameter: transactionID))
            return
        }
        var handle = NikonEmulatorState.firstSDRAMHandle
        if byBody {
            // After the objects still waiting; the buffer holds a bounded number (the oldest go first).
            handle = nikon.sdram.keys.max().map { $0 + 1 } ?? handle
            if handle > NikonEmulatorState.lastSDRAMHandle { handle = NikonEmulatorState.firstSDRAMHandle }
            while nikon.sdram.count + objects.count > NikonEmulatorState.maxBodySDRAMObjects,
                let oldest = nikon.sdram.keys.min()
            {
                nikon.sdram.removeValue(forKey: oldest)
            }
        }
        for (objectInfo, bytes) in objects {
            nikon.sdram[handle] = NikonEmulatorState.SDRAMObject(info: objectInfo, data: bytes, thumbnail: thumb?.bytes)
            if model.announcesSDRAMObjects {
                nikon.queue(.init(code: EventCode.Nikon.objectAddedInSdram, parameter: handle))
            }
            handle += 1
        }
        nikon.queue(.init(code: EventCode.Nikon.captureCompleteRecInSdram, parameter: 0))
    }
}
