// Compile-time predictor and component-count types for the hot loops. The encoder and decoder kernels are
// generic over both, so each of the 7 × 4 combinations is specialised with the predictor inlined and the
// per-pixel component loop unrolled; `LJ92Kernel.dispatch` picks the specialisation once per stream.

/// A predictor of T.81 Table H.1 as a type, so a kernel generic over it inlines the arithmetic.
protocol LJ92PredictorKind {
    static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32
}

enum PredictorRa: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { ra }
}
enum PredictorRb: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { rb }
}
enum PredictorRc: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { rc }
}
enum PredictorGradient: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { ra &+ rb &- rc }
}
enum PredictorRaHalfGradient: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { ra &+ ((rb &- rc) >> 1) }
}
enum PredictorRbHalfGradient: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { rb &+ ((ra &- rc) >> 1) }
}
enum PredictorAverage: LJ92PredictorKind {
    @inline(__always) static func predict(ra: Int32, rb: Int32, rc: Int32) -> Int32 { (ra &+ rb) >> 1 }
}

/// A number of interleaved components (1…4) as a type, so per-pixel loops over components unroll.
protocol LJ92ComponentCount {
    static var count: Int { get }
    /// Calls `body` with 0, 1, … count − 1, written out so that each call sees a constant index.
    static func forEach(_ body: (Int) -> Void)
}

enum OneComponent: LJ92ComponentCount {
    static var count: Int { 1 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) { body(0) }
}
enum TwoComponents: LJ92ComponentCount {
    static var count: Int { 2 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) {
        body(0)
        body(1)
    }
}
enum ThreeComponents: LJ92ComponentCount {
    static var count: Int { 3 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) {
        body(0)
        body(1)
        body(2)
    }
}
enum FourComponents: LJ92ComponentCount {
    static var count: Int { 4 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) {
        body(0)
        body(1)
        body(2)
        body(3)
    }
}

/// A computation to run with the predictor and component count fixed at compile time.
protocol LJ92KernelVisitor {
    associatedtype Output
    func visit<Predictor: LJ92PredictorKind, Components: LJ92ComponentCount>(
        _ predictor: Predictor.Type, _ components: Components.Type
    ) -> Output
}

enum LJ92Kernel {
    /// Runs `visitor` specialised for `predictor` (1…7) and `components` (1…4); callers validate both first.
    static func dispatch<Visitor: LJ92KernelVisitor>(
        _ visitor: Visitor, predictor: LJ92Predictor, components: Int
    ) -> Visitor.Output {
        switch predictor.rawValue {
        case 2: dispatch(visitor, PredictorRb.self, components: components)
        case 3: dispatch(visitor, PredictorRc.self, components: components)
        case 4: dispatch(visitor, PredictorGradient.self, components: components)
        case 5: dispatch(visitor, PredictorRaHalfGradient.self, components: components)
        case 6: dispatch(visitor, PredictorRbHalfGradient.self, components: components)
        case 7: dispatch(visitor, PredictorAverage.self, components: components)
        default: dispatch(visitor, PredictorRa.self, components: components)
        }
    }

    private static func dispatch<Visitor: LJ92KernelVisitor, Predictor: LJ92PredictorKind>(
        _ visitor: Visitor, _ predictor: Predictor.Type, components: Int
    ) -> Visitor.Output {
        switch components {
        case 2: visitor.visit(predictor, TwoComponents.self)
        case 3: visitor.visit(predictor, ThreeComponents.self)
        case 4: visitor.visit(predictor, FourComponents.self)
        default: visitor.visit(predictor, OneComponent.self)
        }
    }

    /// The difference category SSSS of a difference taken modulo 2^16 (T.81 Table H.2): the bit length of its
    /// magnitude as a signed 16-bit value, so −32768 (0x8000) is category 16.
    @inline(__always)
    static func category(ofDifference difference: Int32) -> (category: Int, signed: Int32) {
        let signed = Int32(Int16(truncatingIfNeeded: difference))
        let magnitude = UInt32(bitPattern: signed < 0 ? 0 &- signed : signed)
        // bitLength(m) = bitLength(2m + 1) − 1, and 2m + 1 is never zero, so the count needs no zero check (x86-64
        // without LZCNT otherwise pays for one around BSR).
        return (31 &- ((magnitude &<< 1) | 1).leadingZeroBitCount, signed)
    }
}
