extension CameraIdentity {
    /// Whether whole objects may be downloaded in GetPartialObject (0x101B) pieces when the camera lists it: not
    /// from a Fujifilm body. libgphoto2 reads Fujifilm objects with one GetObject ("FUJI seems unhappy about
    /// getpartialobject too", libgphoto2 issue 653; `library.c` `get_file_func` tests VendorExtensionID FUJI), and so
    /// does rawcap, for `shoot` (``Capture/CameraProfile`` `partialObjectDownloads`) and `pull`.
    public var allowsPartialObject: Bool { Self.allowsPartialObject(identification) }

    /// ``allowsPartialObject`` for a camera identified as `identification`.
    public static func allowsPartialObject(_ identification: CameraFamily.Identification) -> Bool {
        identification.vendor != .fujifilm
    }
}
