extension EmulatedCamera {
    /// A `reboot-after` fault fired: the camera restarts while the link breaks. Its session is gone whichever way
    /// the host was connected (a camera that lost power answers the next host with SessionNotOpen, not with the
    /// old transaction counter); the card and the settings persist, as in a camera's flash. Counted in
    /// ``rebootCount``.
    func restart() {
        closeSessionState()
        faults.rebootCount += 1
    }

    /// How many times a `reboot-after` fault restarted the camera.
    public var rebootCount: Int { faults.rebootCount }
}
