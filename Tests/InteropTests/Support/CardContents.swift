import Foundation
import PTP
import PTPIP

/// The objects on a PTP/IP camera's stores, fetched with rawcap's own client: the reference gphoto2's downloads are
/// compared with.
struct CardContents {
    /// One stored file.
    struct File {
        var info: ObjectInfo
        var bytes: [UInt8]
    }

    /// File name → file; folders are left out.
    var files: [String: File]

    /// Connects to `127.0.0.1:port`, downloads every object that is not a folder, and disconnects.
    static func fetch(port: UInt16) async throws -> CardContents {
        let transport = try await PTPIPConnector.connect(to: PTPIPAddress(host: "127.0.0.1", port: port))
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(20)))
        do {
            try await session.openSession()
            var files: [String: File] = [:]
            for handle in try await session.getObjectHandles() {
                let info = try await session.getObjectInfo(handle)
                guard info.objectFormat != .association else { continue }
                let sink = PTPMemorySink(limit: 512 << 20)
                _ = try await session.getObject(handle, into: sink)
                files[info.filename] = File(info: info, bytes: await sink.bytes)
            }
            try await session.closeSession()
            await transport.close()
            return CardContents(files: files)
        } catch {
            await transport.close()
            throw error
        }
    }
}
