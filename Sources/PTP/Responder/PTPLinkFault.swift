/// A link-level failure a ``PTPResponder`` asks its device side to commit while answering one operation.
///
/// Some faults cannot be expressed in PTP semantics: a stalled endpoint or a dropped connection happens below the
/// responder, in the framing. A responder that decides per transaction (an emulated camera whose cable "breaks" after
/// a number of bytes, or whose bulk IN endpoint halts on the next GetObject) sets ``PTPResponderReply/linkFault``,
/// and ``USBDeviceSide`` or ``PTPIPDeviceSide`` carries it out in its own terms. A fault injected into the device
/// side directly (``USBDeviceSide/inject(_:on:)``) takes precedence for that transaction.
public enum PTPLinkFault: Sendable, Hashable {
    /// USB: stall bulk IN instead of sending the data phase and response (``USBDeviceSide/Fault/stallBulkIn``);
    /// PTP/IP, which has no stall: close the connection without answering.
    case stall
    /// Send this many payload bytes of the data phase, then break the link for good (a cable pull, a reset TCP
    /// connection); the host receives exactly those bytes. A reply without a data phase is sent normally.
    case disconnect(afterBytes: Int)
    /// Break the link now, without answering this request: the camera left the bus or the network (switched off,
    /// asleep). USB: the cable is pulled; PTP/IP: the connection closes.
    case drop
}
