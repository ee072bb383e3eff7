/// A number of interleaved components (1…4) as a type, so per-pixel loops over components unroll.
///
/// In DNG's CFA layout the count is 2 (each JPEG pixel is a horizontal pair of sensor pixels); LinearRaw uses 3.
protocol LJ92ComponentCount {
    /// The number of components.
    static var count: Int { get }
    /// Calls `body` with 0, 1, … count − 1, written out so that each call sees a constant index.
    static func forEach(_ body: (Int) -> Void)
}

/// One component: monochrome data, or a CFA stored one sample per JPEG pixel.
enum OneComponent: LJ92ComponentCount {
    static var count: Int { 1 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) { body(0) }
}

/// Two components: DNG's CFA layout (Adobe's SDK, dnglab).
enum TwoComponents: LJ92ComponentCount {
    static var count: Int { 2 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) {
        body(0)
        body(1)
    }
}

/// Three components: LinearRaw RGB.
enum ThreeComponents: LJ92ComponentCount {
    static var count: Int { 3 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) {
        body(0)
        body(1)
        body(2)
    }
}

/// Four components: the most a lossless JPEG frame may interleave in one scan (T.81 B.2.3, Ns ≤ 4).
enum FourComponents: LJ92ComponentCount {
    static var count: Int { 4 }
    @inline(__always) static func forEach(_ body: (Int) -> Void) {
        body(0)
        body(1)
        body(2)
        body(3)
    }
}
