import RawImage

/// One colour patch of the synthetic scene's test chart, with its reference colour.
///
/// The 24 patches are those of the ColorChecker Classic (McCamy, Marcus and Davidson, "A color-rendition
/// chart", J. Appl. Photogr. Eng. 2(3), 1976). Reference colours are the manufacturer's published 8-bit sRGB
/// values for the pre-November-2014 formulation, as tabulated in Wikipedia's "ColorChecker" article
/// (also in Pascale, "RGB coordinates of the Macbeth ColorChecker", BabelColor 2006). The synthetic scene treats
/// a patch's linearised sRGB value as its reflectance under D65, so rendering the patch with the right colour
/// pipeline gives back exactly these numbers.
public struct ChartPatch: Hashable, Sendable, CustomStringConvertible {
    /// The patch's name, e.g. "dark skin".
    public let name: String
    /// The reference sRGB colour, 8 bits per channel (R, G, B).
    public let sRGB: [UInt8]

    init(_ name: String, _ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.name = name
        self.sRGB = [red, green, blue]
    }

    /// The reference colour as linear sRGB (0…1), i.e. the patch's reflectance in the sRGB primaries.
    public var linearSRGB: (Double, Double, Double) {
        (
            SRGBTransfer.decode(Double(sRGB[0]) / 255), SRGBTransfer.decode(Double(sRGB[1]) / 255),
            SRGBTransfer.decode(Double(sRGB[2]) / 255)
        )
    }

    /// The patch's CIE XYZ under D65 (Y = 1 for a perfect white diffuser).
    public var xyzD65: (Double, Double, Double) { Matrix3.sRGBToXYZ.apply(linearSRGB) }

    /// Whether the patch is one of the six greys of the bottom row.
    public var isNeutral: Bool { sRGB[0] == sRGB[1] && abs(Int(sRGB[1]) - Int(sRGB[2])) <= 1 }

    public var description: String { name }

    /// The 24 patches in reading order: four rows of six, dark skin at the top left, black at the bottom right.
    public static let colorChecker: [ChartPatch] = [
        ChartPatch("dark skin", 115, 82, 68),
        ChartPatch("light skin", 194, 150, 130),
        ChartPatch("blue sky", 98, 122, 157),
        ChartPatch("foliage", 87, 108, 67),
        ChartPatch("blue flower", 133, 128, 177),
        ChartPatch("bluish green", 103, 189, 170),
        ChartPatch("orange", 214, 126, 44),
        ChartPatch("purplish blue", 80, 91, 166),
        ChartPatch("moderate red", 193, 90, 99),
        ChartPatch("purple", 94, 60, 108),
        ChartPatch("yellow green", 157, 188, 64),
        ChartPatch("orange yellow", 224, 163, 46),
        ChartPatch("blue", 56, 61, 150),
        ChartPatch("green", 70, 148, 73),
        ChartPatch("red", 175, 54, 60),
        ChartPatch("yellow", 231, 199, 31),
        ChartPatch("magenta", 187, 86, 149),
        ChartPatch("cyan", 8, 133, 161),
        ChartPatch("white 9.5", 243, 243, 242),
        ChartPatch("neutral 8", 200, 200, 200),
        ChartPatch("neutral 6.5", 160, 160, 160),
        ChartPatch("neutral 5", 122, 122, 121),
        ChartPatch("neutral 3.5", 85, 85, 85),
        ChartPatch("black 2", 52, 52, 52),
    ]
}
