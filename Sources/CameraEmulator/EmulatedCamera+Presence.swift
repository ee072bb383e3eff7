import PTP

/// Whether the emulated camera is on its link: a body that sleeps after an idle time or is switched off and on
/// leaves the USB bus or the network and comes back with the same serial number (`sleep-after=`,
/// `disappear-after=`, the `every=` schedule's power cycle and sleep). The camera only keeps the state; the device
/// sides and `rawcap sim serve`/`sim usb` act on it: a request over the old link is answered with
/// ``PTP/PTPLinkFault/drop`` (the cable pulled, the TCP connection closed), `sim usb` takes the device off the fake
/// bus while ``linkPresence()`` says `gone` and plugs a new one in (same serial, next address) when it says
/// `present`, and `sim serve` refuses PTP/IP clients meanwhile (``acceptsConnection()``).
extension EmulatedCamera {
    /// Whether the camera is on its link.
    public enum LinkPresence: Sendable, Equatable {
        /// On the bus or the network.
        case present
        /// Gone (asleep or switched off) until this instant.
        case gone(until: ContinuousClock.Instant)
    }

    /// The camera's presence now; an idle time past `sleep-after=` puts it to sleep here (so `sim usb`, which asks
    /// every few milliseconds, takes the device off the bus when the camera falls asleep, not when the host next
    /// asks).
    public func linkPresence() -> LinkPresence {
        let now = ContinuousClock.now
        if let until = presence.awayUntil {
            if now < until { return .gone(until: until) }
            comeBack()
        }
        if let sleep = faults.sleepAfter, now - presence.lastRequest >= sleep.idle {
            leaveLink(for: sleep.wake, asleep: true)
            return .gone(until: now + sleep.wake)
        }
        return .present
    }

    /// Whether a new host connection may be served now (PTP/IP's Init Command Request). A sleeping camera refuses
    /// it but wakes shortly after, as a body woken by a press does; a camera that is switched off just refuses.
    public func acceptsConnection() -> Bool {
        guard case .gone(let until) = linkPresence() else { return true }
        if presence.asleep {
            let soon = ContinuousClock.now + .milliseconds(300)
            if soon < until { presence.awayUntil = soon }
        }
        return false
    }

    /// How many times the camera left its link (slept or was switched off).
    public var departures: Int { presence.departures }

    /// Leaves the link for `duration`: the session ends (a camera that slept or lost power answers the next host
    /// with SessionNotOpen); the card and the settings stay.
    func leaveLink(for duration: Duration, asleep: Bool) {
        closeSessionState()
        presence.awayUntil = ContinuousClock.now + duration
        presence.asleep = asleep
        presence.departures += 1
    }

    private func comeBack() {
        presence.awayUntil = nil
        presence.asleep = false
        presence.lastRequest = ContinuousClock.now
    }

    /// Called first for every request: `nil` when the camera answers it, or what the transcript says when the
    /// request finds the camera gone (the link is dropped without an answer). Counts the request as activity.
    func presenceBeforeAnswering(_ request: PTPRequest) -> String? {
        if case .gone = linkPresence() {
            return presence.asleep ? "asleep: the link drops" : "switched off: the link drops"
        }
        if let duration = faults.takeScheduledSleep(request.code) {
            leaveLink(for: duration, asleep: true)
            return "every: falls asleep for \(duration)"
        }
        presence.lastRequest = ContinuousClock.now
        return nil
    }
}

/// What ``EmulatedCamera`` keeps about its presence on the link.
struct PresenceState: Sendable {
    /// When the camera comes back, while it is away.
    var awayUntil: ContinuousClock.Instant?
    /// Whether it is away because it sleeps (a knock wakes it) rather than switched off.
    var asleep = false
    /// The last request answered: the idle time counts from here.
    var lastRequest = ContinuousClock.now
    /// Times the camera left its link.
    var departures = 0
}
