import PTP

/// The camera's stores and the objects on them: the card (removable RAM, DCF folders) and the camera's own memory
/// (fixed RAM, flat), with capacities that shrink as objects are stored and grow as they are deleted.
///
/// Objects are kept as their encoded bytes; the store never holds more than its capacity, so the capacities bound
/// the emulator's memory. Handles count up from 1 across stores and are never reused.
struct ObjectStore: Sendable {
    /// One store.
    struct Store: Sendable {
        let id: StorageID
        /// StorageInfo with the capacity; the free space is filled in when asked.
        var info: StorageInfo
        var usedBytes: UInt64 = 0
        /// The store reports no free space at all (the `card-full` fault).
        var isFull = false

        var freeBytes: UInt64 { isFull ? 0 : info.maxCapacity - min(usedBytes, info.maxCapacity) }
    }

    /// One object: its dataset, its bytes and its thumbnail.
    struct Object: Sendable {
        let handle: ObjectHandle
        var info: ObjectInfo
        var data: [UInt8]
        var thumbnail: [UInt8]?

        var isAssociation: Bool { info.objectFormat == .association }
    }

    /// A GetObjectHandles/GetNumObjects query that failed with this response.
    struct QueryError: Error {
        let code: ResponseCode
    }

    private(set) var stores: [Store] = []
    private var objects: [UInt32: Object] = [:]
    /// Handles in the order the objects were stored.
    private var order: [UInt32] = []
    private var nextHandle: UInt32 = 1

    /// Adds a store.
    mutating func addStore(_ id: StorageID, _ info: StorageInfo) {
        stores.append(Store(id: id, info: info))
    }

    /// The store with `id`.
    func store(_ id: StorageID) -> Store? { stores.first { $0.id == id } }

    /// Marks a store as full (or not) regardless of its contents.
    mutating func setFull(_ id: StorageID, _ full: Bool) {
        guard let index = stores.firstIndex(where: { $0.id == id }) else { return }
        stores[index].isFull = full
    }

    /// StorageInfo with the current free space; FreeSpaceInImages counts shots of `shotByteCount` bytes.
    func storageInfo(_ id: StorageID, shotByteCount: UInt64) -> StorageInfo? {
        guard let store = store(id) else { return nil }
        var info = store.info
        info.freeSpaceInBytes = store.freeBytes
        info.freeSpaceInImages = UInt32(clamping: store.freeBytes / max(shotByteCount, 1))
        return info
    }

    /// The object with `handle`.
    func object(_ handle: ObjectHandle) -> Object? { objects[handle.rawValue] }

    /// The object named `filename` in `parent` on `storage`.
    func child(named filename: String, in parent: ObjectHandle, on storage: StorageID) -> Object? {
        order.lazy.compactMap { objects[$0] }.first {
            $0.info.storageID == storage && $0.info.parentObject == parent && $0.info.filename == filename
        }
    }

    /// Stores an object (its ``ObjectInfo/storageID`` says where); `nil` when the store lacks the room.
    mutating func add(_ info: ObjectInfo, data: [UInt8], thumbnail: [UInt8]? = nil) -> ObjectHandle? {
        guard let index = stores.firstIndex(where: { $0.id == info.storageID }) else { return nil }
        let size = UInt64(data.count)
        guard size <= stores[index].freeBytes else { return nil }
        let handle = ObjectHandle(rawValue: nextHandle)
        nextHandle += 1
        stores[index].usedBytes += size
        objects[handle.rawValue] = Object(handle: handle, info: info, data: data, thumbnail: thumbnail)
        order.append(handle.rawValue)
        return handle
    }

    /// The handles matching GetObjectHandles' parameters (ISO 15740 §10.5.7): a store (0xFFFFFFFF: all), a format
    /// (0: all) and a parent (0: anywhere, 0xFFFFFFFF: the root, else a folder's handle).
    ///
    /// - Throws: ``QueryError`` with InvalidStorageID, InvalidObjectHandle (an unknown parent) or
    ///   InvalidParentObject (a parent that is not a folder).
    func handles(storage: UInt32, format: UInt32, parent: UInt32) throws(QueryError) -> [ObjectHandle] {
        if storage != StorageID.all.rawValue, store(StorageID(rawValue: storage)) == nil {
            throw QueryError(code: .invalidStorageID)
        }
        if parent != 0, parent != 0xFFFF_FFFF {
            guard let folder = objects[parent] else { throw QueryError(code: .invalidObjectHandle) }
            guard folder.isAssociation else { throw QueryError(code: .invalidParentObject) }
        }
        return order.compactMap { objects[$0] }.filter { object in
            (storage == StorageID.all.rawValue || object.info.storageID.rawValue == storage)
                && (format == 0 || UInt32(object.info.objectFormat.rawValue) == format)
                && (parent == 0 || object.info.parentObject.rawValue == (parent == 0xFFFF_FFFF ? 0 : parent))
        }.map(\.handle)
    }

    /// DeleteObject (ISO 15740 §10.5.11): one object (a folder with everything in it), or with handle 0xFFFFFFFF
    /// every object that is not a folder, of `format` when it is not 0.
    ///
    /// - Returns: OK, InvalidObjectHandle for an unknown handle, or ParameterNotSupported for a format given with a
    ///   single handle (the spec uses it only with 0xFFFFFFFF).
    mutating func delete(_ handle: UInt32, format: UInt32) -> ResponseCode {
        if handle == 0xFFFF_FFFF {
            for object in order.compactMap({ objects[$0] }) where !object.isAssociation {
                if format == 0 || UInt32(object.info.objectFormat.rawValue) == format { remove(object.handle) }
            }
            return .ok
        }
        guard format == 0 else { return .parameterNotSupported }
        guard objects[handle] != nil else { return .invalidObjectHandle }
        remove(ObjectHandle(rawValue: handle))
        return .ok
    }

    private mutating func remove(_ handle: ObjectHandle) {
        guard let object = objects.removeValue(forKey: handle.rawValue) else { return }
        order.removeAll { $0 == handle.rawValue }
        if let index = stores.firstIndex(where: { $0.id == object.info.storageID }) {
            stores[index].usedBytes -= min(stores[index].usedBytes, UInt64(object.data.count))
        }
        if object.isAssociation {
            for child in order.compactMap({ objects[$0] }) where child.info.parentObject == handle {
                remove(child.handle)
            }
        }
    }
}
