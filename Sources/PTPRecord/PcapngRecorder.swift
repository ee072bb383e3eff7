import WireFormat

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a pcapng recording as traffic happens: what ``RecordingBulkPipe`` and ``RecordingByteStream`` see,
/// as Linux usbmon packets (link type 220) and TCP over IPv4 (link type 101) that Wireshark and tshark open.
///
/// - The Section Header Block names rawcap and its version (shb_userappl and a comment) and the camera (a
///   comment, `camera: <model>`). The model is often known only once the camera has answered (the PTP/IP Init
///   Command Ack, or GetDeviceInfo), so that comment is a fixed-width field rewritten in place by
///   ``setCameraModel(_:)``.
/// - Interface Description Blocks are written when an interface is first used, with nanosecond timestamps.
/// - Each packet is one `write(2)` of one Enhanced Packet Block, with no buffering in the process: a crash leaves a
///   file that ends after its last whole block, and Wireshark reads it.
/// - The file is created, never overwritten: an existing file is an error.
public actor PcapngRecorder {
    /// Identity and clock.
    public struct Configuration: Sendable {
        /// The rawcap version written into the section header.
        public var rawcapVersion: String
        /// The camera model, when it is known before recording starts.
        public var cameraModel: String?
        /// Nanoseconds since the Unix epoch; the wall clock by default. Tests pass a fixed clock to get identical
        /// files.
        public var clock: @Sendable () -> UInt64
        /// The shb_os option; this machine's `uname` by default. Fixtures fix it so they regenerate identically.
        public var operatingSystem: String

        /// Creates a configuration.
        public init(
            rawcapVersion: String, cameraModel: String? = nil,
            clock: @escaping @Sendable () -> UInt64 = PcapngRecorder.wallClockNanoseconds,
            operatingSystem: String = PcapngRecorder.operatingSystemName()
        ) {
            self.rawcapVersion = rawcapVersion
            self.cameraModel = cameraModel
            self.clock = clock
            self.operatingSystem = operatingSystem
        }
    }

    /// Which end of a recorded TCP connection sent a segment.
    public enum TCPSide: Sendable, Hashable {
        /// The end that connected (rawcap, gphoto2: the PTP/IP initiator).
        case client
        /// The end that accepted (the camera: the PTP/IP responder).
        case server
    }

    /// A recorded TCP connection.
    public struct TCPConnectionID: Hashable, Sendable {
        let index: Int
    }

    /// The width of the camera comment's value: long enough for any model name.
    static let cameraCommentByteCount = 128
    /// The snap length written in interface descriptions: nothing is cut.
    static let snapLength: UInt32 = 0

    /// The file's path.
    public nonisolated let path: String
    /// The camera model written so far, if any.
    public private(set) var cameraModel: String?
    /// Packets written.
    public private(set) var packetCount = 0

    private var descriptor: Int32
    private let clock: @Sendable () -> UInt64
    private let cameraCommentOffset: Int
    private var interfaces: [LinkType: UInt32] = [:]
    private var connections: [TCPConnection] = []

    private struct TCPConnection {
        var client: TCPEndpoint
        var server: TCPEndpoint
        var clientNext: UInt32
        var serverNext: UInt32
        var clientClosed = false
        var serverClosed = false
    }

    private var ipIdentification: UInt16 = 1

    /// Creates the file at `path` and writes its section header.
    ///
    /// - Throws: ``RecordError`` with ``RecordError/Code/ioError`` when the file exists or cannot be created.
    public init(path: String, configuration: Configuration) throws(RecordError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw RecordError(.ioError, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        descriptor = fd
        clock = configuration.clock
        cameraModel = configuration.cameraModel
        let options = Self.sectionOptions(
            version: configuration.rawcapVersion, cameraModel: configuration.cameraModel,
            operatingSystem: configuration.operatingSystem)
        cameraCommentOffset = PcapngEncoder.sectionHeaderOptionValueOffset(options: options, index: 1)
        do {
            try Self.writeAll(fd, PcapngEncoder.sectionHeader(options: options), path: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// The wall clock in nanoseconds since the Unix epoch.
    public static let wallClockNanoseconds: @Sendable () -> UInt64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(max(0, now.tv_sec)) * 1_000_000_000 + UInt64(max(0, now.tv_nsec))
    }

    /// Writes the camera model into the section header's camera comment (first caller wins; later calls with
    /// another model are ignored, so the GetDeviceInfo model does not flip-flop with a PTP/IP friendly name).
    public func setCameraModel(_ model: String) throws(RecordError) {
        guard cameraModel == nil, descriptor >= 0 else { return }
        cameraModel = model
        let value = Self.cameraComment(model)
        let written = value.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(cameraCommentOffset)) }
        guard written == value.count else {
            throw RecordError(
                .ioError, "cannot update the camera comment in \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Closes the file; later writes throw ``RecordError/Code/closed``.
    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    // MARK: USB

    /// Writes one usbmon event; its timestamp is set from the recorder's clock.
    public func record(_ packet: USBMonPacket) throws(RecordError) {
        let interface = try interfaceID(
            .usbLinuxMmapped, name: "usbmon\(packet.busNumber)", description: "PTP over USB, recorded by rawcap")
        let now = clock()
        var stamped = packet
        stamped.timestampSeconds = Int64(now / 1_000_000_000)
        stamped.timestampMicroseconds = Int32(now % 1_000_000_000 / 1000)
        try writePacket(interface: interface, timestamp: now, stamped.mmappedEncoded())
    }

    // MARK: TCP

    /// The addresses written for endpoints that are not IPv4 (the recording is TCP over IPv4): 10.0.0.1 for the
    /// client, 10.0.0.2 for the server, with the real ports.
    public static let placeholderClientAddress: [UInt8] = [10, 0, 0, 1]
    /// See ``placeholderClientAddress``.
    public static let placeholderServerAddress: [UInt8] = [10, 0, 0, 2]

    /// Starts a TCP connection from `client` to `server` and writes its handshake: SYN, SYN-ACK, ACK. Recordings
    /// are TCP over IPv4; an IPv6 endpoint is written with a placeholder address (see
    /// ``placeholderClientAddress``).
    public func openTCPConnection(client: TCPEndpoint, server: TCPEndpoint) throws(RecordError) -> TCPConnectionID {
        var client = client
        var server = server
        if client.address.count != 4 { client.address = Self.placeholderClientAddress }
        if server.address.count != 4 { server.address = Self.placeholderServerAddress }
        let index = connections.count
        // Fixed, distinct initial sequence numbers keep recordings deterministic and readable.
        let clientStart = 0x1000_0000 &+ UInt32(truncatingIfNeeded: index) &* 0x0100_0000
        let serverStart = 0x8000_0000 &+ UInt32(truncatingIfNeeded: index) &* 0x0100_0000
        connections.append(
            TCPConnection(client: client, server: server, clientNext: clientStart &+ 1, serverNext: serverStart &+ 1))
        try writeSegment(
            TCPSegment(
                source: client, destination: server, sequenceNumber: clientStart, acknowledgmentNumber: 0,
                flags: .syn))
        try writeSegment(
            TCPSegment(
                source: server, destination: client, sequenceNumber: serverStart,
                acknowledgmentNumber: clientStart &+ 1,
                flags: [.syn, .ack]))
        try writeSegment(
            TCPSegment(
                source: client, destination: server, sequenceNumber: clientStart &+ 1,
                acknowledgmentNumber: serverStart &+ 1, flags: .ack))
        return TCPConnectionID(index: index)
    }

    /// Writes `payload` as sent by `side`, in segments of at most one IPv4 packet each.
    public func recordTCP(_ connection: TCPConnectionID, from side: TCPSide, payload: [UInt8]) throws(RecordError) {
        guard connections.indices.contains(connection.index) else { return }
        var offset = 0
        while offset < payload.count {
            let end = min(payload.count, offset + TCPSegment.maxEncodedPayloadByteCount)
            let state = connections[connection.index]
            let (source, destination) = side == .client ? (state.client, state.server) : (state.server, state.client)
            let (sequence, acknowledgment) =
                side == .client ? (state.clientNext, state.serverNext) : (state.serverNext, state.clientNext)
            try writeSegment(
                TCPSegment(
                    source: source, destination: destination, sequenceNumber: sequence,
                    acknowledgmentNumber: acknowledgment, flags: [.ack, .psh], payload: payload[offset..<end]))
            let advance = UInt32(end - offset)
            if side == .client {
                connections[connection.index].clientNext &+= advance
            } else {
                connections[connection.index].serverNext &+= advance
            }
            offset = end
        }
    }

    /// Writes `side`'s FIN and the other side's ACK of it (once per side).
    public func closeTCP(_ connection: TCPConnectionID, from side: TCPSide) throws(RecordError) {
        guard connections.indices.contains(connection.index) else { return }
        var state = connections[connection.index]
        if side == .client ? state.clientClosed : state.serverClosed { return }
        let (source, destination) = side == .client ? (state.client, state.server) : (state.server, state.client)
        let (sequence, acknowledgment) =
            side == .client ? (state.clientNext, state.serverNext) : (state.serverNext, state.clientNext)
        try writeSegment(
            TCPSegment(
                source: source, destination: destination, sequenceNumber: sequence,
                acknowledgmentNumber: acknowledgment, flags: [.fin, .ack]))
        try writeSegment(
            TCPSegment(
                source: destination, destination: source, sequenceNumber: acknowledgment,
                acknowledgmentNumber: sequence &+ 1, flags: .ack))
        if side == .client {
            state.clientClosed = true
            state.clientNext &+= 1
        } else {
            state.serverClosed = true
            state.serverNext &+= 1
        }
        connections[connection.index] = state
    }

    // MARK: Writing

    private func writeSegment(_ segment: TCPSegment) throws(RecordError) {
        let interface = try interfaceID(.raw, name: "ptpip", description: "PTP/IP over TCP, recorded by rawcap")
        let packet = segment.ipv4Encoded(identification: ipIdentification)
        ipIdentification &+= 1
        try writePacket(interface: interface, timestamp: clock(), packet)
    }

    private func interfaceID(_ linkType: LinkType, name: String, description: String) throws(RecordError) -> UInt32 {
        if let id = interfaces[linkType] { return id }
        let id = UInt32(interfaces.count)
        let block = PcapngEncoder.interfaceDescription(
            linkType: linkType, snapLength: Self.snapLength,
            options: [
                .init(code: PcapngEncoder.Option.interfaceName, text: name),
                .init(code: PcapngEncoder.Option.interfaceDescription, text: description),
                .init(code: PcapngEncoder.Option.timestampResolution, value: [9]),
            ])
        try write(block)
        interfaces[linkType] = id
        return id
    }

    private func writePacket(interface: UInt32, timestamp: UInt64, _ packet: [UInt8]) throws(RecordError) {
        try write(PcapngEncoder.enhancedPacket(interfaceID: interface, timestamp: timestamp, packet: packet))
        packetCount += 1
    }

    private func write(_ block: [UInt8]) throws(RecordError) {
        guard descriptor >= 0 else { throw RecordError(.closed, "\(path) is closed") }
        try Self.writeAll(descriptor, block, path: path)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(RecordError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw RecordError(.ioError, "writing \(path): \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    // MARK: Section header

    private static func sectionOptions(version: String, cameraModel: String?, operatingSystem: String)
        -> [PcapngEncoder.Option]
    {
        [
            .init(code: PcapngEncoder.Option.comment, text: "Recorded by rawcap \(version)"),
            .init(code: PcapngEncoder.Option.comment, value: cameraComment(cameraModel)),
            .init(code: PcapngEncoder.Option.userApplication, text: "rawcap \(version)"),
            .init(code: PcapngEncoder.Option.operatingSystem, text: operatingSystem),
        ]
    }

    /// This machine's system name and release (`uname`), e.g. `Linux 6.1.0-18-amd64`.
    public static func operatingSystemName() -> String {
        var system = utsname()
        uname(&system)
        let sysname = withUnsafeBytes(of: &system.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(sysname) \(release)"
    }

    /// `camera: <model>` padded with spaces to a fixed width, cut at a character boundary when too long.
    static func cameraComment(_ model: String?) -> [UInt8] {
        var text = "camera: " + (model ?? "(not yet known)")
        while text.utf8.count > cameraCommentByteCount { text.removeLast() }
        return Array(text.utf8) + [UInt8](repeating: 0x20, count: cameraCommentByteCount - text.utf8.count)
    }
}
