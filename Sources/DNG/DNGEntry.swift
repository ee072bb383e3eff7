import TIFFVocabulary

/// One IFD entry of a plan: a tag and its values, checked against the tag's type and count.
public struct DNGEntry: Hashable, Sendable, CustomStringConvertible {
    /// The tag.
    public let tag: TIFFTag
    /// Its values.
    public let value: DNGValue

    /// Creates an entry.
    ///
    /// - Throws: ``DNGError/Code/invalidPlan`` when the value's TIFF type is not the tag's, the count differs from the
    ///   count the tag requires, or the value is empty; ``DNGError/Code/doesNotFit`` when a value is out of its
    ///   type's range or the count exceeds a 32-bit TIFF count.
    public init(_ tag: TIFFTag, _ value: DNGValue) throws(DNGError) {
        guard value.type == tag.type else {
            throw DNGError(.invalidPlan, "\(tag) is \(tag.type), got \(value.type)")
        }
        guard value.count > 0 else { throw DNGError(.invalidPlan, "\(tag) has no values") }
        if let required = tag.count, required != value.count {
            throw DNGError(.invalidPlan, "\(tag) takes \(required) values, got \(value.count)")
        }
        guard UInt32(exactly: value.count) != nil else {
            throw DNGError(.doesNotFit, "\(tag) has \(value.count) values, more than a TIFF count holds")
        }
        try value.validate(for: tag)
        self.tag = tag
        self.value = value
    }

    /// `50717 WhiteLevel LONG[1] = 16383`.
    public var description: String {
        "\(tag.rawValue) \(tag.name) \(tag.type)[\(value.count)] = \(value)"
    }
}
