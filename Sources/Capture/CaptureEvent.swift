/// What a run reports as it goes, for a progress display and `--json` (``CaptureRunner``'s observer).
public enum CaptureEvent: Sendable {
    /// The run starts: how many frames (`nil`: until stopped), in which format, with the camera's name.
    case started(frames: Int?, format: String, camera: String)
    /// A frame is triggered (frame number from 1).
    case shotStarted(frame: Int)
    /// Bytes arrived from the camera.
    case bytesReceived(Int)
    /// A file is on disk.
    case saved(SavedFile)
    /// Something the user should know; the run goes on.
    case warning(String)
    /// The camera left the link; the run waits for it (`--reconnect`).
    case cameraLost(detail: String)
    /// The camera is back after this many seconds.
    case cameraBack(seconds: Double)
    /// A frame (number from 1) was not shot: it fell due while the camera was away, or was lost with it.
    case shotMissed(frame: Int, detail: String)
}
