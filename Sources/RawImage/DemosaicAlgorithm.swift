/// How a colour filter array is interpolated to full colour.
public enum DemosaicAlgorithm: String, Hashable, Sendable, CaseIterable, Codable {
    /// Each missing colour is the mean of its nearest photosites of that colour: the 2 or 4 neighbours on a
    /// Bayer sensor, the same-colour photosites of the 5×5 window on X-Trans. Fast, soft, and a reference for
    /// measuring the others.
    case bilinear
    /// The best rawcap has. Bayer: Malvar–He–Cutler gradient-corrected linear interpolation (Malvar, He and
    /// Cutler, "High-quality linear interpolation for demosaicing of Bayer-patterned color images", ICASSP
    /// 2004): 5×5 kernels that add a fraction of the current colour's Laplacian to bilinear estimates, about
    /// 5.5 dB better than bilinear. X-Trans and any other RGB pattern: colour-difference interpolation: green
    /// first, as the mean of the greens in the 3×3 window (every X-Trans 3×3 window has greens), then red and
    /// blue as green plus the mean of `R − G` (or `B − G`) over the red (blue) photosites of the 5×5 window,
    /// which follows edges much better than averaging red and blue directly.
    case highQuality
}
