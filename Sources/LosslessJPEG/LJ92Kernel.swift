/// A computation to run with the predictor and component count fixed at compile time: the encoder's two passes and
/// the scan decoder.
protocol LJ92KernelVisitor {
    /// What the computation returns.
    associatedtype Output
    /// Runs the computation; called once per stream (or scan) through ``LJ92Kernel/dispatch(_:predictor:components:)``.
    func visit<Predictor: LJ92PredictorKind, Components: LJ92ComponentCount>(
        _ predictor: Predictor.Type, _ components: Components.Type
    ) -> Output
}

/// The shared pieces of the hot loops.
///
/// The encoder and decoder kernels are generic over an ``LJ92PredictorKind`` and an ``LJ92ComponentCount``, so
/// each of the 7 × 4 combinations is compiled with the predictor inlined and the per-pixel component loop unrolled;
/// ``dispatch(_:predictor:components:)`` picks the specialisation once per stream rather than branching per sample.
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

    /// The second half of the dispatch: the component count, with the predictor already a type.
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
    /// magnitude as a signed 16-bit value, so −32768 (0x8000) is category 16. Also returns that signed value, from
    /// which the extra bits are taken (T.81 F.1.2.1.1).
    @inline(__always)
    static func category(ofDifference difference: Int32) -> (category: Int, signed: Int32) {
        let signed = Int32(Int16(truncatingIfNeeded: difference))
        let magnitude = UInt32(bitPattern: signed < 0 ? 0 &- signed : signed)
        // bitLength(m) = bitLength(2m + 1) − 1, and 2m + 1 is never zero, so the count needs no zero check (x86-64
        // without LZCNT otherwise pays for one around BSR).
        return (31 &- ((magnitude &<< 1) | 1).leadingZeroBitCount, signed)
    }
}
