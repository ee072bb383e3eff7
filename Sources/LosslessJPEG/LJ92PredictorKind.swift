/// A predictor of T.81 Table H.1 as a type, so a kernel generic over it inlines the arithmetic.
///
/// Each of the seven selection values has a caseless enum below; `LJ92Kernel.dispatch` maps an
/// ``LJ92Predictor`` to one of them once per stream. Arithmetic wraps (`&+`): samples are at most 16 bits, so the
/// 32-bit results are exact, and T.81 H.1.2.1 asks for no clamping.
protocol LJ92PredictorKind {
    /// Px from the reconstructed left (`ra`), above (`rb`) and above-left (`rc`) samples.
    static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32
}

extension LJ92PredictorKind {
    /// The prediction for the sample at `position` of row `current`, whose neighbours of the same component are
    /// `componentStride` samples to the left and in row `above`. Only for samples that have all three neighbours.
    @inline(__always)
    static func predict(
        _ current: UnsafePointer<UInt16>, _ above: UnsafePointer<UInt16>, at position: Int, componentStride: Int
    ) -> Int32 {
        predict(
            ra: Int32(current[position &- componentStride]), rb: Int32(above[position]),
            rc: Int32(above[position &- componentStride]))
    }
}

/// Selection value 1: Px = Ra.
enum PredictorRa: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { ra }
}

/// Selection value 2: Px = Rb.
enum PredictorRb: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { rb }
}

/// Selection value 3: Px = Rc.
enum PredictorRc: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { rc }
}

/// Selection value 4: Px = Ra + Rb − Rc.
enum PredictorGradient: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { ra &+ rb &- rc }
}

/// Selection value 5: Px = Ra + ((Rb − Rc) >> 1), an arithmetic shift (T.81 H.1.2.1).
enum PredictorRaHalfGradient: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { ra &+ ((rb &- rc) >> 1) }
}

/// Selection value 6: Px = Rb + ((Ra − Rc) >> 1), an arithmetic shift (T.81 H.1.2.1).
enum PredictorRbHalfGradient: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { rb &+ ((ra &- rc) >> 1) }
}

/// Selection value 7: Px = (Ra + Rb) >> 1, computed on 17 bits so 16-bit samples do not overflow (T.81 H.1.2.1).
enum PredictorAverage: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { (ra &+ rb) >> 1 }
}
