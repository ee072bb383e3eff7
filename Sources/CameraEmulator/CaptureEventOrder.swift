/// In which order a shot's events go out: its ObjectAdded events and CaptureComplete.
///
/// ISO 15740 §12.5.14 says CaptureComplete comes after every ObjectAdded of the capture ("no more ObjectAdded events
/// will occur as the result of this asynchronous operation"). libgphoto2's generic capture (2.5.30, verified
/// against this emulator) reads events until CaptureComplete and returns only the last object announced before it;
/// an object announced after it reaches the caller as a new file. So with the standard order,
/// `gphoto2 --capture-image-and-download` of a RAW+JPEG shot downloads only the JPEG, as it does with real
/// cameras on gphoto2's generic path; ``gphoto2`` announces the raw file first, then CaptureComplete, then the
/// JPEG, and gphoto2 downloads both.
public enum CaptureEventOrder: String, Hashable, Sendable, CaseIterable {
    /// Every ObjectAdded, then CaptureComplete: the standard's order, and the default.
    case standard
    /// The first ObjectAdded, CaptureComplete, then the others: what libgphoto2's generic capture needs to see
    /// every object of a shot.
    case gphoto2
}
