import WireFormat

/// Reads the packets of a pcap or pcapng file, one at a time, with every length checked before anything is
/// allocated.
///
/// - pcap (the libpcap format): both byte orders, microsecond and nanosecond timestamps; one interface.
/// - pcapng (draft-ietf-opsawg-pcapng): any number of sections, each in its own byte order; Interface Description
///   Blocks with their link type, `if_tsresol` and `if_tsoffset`; Enhanced, Simple and (obsolete) Packet Blocks.
///   Other blocks (name resolution, statistics, custom, decryption secrets) are skipped.
///
/// A file that breaks the format throws ``PcapError`` with the offset of the block or record at fault.
public struct CaptureFileReader {
    /// Which format the file is in.
    public enum Format: Sendable, Hashable {
        /// libpcap's format.
        case pcap
        /// pcapng.
        case pcapng
    }

    private struct Interface {
        var linkType: LinkType
        var snapLength: UInt32
        /// Timestamp units per second as a power: decimal exponent (10^-n) or binary exponent (2^-n).
        var resolution: Resolution
        var offsetSeconds: Int64
    }

    private enum Resolution {
        case decimal(UInt8)
        case binary(UInt8)
    }

    /// The file's format.
    public let format: Format
    /// Comments of the section headers read so far (rawcap writes its version and the camera model there).
    public private(set) var sectionComments: [String] = []
    /// The shb_userappl option of the first section, when there is one.
    public private(set) var userApplication: String?

    private let source: any CaptureSource
    private var offset: UInt64 = 0
    private var byteOrder: ByteOrder
    private var interfaces: [Interface] = []
    private var pcapNanoseconds = false

    /// Opens a capture: reads the magic number and, for pcap, the file header.
    ///
    /// - Throws: ``PcapError/Code/unknownFormat`` when the file is neither pcap nor pcapng; the usual
    ///   truncation and version errors.
    public init(source: any CaptureSource) throws(PcapError) {
        self.source = source
        guard source.byteCount >= 4 else {
            throw PcapError(.unknownFormat, at: 0, "\(source.byteCount) bytes are too few for any capture format")
        }
        let magic = try source.read(at: 0, count: 4)
        switch magic {
        case [0x0A, 0x0D, 0x0D, 0x0A]:
            format = .pcapng
            byteOrder = .little  // decided by each Section Header Block
        case [0xD4, 0xC3, 0xB2, 0xA1], [0x4D, 0x3C, 0xB2, 0xA1]:
            format = .pcap
            byteOrder = .little
        case [0xA1, 0xB2, 0xC3, 0xD4], [0xA1, 0xB2, 0x3C, 0x4D]:
            format = .pcap
            byteOrder = .big
        default:
            let hex = magic.map { String($0, radix: 16) }.joined(separator: " ")
            throw PcapError(.unknownFormat, at: 0, "magic \(hex) is neither pcap nor pcapng")
        }
        if format == .pcap { try readPcapHeader(magic) }
    }

    /// Opens the capture file at `path`.
    public init(path: String) throws(PcapError) {
        try self.init(source: try FileCaptureSource(path: path))
    }

    /// The next packet, or `nil` at the end of the file.
    public mutating func next() throws(PcapError) -> CapturedPacket? {
        switch format {
        case .pcap: try nextPcapRecord()
        case .pcapng: try nextPcapngPacket()
        }
    }

    // MARK: pcap

    private mutating func readPcapHeader(_ magic: [UInt8]) throws(PcapError) {
        let header = try source.read(at: 0, count: 24)
        var reader = WireReader(header, byteOrder: byteOrder)
        let magicValue = Self.read(UInt32.self, &reader)
        pcapNanoseconds = magicValue == 0xA1B2_3C4D
        let major = Self.read(UInt16.self, &reader)
        guard major == 2 else { throw PcapError(.unsupportedVersion, at: 0, "pcap version \(major)") }
        _ = Self.read(UInt16.self, &reader)
        _ = Self.read(Int32.self, &reader)
        _ = Self.read(UInt32.self, &reader)
        let snapLength = Self.read(UInt32.self, &reader)
        // The link type is in the low 16 bits; the high bits carry FCS information.
        let linkType = LinkType(rawValue: UInt16(truncatingIfNeeded: Self.read(UInt32.self, &reader)))
        interfaces = [
            Interface(
                linkType: linkType, snapLength: snapLength, resolution: .decimal(pcapNanoseconds ? 9 : 6),
                offsetSeconds: 0)
        ]
        offset = 24
    }

    private mutating func nextPcapRecord() throws(PcapError) -> CapturedPacket? {
        guard offset < source.byteCount else { return nil }
        let recordOffset = offset
        guard source.byteCount - offset >= 16 else {
            throw PcapError(.truncated, at: recordOffset, "record header cut after \(source.byteCount - offset) bytes")
        }
        var reader = WireReader(try source.read(at: offset, count: 16), byteOrder: byteOrder)
        let seconds = UInt64(Self.read(UInt32.self, &reader))
        let fraction = UInt64(Self.read(UInt32.self, &reader))
        let capturedLength = Self.read(UInt32.self, &reader)
        let originalLength = Self.read(UInt32.self, &reader)
        guard capturedLength <= UInt32(CaptureLimits.maxBlockByteCount) else {
            throw PcapError(.limitExceeded, at: recordOffset, "record of \(capturedLength) bytes")
        }
        let data = try source.read(at: offset + 16, count: Int(capturedLength))
        offset += 16 + UInt64(capturedLength)
        let nanoseconds = seconds &* 1_000_000_000 &+ (pcapNanoseconds ? fraction : fraction &* 1000)
        return CapturedPacket(
            interfaceIndex: 0, linkType: interfaces[0].linkType, byteOrder: byteOrder,
            timestampNanoseconds: nanoseconds, data: data, originalLength: originalLength, blockOffset: recordOffset)
    }

    // MARK: pcapng

    private mutating func nextPcapngPacket() throws(PcapError) -> CapturedPacket? {
        while offset < source.byteCount {
            let blockOffset = offset
            guard source.byteCount - offset >= 12 else {
                throw PcapError(
                    .truncated, at: blockOffset, "block header cut after \(source.byteCount - offset) bytes")
            }
            let head = try source.read(at: offset, count: 12)
            if head[0..<4] == [0x0A, 0x0D, 0x0D, 0x0A] {
                byteOrder =
                    switch Array(head[8..<12]) {
                    case [0x4D, 0x3C, 0x2B, 0x1A]: .little
                    case [0x1A, 0x2B, 0x3C, 0x4D]: .big
                    default: throw PcapError(.malformed, at: blockOffset, "section header without byte-order magic")
                    }
            }
            var headReader = WireReader(head, byteOrder: byteOrder)
            let type = Self.read(UInt32.self, &headReader)
            let length = Self.read(UInt32.self, &headReader)
            guard length >= 12, length % 4 == 0 else {
                throw PcapError(.malformed, at: blockOffset, "block length \(length) (at least 12, a multiple of 4)")
            }
            guard length <= UInt32(CaptureLimits.maxBlockByteCount) else {
                throw PcapError(.limitExceeded, at: blockOffset, "block of \(length) bytes")
            }
            guard UInt64(length) <= source.byteCount - offset else {
                throw PcapError(
                    .truncated, at: blockOffset, "block of \(length) bytes, \(source.byteCount - offset) left")
            }
            let block = try source.read(at: offset, count: Int(length))
            var trailer = WireReader(block[(block.count - 4)...], byteOrder: byteOrder)
            guard Self.read(UInt32.self, &trailer) == length else {
                throw PcapError(.malformed, at: blockOffset, "trailing block length differs from \(length)")
            }
            offset += UInt64(length)
            var body = WireReader(block[8..<(block.count - 4)], byteOrder: byteOrder)
            do {
                if let packet = try readBlock(type: type, body: &body, at: blockOffset) { return packet }
            } catch let error as WireError {
                throw PcapError(.malformed, at: blockOffset, "block type 0x\(String(type, radix: 16)): \(error)")
            } catch let error as PcapError {
                throw error
            } catch {
                throw PcapError(.malformed, at: blockOffset, "\(error)")
            }
        }
        return nil
    }

    private mutating func readBlock(type: UInt32, body: inout WireReader, at blockOffset: UInt64) throws
        -> CapturedPacket?
    {
        switch type {
        case PcapngEncoder.sectionHeaderType:
            try body.skip(4)  // byte-order magic, already read
            let major = try body.read(UInt16.self)
            _ = try body.read(UInt16.self)
            _ = try body.read(Int64.self)
            guard major == 1 else { throw PcapError(.unsupportedVersion, at: blockOffset, "pcapng version \(major)") }
            interfaces = []
            for (code, value) in try Self.options(&body) {
                if code == PcapngEncoder.Option.comment {
                    sectionComments.append(Self.text(value))
                } else if code == PcapngEncoder.Option.userApplication, userApplication == nil {
                    userApplication = Self.text(value)
                }
            }
            return nil
        case PcapngEncoder.interfaceDescriptionType:
            guard interfaces.count < CaptureLimits.maxInterfaceCount else {
                throw PcapError(
                    .limitExceeded, at: blockOffset, "more than \(CaptureLimits.maxInterfaceCount) interfaces")
            }
            let linkType = LinkType(rawValue: try body.read(UInt16.self))
            _ = try body.read(UInt16.self)
            let snapLength = try body.read(UInt32.self)
            var interface = Interface(
                linkType: linkType, snapLength: snapLength, resolution: .decimal(6), offsetSeconds: 0)
            for (code, value) in try Self.options(&body) {
                if code == PcapngEncoder.Option.timestampResolution, let byte = value.first {
                    interface.resolution = byte & 0x80 == 0 ? .decimal(byte) : .binary(byte & 0x7F)
                } else if code == 14, value.count == 8 {
                    var reader = WireReader(value, byteOrder: body.byteOrder)
                    interface.offsetSeconds = try reader.read(Int64.self)
                }
            }
            interfaces.append(interface)
            return nil
        case PcapngEncoder.enhancedPacketType, 2:
            let index: Int
            if type == 2 {
                index = Int(try body.read(UInt16.self))
                _ = try body.read(UInt16.self)  // drops count
            } else {
                index = Int(try body.read(UInt32.self))
            }
            guard index < interfaces.count else {
                throw PcapError(.malformed, at: blockOffset, "packet on interface \(index) of \(interfaces.count)")
            }
            let high = UInt64(try body.read(UInt32.self))
            let low = UInt64(try body.read(UInt32.self))
            let capturedLength = Int(try body.read(UInt32.self))
            let originalLength = try body.read(UInt32.self)
            guard capturedLength <= body.remainingCount else {
                throw PcapError(.malformed, at: blockOffset, "captured length \(capturedLength) exceeds the block")
            }
            let data = Array(try body.readBytes(count: capturedLength))
            var comments: [String] = []
            if type == PcapngEncoder.enhancedPacketType {
                try body.skip(min(body.remainingCount, PcapngEncoder.padding(capturedLength)))
                // Options of other tools' packets are optional extras: a malformed one costs only the comments.
                for (code, value) in (try? Self.options(&body)) ?? [] where code == PcapngEncoder.Option.comment {
                    comments.append(Self.text(value))
                }
            }
            return CapturedPacket(
                interfaceIndex: index, linkType: interfaces[index].linkType, byteOrder: body.byteOrder,
                timestampNanoseconds: Self.nanoseconds(high << 32 | low, interfaces[index]), data: data,
                originalLength: originalLength, blockOffset: blockOffset, comments: comments)
        case PcapngEncoder.simplePacketType:
            guard let interface = interfaces.first else {
                throw PcapError(.malformed, at: blockOffset, "simple packet before any interface")
            }
            let originalLength = try body.read(UInt32.self)
            var capturedLength = min(Int(originalLength), body.remainingCount)
            if interface.snapLength > 0 { capturedLength = min(capturedLength, Int(interface.snapLength)) }
            let data = Array(try body.readBytes(count: capturedLength))
            return CapturedPacket(
                interfaceIndex: 0, linkType: interface.linkType, byteOrder: body.byteOrder, timestampNanoseconds: 0,
                data: data, originalLength: originalLength, blockOffset: blockOffset)
        default:
            return nil
        }
    }

    /// Reads options (code, value) until opt_endofopt or the end of the block body.
    private static func options(_ reader: inout WireReader) throws(WireError) -> [(UInt16, [UInt8])] {
        var options: [(UInt16, [UInt8])] = []
        while reader.remainingCount >= 4 {
            let code = try reader.read(UInt16.self)
            let length = Int(try reader.read(UInt16.self))
            if code == 0 { break }
            let value = Array(try reader.readBytes(count: length))
            try reader.skip(min(reader.remainingCount, PcapngEncoder.padding(length)))
            options.append((code, value))
        }
        return options
    }

    private static func text(_ value: [UInt8]) -> String {
        String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A timestamp in the interface's units, as nanoseconds since the epoch (saturating, never trapping).
    private static func nanoseconds(_ timestamp: UInt64, _ interface: Interface) -> UInt64 {
        var value: UInt64
        switch interface.resolution {
        case .decimal(let exponent) where exponent <= 9:
            var factor: UInt64 = 1
            for _ in 0..<(9 - exponent) { factor *= 10 }
            let (product, overflow) = timestamp.multipliedReportingOverflow(by: factor)
            value = overflow ? .max : product
        case .decimal(let exponent):
            var divisor: UInt64 = 1
            for _ in 0..<min(19, exponent - 9) { divisor *= 10 }
            value = timestamp / divisor
        case .binary(let exponent):
            let (high, low) = timestamp.multipliedFullWidth(by: 1_000_000_000)
            let shift = UInt64(min(exponent, 127))
            if shift >= 64 {
                value = shift >= 128 ? 0 : high >> (shift - 64)
            } else if shift == 0 {
                value = high == 0 ? low : .max
            } else {
                value = high >> shift == 0 ? (high << (64 - shift)) | (low >> shift) : .max
            }
        }
        let offset = interface.offsetSeconds.multipliedReportingOverflow(by: 1_000_000_000)
        if !offset.overflow {
            value =
                offset.partialValue >= 0
                ? value.addingReportingOverflow(UInt64(offset.partialValue)).partialValue
                : value &- min(value, offset.partialValue.magnitude)
        }
        return value
    }

    /// Reads from a reader whose size was checked by the caller.
    private static func read<T: FixedWidthInteger>(_: T.Type, _ reader: inout WireReader) -> T {
        (try? reader.read(T.self)) ?? 0
    }
}
