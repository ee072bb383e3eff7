#if canImport(Glibc)
    import Glibc
#endif

/// The sRGB transfer functions (IEC 61966-2-1:1999 §5.2): linear light ↔ encoded values, both on 0…1.
package enum SRGBTransfer {
    /// Linear → encoded (the "gamma" applied for display).
    @inline(__always)
    package static func encode(_ linear: Double) -> Double {
        guard linear > 0.003_130_8 else { return max(0, linear) * 12.92 }
        return 1.055 * pow(min(linear, 1), 1 / 2.4) - 0.055
    }

    /// Encoded → linear.
    @inline(__always)
    package static func decode(_ encoded: Double) -> Double {
        guard encoded > 0.040_45 else { return max(0, encoded) / 12.92 }
        return pow((min(encoded, 1) + 0.055) / 1.055, 2.4)
    }

    /// The linear value of each 8-bit code.
    package static let decodeTable8: [Float] = (0..<256).map { Float(decode(Double($0) / 255)) }
}
