import WireFormat

/// Encodes pcapng blocks (draft-ietf-opsawg-pcapng §4): the pure half of ``PcapngRecorder``. Always
/// little-endian, so recordings are byte-for-byte the same on every machine.
///
/// Every block is framed the same way:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | Block Type |
/// | 4 | 4 | Block Total Length (the whole block, a multiple of 4) |
/// | 8 | … | body, options (code u16, length u16, value padded to 4; ended by opt_endofopt) |
/// | end − 4 | 4 | Block Total Length again |
public enum PcapngEncoder {
    /// Section Header Block type (0x0A0D0D0A, a palindrome so it reads the same in both byte orders).
    public static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    /// Interface Description Block type.
    public static let interfaceDescriptionType: UInt32 = 1
    /// Simple Packet Block type.
    public static let simplePacketType: UInt32 = 3
    /// Enhanced Packet Block type.
    public static let enhancedPacketType: UInt32 = 6
    /// The byte-order magic of a Section Header Block.
    public static let byteOrderMagic: UInt32 = 0x1A2B_3C4D

    /// An option: its code and raw value.
    public struct Option: Hashable, Sendable {
        /// opt_comment (1), on any block.
        public static let comment: UInt16 = 1
        /// shb_hardware (2).
        public static let hardware: UInt16 = 2
        /// shb_os (3).
        public static let operatingSystem: UInt16 = 3
        /// shb_userappl (4).
        public static let userApplication: UInt16 = 4
        /// if_name (2).
        public static let interfaceName: UInt16 = 2
        /// if_description (3).
        public static let interfaceDescription: UInt16 = 3
        /// if_tsresol (9): one byte, 10^-n seconds (or 2^-n with the high bit set).
        public static let timestampResolution: UInt16 = 9

        /// The option code.
        public var code: UInt16
        /// The value, unpadded.
        public var value: [UInt8]

        /// Creates an option with raw bytes.
        public init(code: UInt16, value: [UInt8]) { (self.code, self.value) = (code, value) }
        /// Creates an option with UTF-8 text (pcapng strings carry no NUL).
        public init(code: UInt16, text: String) { self.init(code: code, value: Array(text.utf8)) }
    }

    /// A Section Header Block: version 1.0, section length unknown (-1), and `options`.
    public static func sectionHeader(options: [Option]) -> [UInt8] {
        block(type: sectionHeaderType, options: options) { writer in
            writer.write(byteOrderMagic)
            writer.write(UInt16(1))
            writer.write(UInt16(0))
            writer.write(UInt64.max)
        }
    }

    /// An Interface Description Block.
    public static func interfaceDescription(linkType: LinkType, snapLength: UInt32, options: [Option]) -> [UInt8] {
        block(type: interfaceDescriptionType, options: options) { writer in
            writer.write(linkType.rawValue)
            writer.write(UInt16(0))
            writer.write(snapLength)
        }
    }

    /// An Enhanced Packet Block with a timestamp in units of the interface's resolution (nanoseconds for
    /// rawcap's interfaces, which set if_tsresol 9), and `options` (e.g. an opt_comment).
    public static func enhancedPacket(
        interfaceID: UInt32, timestamp: UInt64, packet: [UInt8], options: [Option] = []
    ) -> [UInt8] {
        block(type: enhancedPacketType, options: options) { writer in
            writer.write(interfaceID)
            writer.write(UInt32(truncatingIfNeeded: timestamp >> 32))
            writer.write(UInt32(truncatingIfNeeded: timestamp))
            writer.write(UInt32(packet.count))
            writer.write(UInt32(packet.count))
            writer.write(bytes: packet)
            writer.write(bytes: repeatElement(UInt8(0), count: padding(packet.count)))
        }
    }

    /// The byte offset, within a Section Header Block built by ``sectionHeader(options:)``, of the value of the
    /// option at `index`: where a fixed-size value can be rewritten in place later.
    public static func sectionHeaderOptionValueOffset(options: [Option], index: Int) -> Int {
        var offset = 8 + 16  // type, length, magic, version, section length
        for option in options.prefix(index) { offset += 4 + option.value.count + padding(option.value.count) }
        return offset + 4
    }

    /// Bytes of padding after `count` bytes, to the next multiple of 4.
    static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }

    private static func block(type: UInt32, options: [Option], body: (inout WireWriter) -> Void) -> [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        writer.write(type)
        writer.write(UInt32(0))
        body(&writer)
        if !options.isEmpty {
            for option in options {
                writer.write(option.code)
                writer.write(UInt16(option.value.count))
                writer.write(bytes: option.value)
                writer.write(bytes: repeatElement(UInt8(0), count: padding(option.value.count)))
            }
            writer.write(UInt32(0))  // opt_endofopt
        }
        let total = UInt32(writer.count + 4)
        writer.write(total)
        writer.set(total, at: 4)
        return writer.bytes
    }
}
