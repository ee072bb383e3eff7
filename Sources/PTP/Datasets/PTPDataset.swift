import WireFormat

/// A PTP dataset: a value that travels as the data phase of an operation, decoded and encoded side by side.
///
/// Conforming types read themselves from a ``WireFormat/WireReader`` (always little-endian for PTP) and write
/// themselves to a ``WireFormat/WireWriter``; the two halves sit next to each other in the type's file, and the
/// doc comment cites the spec table. `init(ptpEncoded:quirks:)` decodes a whole data phase and rejects trailing
/// bytes, as swift-asn1's `init(derEncoded:)` does.
public protocol PTPDataset: Sendable {
    /// Reads the dataset from `reader`, which may hold more bytes after it; `quirks` relax the spec where named.
    init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError)
    /// Appends the dataset's spec encoding to `writer`.
    func encode(into writer: inout WireWriter)
}

extension PTPDataset {
    /// Reads the dataset from `reader` with no quirks.
    public init(from reader: inout WireReader) throws(WireError) {
        try self.init(from: &reader, quirks: [])
    }

    /// Decodes a whole data phase: the dataset must use every byte (``WireFormat/WireError/Code/trailingBytes``
    /// otherwise).
    public init(ptpEncoded bytes: ArraySlice<UInt8>, quirks: PTPQuirks = []) throws(WireError) {
        var reader = WireReader(bytes, byteOrder: .little)
        try self.init(from: &reader, quirks: quirks)
        try reader.expectEnd("\(Self.self)")
    }

    /// Decodes a whole data phase held in an array.
    public init(ptpEncoded bytes: [UInt8], quirks: PTPQuirks = []) throws(WireError) {
        try self.init(ptpEncoded: bytes[...], quirks: quirks)
    }

    /// The dataset's spec encoding.
    public var ptpEncoded: [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        encode(into: &writer)
        return writer.bytes
    }
}

extension WireReader {
    /// Reads a PTP array of 16-bit codes (a `UInt32` count, then the codes) into a code table type.
    mutating func readCodeArray<Code: PTPCodeTable>(of _: Code.Type) throws(WireError) -> [Code] {
        try readArray(of: UInt16.self).map { Code(rawValue: $0) }
    }
}

extension WireWriter {
    /// Writes a PTP array of 16-bit codes.
    mutating func writeCodeArray<Code: PTPCodeTable>(_ codes: [Code]) {
        writeArray(codes.map(\.rawValue))
    }
}
