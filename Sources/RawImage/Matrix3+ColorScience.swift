/// Matrix helpers for colour work: construction from finite values, scaling, diagonal matrices and chromatic
/// adaptation.
extension Matrix3 {
    /// Wraps nine row-major entries that the caller computed from finite inputs.
    package init(computed values: [Double]) {
        self.values = values
    }

    /// A diagonal matrix with `diagonal` on its diagonal.
    package static func diagonal(_ diagonal: (Double, Double, Double)) -> Matrix3 {
        Matrix3(computed: [diagonal.0, 0, 0, 0, diagonal.1, 0, 0, 0, diagonal.2])
    }

    /// Every entry multiplied by `factor`.
    package func scaled(by factor: Double) -> Matrix3 {
        Matrix3(computed: values.map { $0 * factor })
    }

    /// `weight × self + (1 − weight) × other`, entry by entry (DNG's interpolation between calibrations).
    func blended(with other: Matrix3, weight: Double) -> Matrix3 {
        Matrix3(computed: zip(values, other.values).map { weight * $0 + (1 - weight) * $1 })
    }

    /// Whether every entry is finite.
    var isFinite: Bool { values.allSatisfy(\.isFinite) }

    /// The linearised Bradford cone response matrix (Lam 1985; the form the DNG SDK's `MapWhiteMatrix` and
    /// ICC v4 Annex E use).
    static let bradfordConeResponse = Matrix3(computed: [
        0.8951, 0.2664, -0.1614,
        -0.7502, 1.7135, 0.0367,
        0.0389, -0.0685, 1.0296,
    ])

    /// The linear Bradford chromatic adaptation from colours seen under `source` white to the corresponding
    /// colours under `destination` white: XYZ in, XYZ out (DNG 1.7 §"Mapping Camera Color Space to CIE XYZ
    /// Space" adapts with it).
    package static func bradford(from source: Chromaticity, to destination: Chromaticity) -> Matrix3 {
        let cone = bradfordConeResponse
        // The cone matrix is a fixed, well-conditioned constant, so its inverse always exists.
        let coneInverse = cone.inverse ?? .identity
        let sourceCone = cone.apply(source.xyz)
        let destinationCone = cone.apply(destination.xyz)
        func ratio(_ a: Double, _ b: Double) -> Double { b > 0 ? max(a, 0) / b : 1 }
        let gains = Matrix3.diagonal(
            (
                ratio(destinationCone.0, sourceCone.0), ratio(destinationCone.1, sourceCone.1),
                ratio(destinationCone.2, sourceCone.2)
            ))
        return coneInverse * gains * cone
    }

    /// The sums of each row: the image of (1, 1, 1).
    package var rowSums: (Double, Double, Double) { apply((1, 1, 1)) }
}
