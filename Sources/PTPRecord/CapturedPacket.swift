import WireFormat

/// One packet of a capture, with what is needed to decode it: its interface's link type, the byte order of the
/// section it came from (usbmon headers are in that order), its timestamp and where its block starts.
public struct CapturedPacket: Sendable, Hashable {
    /// The index of the packet's interface in its file (pcap files have one, interface 0).
    public var interfaceIndex: Int
    /// How to read ``data``.
    public var linkType: LinkType
    /// The byte order of the section (pcapng) or file (pcap).
    public var byteOrder: ByteOrder
    /// Nanoseconds since the Unix epoch.
    public var timestampNanoseconds: UInt64
    /// The captured bytes (possibly cut by the snap length).
    public var data: [UInt8]
    /// The packet's length on the wire, which may exceed `data.count`.
    public var originalLength: UInt32
    /// The byte offset of the packet's block (pcapng) or record (pcap) in the file, for error messages.
    public var blockOffset: UInt64
    /// The packet's opt_comment options (pcapng Enhanced Packet Blocks); rawcap marks data phases a source held
    /// only in part this way (``PTPConversation/DataPhaseCut``).
    public var comments: [String] = []

    /// Creates a packet.
    public init(
        interfaceIndex: Int, linkType: LinkType, byteOrder: ByteOrder, timestampNanoseconds: UInt64, data: [UInt8],
        originalLength: UInt32, blockOffset: UInt64, comments: [String] = []
    ) {
        self.comments = comments
        self.interfaceIndex = interfaceIndex
        self.linkType = linkType
        self.byteOrder = byteOrder
        self.timestampNanoseconds = timestampNanoseconds
        self.data = data
        self.originalLength = originalLength
        self.blockOffset = blockOffset
    }
}
