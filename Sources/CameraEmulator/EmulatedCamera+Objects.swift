import PTP

extension EmulatedCamera {
    /// The stores and their objects: GetStorageIDs, GetStorageInfo, GetNumObjects, GetObjectHandles, GetObjectInfo,
    /// GetObject, GetThumb, GetPartialObject and DeleteObject (ISO 15740 §10.5.4–10.5.11, §10.5.27).
    func answerObjectOperation(_ code: OperationCode, _ parameter: (Int) -> UInt32) -> PTPResponderReply {
        switch code {
        case .getStorageIDs:
            return .dataset(StorageIDArray(store.stores.map(\.id)))
        case .getStorageInfo:
            guard let info = store.storageInfo(StorageID(rawValue: parameter(0)), shotByteCount: estimatedShotByteCount)
            else { return PTPResponderReply(.invalidStorageID) }
            return .dataset(info)
        case .getNumObjects:
            do {
                let handles = try store.handles(storage: parameter(0), format: parameter(1), parent: parameter(2))
                return PTPResponderReply(parameters: [UInt32(handles.count)])
            } catch {
                return PTPResponderReply(error.code)
            }
        case .getObjectHandles:
            do {
                return .dataset(
                    ObjectHandleArray(try store.handles(storage: parameter(0), format: parameter(1), parent: parameter(2))))
            } catch {
                return PTPResponderReply(error.code)
            }
        case .getObjectInfo:
            guard let object = store.object(ObjectHandle(rawValue: parameter(0))) else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            return .dataset(object.info)
        case .getObject:
            guard let object = store.object(ObjectHandle(rawValue: parameter(0))) else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            // A folder is a name, not data.
            guard !object.isAssociation else { return PTPResponderReply(.accessDenied) }
            return .data(object.data)
        case .getThumb:
            guard let object = store.object(ObjectHandle(rawValue: parameter(0))) else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            guard let thumbnail = object.thumbnail else { return PTPResponderReply(.noThumbnailPresent) }
            return .data(thumbnail)
        case .getPartialObject:
            guard let object = store.object(ObjectHandle(rawValue: parameter(0))) else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            guard !object.isAssociation else { return PTPResponderReply(.accessDenied) }
            let size = UInt64(object.data.count)
            let offset = UInt64(parameter(1))
            guard offset <= size else { return PTPResponderReply(.invalidParameter) }
            let count = min(UInt64(parameter(2)), size - offset)
            return PTPResponderReply(
                parameters: [UInt32(count)],
                dataIn: SliceDataSource(base: PTPBytesSource(object.data), offset: offset, byteCount: count))
        case .deleteObject:
            return PTPResponderReply(store.delete(parameter(0), format: parameter(1)))
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }

    /// Bytes one shot at the current settings needs at most: the raw file (16-bit samples and a few kilobytes of
    /// tags) and a JPEG budget of half a byte per pixel. Captures are refused when less than this is free.
    var estimatedShotByteCount: UInt64 { estimatedShotByteCount(currentQuality) }

    /// The handle of the DCF folder captures go into (`DCIM/100RAWCP`), made when missing (after a DeleteObject of
    /// the folder, or a new folder number).
    func captureFolder() -> ObjectHandle? {
        let card = Self.cardStorageID
        let root = ObjectHandle(rawValue: 0)
        let dcim =
            store.child(named: "DCIM", in: root, on: card)?.handle ?? store.add(folderInfo("DCIM", parent: root), data: [])
        guard let dcim else { return nil }
        let name = "\(folderNumber)\(model.folderSuffix)"
        return store.child(named: name, in: dcim, on: card)?.handle ?? store.add(folderInfo(name, parent: dcim), data: [])
    }

    private func folderInfo(_ name: String, parent: ObjectHandle) -> ObjectInfo {
        let now = clock.now().ptpString
        return ObjectInfo(
            storageID: Self.cardStorageID, objectFormat: .association, parentObject: parent,
            associationType: .genericFolder, filename: name, captureDate: now, modificationDate: now)
    }
}
