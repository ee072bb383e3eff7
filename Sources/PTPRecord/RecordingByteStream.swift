import PTP
import Synchronization

/// A ``PTP/ByteStream`` that records everything through it to a ``PcapngRecorder`` as one TCP connection over
/// IPv4, then passes it on: wrap both PTP/IP connections (command and event) to record a session that tshark's
/// `ptpip` dissector decodes.
///
/// ``start(wrapping:recorder:client:server:side:)`` writes the TCP handshake; sends are recorded before they go out,
/// receives after they arrive, so requests precede their responses in the file. ``close()`` and the peer's end of
/// stream are recorded as FINs. Sequence and acknowledgment numbers follow the bytes exactly. The wrapped stream
/// can be either end: rawcap as the host (`side: .client`) or the emulated camera's server (`side: .server`).
///
/// The first packet the responder sends on the command connection is the Init Command Ack; its friendly name
/// (usually the camera model) goes into the recording's header.
public final class RecordingByteStream: ByteStream, Sendable {
    /// The stream underneath.
    public let base: any ByteStream
    /// The recorder.
    public let recorder: PcapngRecorder
    /// Which end of the connection `base` is.
    public let side: PcapngRecorder.TCPSide

    private let connection: PcapngRecorder.TCPConnectionID
    private let state = Mutex(State())

    private struct State: Sendable {
        var closeRecorded = false
        var peerCloseRecorded = false
        var sniffing = true
        var sniffed: [UInt8] = []
        var clientSplitter = PacketBoundarySplitter()
        var serverSplitter = PacketBoundarySplitter()
    }

    private init(
        base: any ByteStream, recorder: PcapngRecorder, side: PcapngRecorder.TCPSide,
        connection: PcapngRecorder.TCPConnectionID
    ) {
        self.base = base
        self.recorder = recorder
        self.side = side
        self.connection = connection
    }

    /// Wraps `base`, the `side` end of a connection from `client` to `server`, and records the TCP handshake.
    public static func start(
        wrapping base: any ByteStream, recorder: PcapngRecorder, client: TCPEndpoint, server: TCPEndpoint,
        side: PcapngRecorder.TCPSide
    ) async throws(RecordError) -> RecordingByteStream {
        let connection = try await recorder.openTCPConnection(client: client, server: server)
        return RecordingByteStream(base: base, recorder: recorder, side: side, connection: connection)
    }

    /// Records the bytes as sent by this end, then sends them.
    public func send(_ bytes: [UInt8]) async throws(ByteStreamError) {
        try await record(bytes, from: side)
        try await base.send(bytes)
    }

    /// Receives from the stream underneath and records what arrived as sent by the other end.
    public func receive(maxLength: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        let peer: PcapngRecorder.TCPSide = side == .client ? .server : .client
        let bytes: [UInt8]
        do {
            bytes = try await base.receive(maxLength: maxLength, timeout: timeout)
        } catch {
            if error.code == .closed,
                state.withLock({ state in
                    defer { state.peerCloseRecorded = true }
                    return !state.peerCloseRecorded
                })
            {
                try? await recorder.closeTCP(connection, from: peer)
            }
            throw error
        }
        try await record(bytes, from: peer)
        return bytes
    }

    /// Records this end's FIN and closes the stream underneath.
    public func close() async {
        let first = state.withLock { state in
            defer { state.closeRecorded = true }
            return !state.closeRecorded
        }
        if first { try? await recorder.closeTCP(connection, from: side) }
        await base.close()
    }

    private func record(_ bytes: [UInt8], from sender: PcapngRecorder.TCPSide) async throws(ByteStreamError) {
        let pieces = state.withLock { state in
            sender == .client ? state.clientSplitter.split(bytes) : state.serverSplitter.split(bytes)
        }
        do {
            for piece in pieces { try await recorder.recordTCP(connection, from: sender, payload: Array(piece)) }
        } catch {
            throw ByteStreamError(.ioError, underlyingError: error, "recording to \(recorder.path)")
        }
        if sender == .server, let name = sniff(bytes) { try? await recorder.setCameraModel(name) }
    }

    /// The friendly name of an Init Command Ack at the start of what the responder sent, once whole.
    private func sniff(_ bytes: [UInt8]) -> String? {
        state.withLock { state -> String? in
            guard state.sniffing else { return nil }
            state.sniffed.append(contentsOf: bytes.prefix(max(0, 4096 - state.sniffed.count)))
            var slice = state.sniffed[...]
            let packet: PTPIPPacket?
            do {
                packet = try PTPIPPacket.decode(&slice)
            } catch {
                state.sniffing = false
                return nil
            }
            guard let packet else {
                // Not whole yet; an Ack is far shorter than 4 KiB, so give up after that.
                if state.sniffed.count >= 4096 { state.sniffing = false }
                return nil
            }
            state.sniffing = false
            guard case .initCommandAck(let ack) = packet, !ack.friendlyName.isEmpty else { return nil }
            return ack.friendlyName
        }
    }
}
