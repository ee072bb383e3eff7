@testable import CameraEmulator
import PTP
import Testing

/// The stores' bookkeeping: capacity, handles, filters and deletion.
@Suite struct ObjectStoreTests {
    static let card = StorageID(rawValue: 0x0001_0001)

    static func store(capacity: UInt64 = 1000) -> ObjectStore {
        var store = ObjectStore()
        store.addStore(card, StorageInfo(maxCapacity: capacity))
        return store
    }

    @Test func objectsUseCapacityAndNeverExceedIt() throws {
        var store = Self.store()
        let aHandle = store.add(ObjectInfo(storageID: Self.card, objectFormat: .tiffEP), data: [UInt8](repeating: 1, count: 600))
        let a = try #require(aHandle)
        #expect(store.add(ObjectInfo(storageID: Self.card), data: [UInt8](repeating: 2, count: 401)) == nil)
        let bHandle = store.add(ObjectInfo(storageID: Self.card), data: [UInt8](repeating: 2, count: 400))
        let b = try #require(bHandle)
        #expect(store.store(Self.card)?.freeBytes == 0)
        #expect(store.storageInfo(Self.card, shotByteCount: 100)?.freeSpaceInImages == 0)
        #expect(store.delete(a.rawValue, format: 0) == .ok)
        #expect(store.storageInfo(Self.card, shotByteCount: 100)?.freeSpaceInImages == 6)
        #expect(b.rawValue == a.rawValue + 1)
        // An object on no known store is refused.
        #expect(store.add(ObjectInfo(storageID: StorageID(rawValue: 9)), data: []) == nil)
    }

    @Test func deletingAFolderDeletesWhatIsInIt() throws {
        var store = Self.store()
        let folderHandle = store.add(ObjectInfo(storageID: Self.card, objectFormat: .association), data: [])
        let folder = try #require(folderHandle)
        let childHandle = store.add(ObjectInfo(storageID: Self.card, parentObject: folder), data: [1, 2, 3])
        let child = try #require(childHandle)
        let otherHandle = store.add(ObjectInfo(storageID: Self.card), data: [4])
        let other = try #require(otherHandle)
        #expect(store.delete(folder.rawValue, format: 0) == .ok)
        #expect(store.object(child) == nil && store.object(other) != nil)
        #expect(store.store(Self.card)?.usedBytes == 1)
        #expect(store.delete(folder.rawValue, format: 0) == .invalidObjectHandle)
        #expect(store.delete(other.rawValue, format: 0x3801) == .parameterNotSupported)
    }

    @Test func queriesCheckTheirParameters() throws {
        var store = Self.store()
        let fileHandle = store.add(ObjectInfo(storageID: Self.card, objectFormat: .exifJPEG), data: [1])
        let file = try #require(fileHandle)
        #expect(throws: ObjectStore.QueryError.self) { _ = try store.handles(storage: 5, format: 0, parent: 0) }
        #expect(throws: ObjectStore.QueryError.self) { _ = try store.handles(storage: 0xFFFF_FFFF, format: 0, parent: 77) }
        do {
            _ = try store.handles(storage: 0xFFFF_FFFF, format: 0, parent: file.rawValue)
            Issue.record("a file is not a parent")
        } catch {
            #expect(error.code == .invalidParentObject)
        }
        #expect(try store.handles(storage: 0xFFFF_FFFF, format: 0x3801, parent: 0xFFFF_FFFF) == [file])
        #expect(try store.handles(storage: Self.card.rawValue, format: 0x3802, parent: 0).isEmpty)
    }
}
