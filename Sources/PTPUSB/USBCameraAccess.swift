/// Whether rawcap can open a camera it found, as discovery's probe saw it.
public enum USBCameraAccess: Hashable, Sendable, CustomStringConvertible {
    /// Not probed (discovery was asked not to open devices).
    case notChecked
    /// It opened, and its interface is free (or held by a kernel driver that rawcap detaches).
    case available
    /// Opening the device node failed with `LIBUSB_ERROR_ACCESS`: the user lacks permission (see the udev rule).
    case permissionDenied
    /// Another program has claimed the interface (`LIBUSB_ERROR_BUSY`), typically gvfs's gphoto2 monitor.
    case busy
    /// Opening failed otherwise.
    case unavailable(LibUSBError)

    /// E.g. `permission denied`.
    public var description: String {
        switch self {
        case .notChecked: "not checked"
        case .available: "available"
        case .permissionDenied: "permission denied"
        case .busy: "in use by another program"
        case .unavailable(let error): "cannot be opened: \(error)"
        }
    }
}
