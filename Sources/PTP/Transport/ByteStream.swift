/// A reliable, ordered byte stream: the seam under ``PTPIPTransport`` and ``PTPIPDeviceSide``.
///
/// The PTP/IP implementation (`PTPIP`) wraps a TCP socket (with `TCP_NODELAY`, see the PTP/IP notes); tests and the
/// emulator use ``InMemoryByteStream/pair(capacity:)``. Every method throws ``ByteStreamError``.
public protocol ByteStream: Sendable {
    /// Sends all of `bytes`; a short write is an error, never a partial success.
    func send(_ bytes: [UInt8]) async throws(ByteStreamError)
    /// Returns between 1 and `maxLength` bytes as soon as any are available, waiting up to `timeout`; throws
    /// ``ByteStreamError/Code/closed`` at the end of the stream.
    func receive(maxLength: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8]
    /// Closes the stream; the peer sees the end of the stream once it has read what was sent.
    func close() async
}
