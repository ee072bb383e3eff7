/// A lossless JPEG predictor selection value: how a sample is predicted from its reconstructed neighbours
/// (ITU T.81 Table H.1; the scan header's `Ss` field).
///
/// `Ra` is the sample to the left, `Rb` the one above and `Rc` the one above-left, all of the same component.
/// Predictions use full integer precision; the halvings of 5, 6 and 7 are arithmetic right shifts (T.81 H.1.2.1).
/// Selection value 0 exists only for hierarchical differential coding and is not a valid predictor here.
///
/// DNG writers use ``left`` (1): Adobe's SDK hard-codes it and rawspeed rejects 6 and 7.
public struct LJ92Predictor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The selection value as written in the scan header.
    public let rawValue: UInt8
    /// Wraps a selection value; ``isValid`` says whether it is one of 1…7.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 1: Px = Ra.
    public static let left = LJ92Predictor(rawValue: 1)
    /// 2: Px = Rb.
    public static let above = LJ92Predictor(rawValue: 2)
    /// 3: Px = Rc.
    public static let aboveLeft = LJ92Predictor(rawValue: 3)
    /// 4: Px = Ra + Rb − Rc.
    public static let gradient = LJ92Predictor(rawValue: 4)
    /// 5: Px = Ra + ((Rb − Rc) >> 1).
    public static let leftPlusHalfVerticalGradient = LJ92Predictor(rawValue: 5)
    /// 6: Px = Rb + ((Ra − Rc) >> 1).
    public static let abovePlusHalfHorizontalGradient = LJ92Predictor(rawValue: 6)
    /// 7: Px = (Ra + Rb) >> 1.
    public static let average = LJ92Predictor(rawValue: 7)

    /// All seven predictors of T.81 Table H.1, in selection-value order.
    public static let allValid: [LJ92Predictor] = (1...7).map { LJ92Predictor(rawValue: $0) }

    /// Whether the value is one of T.81's lossless predictors 1…7.
    public var isValid: Bool { (1...7).contains(rawValue) }

    public var description: String {
        switch rawValue {
        case 1: "left(1)"
        case 2: "above(2)"
        case 3: "aboveLeft(3)"
        case 4: "gradient(4)"
        case 5: "leftPlusHalfVerticalGradient(5)"
        case 6: "abovePlusHalfHorizontalGradient(6)"
        case 7: "average(7)"
        default: "Unknown(0x\(hexByte(rawValue)))"
        }
    }

    /// The prediction for a sample whose left, above and above-left neighbours are `ra`, `rb` and `rc`; only for
    /// samples that have all three (not the first row of a scan or restart interval, not the first column).
    @inlinable
    public func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 {
        switch rawValue {
        case 1: ra
        case 2: rb
        case 3: rc
        case 4: ra &+ rb &- rc
        case 5: ra &+ ((rb &- rc) >> 1)
        case 6: rb &+ ((ra &- rc) >> 1)
        case 7: (ra &+ rb) >> 1
        default: ra
        }
    }
}
