import PTP
import Synchronization

/// A stream whose first bytes were already read: it hands them out again before reading on.
///
/// The server reads the first packet of each new connection to tell a command connection (Init Command Request)
/// from an event connection (Init Event Request), then gives the connection to ``PTP/PTPIPDeviceSide``, which
/// expects to read that packet itself.
final class PrefixedByteStream: ByteStream, Sendable {
    private let prefix: Mutex<[UInt8]>
    /// The stream underneath.
    let base: any ByteStream

    init(prefix: [UInt8], base: any ByteStream) {
        self.prefix = Mutex(prefix)
        self.base = base
    }

    func send(_ bytes: [UInt8]) async throws(ByteStreamError) {
        try await base.send(bytes)
    }

    func receive(maxLength: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        let buffered: [UInt8] = prefix.withLock { prefix in
            let count = min(max(1, maxLength), prefix.count)
            defer { prefix.removeFirst(count) }
            return Array(prefix.prefix(count))
        }
        if !buffered.isEmpty { return buffered }
        return try await base.receive(maxLength: maxLength, timeout: timeout)
    }

    func close() async {
        await base.close()
    }
}
