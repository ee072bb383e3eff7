import PTP
import RawImage

extension EmulatedCamera {
    /// The attacks this camera commits: its `hostile=` faults, or `traversal` when none was given.
    var hostileBehaviours: Set<HostileBehaviour> { faults.hostile.isEmpty ? [.traversal] : faults.hostile }

    /// The hostile personality (``CameraModel/hostile``): GetDeviceInfo, GetObjectInfo, GetObject and
    /// GetPartialObject answered the ways ``hostileBehaviours`` choose; `nil` lets the generic camera answer (it
    /// still shoots and stores real frames, which the attacks then misdescribe or mangle).
    func answerHostileOperation(_ request: PTPRequest, fault: inout String?) -> PTPResponderReply? {
        fillHostileCardIfPending()
        let attacks = hostileBehaviours
        let handle = ObjectHandle(rawValue: request.parameters.first ?? 0)
        switch request.code {
        case .getDeviceInfo where attacks.contains(.trickleDataset):
            fault = "hostile=trickle-dataset"
            return PTPResponderReply(
                dataIn: HostileDataSource(
                    byteCount: HostileDataSource.trickleDatasetByteCount, base: PTPBytesSource(deviceInfo.ptpEncoded),
                    pace: .dribbles(interval: .seconds(2))))
        case .getDeviceInfo where attacks.contains(.strings):
            fault = "hostile=strings"
            var info = deviceInfo
            info.manufacturer = Self.hostileString("\u{1B}[31mrawcap\u{1B}[0m\nERROR: fake")
            info.model = Self.hostileString("Hostile\r\u{1B}]0;owned\u{07}Camera")
            info.deviceVersion = String(repeating: "9", count: 254)
            info.serialNumber = Self.hostileString("../../SN\u{1B}[2J\u{0}hidden")
            info.vendorExtensionDesc = String(repeating: "\u{1B}[5m", count: 60)
            return .dataset(info)
        case .getObjectInfo:
            guard let object = store.object(handle), !object.isAssociation else { return nil }
            var info = object.info
            if attacks.contains(.traversal) {
                info.filename = Self.hostileFilename(for: info.filename)
                fault = "hostile=traversal"
            }
            if attacks.contains(.strings) {
                info.keywords = Self.hostileString("\u{1B}[2J\nrm -rf /")
                fault = "hostile=strings"
            }
            if let crafted = craftedFile(for: object) {
                info.objectCompressedSize = UInt32(crafted.count)
            }
            if attacks.contains(.hugeLength) {
                info.objectCompressedSize = 0xFFFF_FFFE
                fault = "hostile=huge-length"
            }
            return .dataset(info)
        case .getObject, .getPartialObject:
            guard let object = store.object(handle), !object.isAssociation else { return nil }
            let bytes = craftedFile(for: object) ?? object.data
            let base = PTPBytesSource(bytes)
            let pace: HostileDataSource.Pace?
            var claimed = base.byteCount
            if attacks.contains(.hugeLength) || attacks.contains(.endlessData) {
                pace = .endless
                claimed = HostileDataSource.hugeByteCount
            } else if attacks.contains(.silentData) {
                pace = .silent
            } else if attacks.contains(.stalledData) {
                pace = .stalls(after: 64 * 1024)
            } else if attacks.contains(.trickleData) {
                pace = .trickles(after: 64 * 1024)
            } else {
                pace = nil
            }
            if pace != nil {
                fault = "hostile=" + attacks.map(\.rawValue).sorted().joined(separator: "+")
            }
            let source = HostileDataSource(byteCount: claimed, base: base, pace: pace ?? .endless)
            let honest: any PTPDataSource = pace == nil ? base : source
            if request.code == .getObject { return PTPResponderReply(dataIn: honest) }
            // GetPartialObject (ISO 15740 §10.5.27): offset and count; the response's parameter is the count sent.
            let offset = UInt64(request.parameters.count > 1 ? request.parameters[1] : 0)
            let wanted = UInt64(request.parameters.count > 2 ? request.parameters[2] : 0)
            guard offset <= base.byteCount else { return PTPResponderReply(.invalidParameter) }
            let count = min(wanted, base.byteCount - offset)
            // Under endless-data the window claims 4 GiB too: far more than the host asked for.
            let window = SliceDataSource(
                base: honest, offset: offset, byteCount: claimed > base.byteCount ? claimed : count)
            return PTPResponderReply(parameters: [UInt32(clamping: count)], dataIn: window)
        default:
            return nil
        }
    }

    /// Puts one RAW+JPEG shot on the card, once, without events: the camera arrives with a photograph on it.
    func fillHostileCardIfPending() {
        guard faults.hostileCardPending else { return }
        faults.hostileCardPending = false
        guard let exposure = try? currentExposure(), let folder = captureFolder() else { return }
        let time = clock.now()
        let plan = ShotRenderer.Plan(
            width: sensorWidth, height: sensorHeight, cfa: model.cfa, bitsPerSample: currentRawBitDepth,
            exposure: exposure, seed: configuration.seed &+ shotCount, captureTime: CameraClock.captureTime(time),
            identity: CaptureMetadata(make: model.manufacturer, model: model.model, serialNumber: model.serialNumber),
            illuminant: configuration.illuminant, sensor: configuration.sensor, whiteBalance: whiteBalanceTarget,
            quality: .rawPlusJPEG, frameHandler: nil)
        guard let shot = try? ShotRenderer.developNow(plan), let raw = shot.raw, let jpeg = shot.jpeg else { return }
        shotCount += 1
        fileNumber += 1
        let stem =
            model.filePrefix + String(repeating: "0", count: max(0, 4 - String(fileNumber).count))
            + String(fileNumber)
        for (format, name, bytes, width, height, depth) in [
            (ObjectFormatCode.tiffEP, stem + ".TIF", raw, plan.width, plan.height, plan.bitsPerSample),
            (.exifJPEG, stem + ".JPG", jpeg.bytes, jpeg.width, jpeg.height, 24),
        ] {
            let info = ObjectInfo(
                storageID: Self.cardStorageID, objectFormat: format,
                objectCompressedSize: UInt32(clamping: bytes.count),
                imagePixWidth: UInt32(width), imagePixHeight: UInt32(height), imageBitDepth: UInt32(depth),
                parentObject: folder, filename: name, captureDate: time.ptpString, modificationDate: time.ptpString)
            _ = store.add(info, data: bytes)
        }
    }

    /// The crafted TIFF that replaces a raw object under a TIFF attack, or `nil`.
    private func craftedFile(for object: ObjectStore.Object) -> [UInt8]? {
        guard object.info.objectFormat == .tiffEP else { return nil }
        for behaviour in HostileBehaviour.allCases where behaviour.craftsTIFF && hostileBehaviours.contains(behaviour) {
            return HostileTIFF.file(for: behaviour)
        }
        return nil
    }

    /// A hostile name for the object the camera named `original` (`RCAP0007.TIF`): each shot's number picks one
    /// attack, and a raw file and its JPEG keep a common stem, as a camera pairs them.
    static func hostileFilename(for original: String) -> String {
        let dot = original.lastIndex(of: ".") ?? original.endIndex
        let ext = String(original[dot...])
        let number = Int(original[..<dot].filter(\.isNumber)) ?? 0
        let name: String
        switch number % 6 {
        case 1: name = "../../../../../../tmp/rawcap-escape-\(number)"
        case 2: name = "/tmp/rawcap-absolute-\(number)"
        case 3: name = "RCAP\u{0}\(number)/../../x"
        case 4: name = "\u{1B}[2J\u{1B}]0;owned\u{07}\r\n\(number)"
        case 5: name = String(repeating: "A", count: 240) + "-\(number)"
        default: name = "..\\..\\windows-\(number)"
        }
        return hostileString(name + ext)
    }

    /// `text` cut to the 254 characters a PTP string holds.
    static func hostileString(_ text: String) -> String { String(text.prefix(254)) }
}
