import PTP

extension PropertyCatalog {
    /// Sony's meanings of standard codes, ahead of the standard entries so they win on Sony bodies: image quality is
    /// CompressionSetting (0x5004, UINT8) with Sony's own values (enumeration [2, 3, 4, 16, 19] in the
    /// `gphoto2 --summary` of Sony bodies in libgphoto2's `camlibs/ptp2/cameras/`): 2 Standard, 3 Fine and 4 Extra
    /// Fine JPEG, 0x10 RAW, 0x13 RAW+JPEG. (The generic table reads 4 as RAW, which on a Sony is a JPEG.)
    public static let sonyProperties: [PropertyDefinition] = [
        PropertyDefinition(
            name: "quality", aliases: ["image-quality", "imagequality", "compression"], code: .compressionSetting,
            style: .choices([
                .init(2, "jpeg-standard"), .init(3, "jpeg", aliases: ["jpeg-fine"]), .init(4, "jpeg-extra-fine"),
                .init(0x10, "raw"), .init(0x13, "raw+jpeg"),
            ]),
            summary: "Image quality: raw, raw+jpeg, jpeg (Sony's values)", vendors: [.sony])
    ]
}
