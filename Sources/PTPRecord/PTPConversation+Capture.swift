import PTP

extension PTPConversation {
    /// Rebuilds the PTP conversation in a pcap or pcapng capture: USB (usbmon, USBPcap) or PTP/IP (Ethernet, raw IP,
    /// Linux cooked captures), whichever holds more requests.
    ///
    /// - Throws: ``PcapError`` when the file is not valid pcap/pcapng; ``RecordError`` when the traffic in it does
    ///   not frame as PTP (with the offset of the block where it broke), when a TCP stream has a hole, or
    ///   ``RecordError/Code/noPTPTraffic`` when there is no PTP at all.
    public init(capture source: any CaptureSource) throws {
        var reader = try CaptureFileReader(source: source)
        var usb = USBCaptureDecoder()
        var ptpip = PTPIPCaptureDecoder()
        var cutComments: [String] = []
        while let packet = try reader.next() {
            if cutComments.count < CaptureLimits.maxTransactionCount {
                cutComments += packet.comments.filter { $0.hasPrefix(DataPhaseCut.commentPrefix) }
            }
            if packet.linkType.isUSB {
                try usb.add(packet)
            } else {
                try ptpip.add(packet)
            }
        }
        try ptpip.finish()
        let usbConversation = try usb.conversation()
        let ptpipRequests = ptpip.messages.filter { if case .request = $0.message { true } else { false } }.count
        let usbRequests =
            usbConversation?.messages.filter { if case .request = $0.message { true } else { false } }.count ?? 0
        if let usbConversation, usbRequests >= ptpipRequests, usbRequests > 0 {
            self = try Self.build(transport: .usb, messages: usbConversation.messages)
        } else if ptpipRequests > 0 {
            self = try Self.build(transport: .ptpip, messages: ptpip.messages)
        } else {
            var what = "no PTP requests"
            if usb.sawUSB { what += "; USB traffic without a PTP command on bulk OUT" }
            if ptpip.sawPTPIP { what += "; PTP/IP connections without an Operation Request" }
            throw RecordError(.noPTPTraffic, what)
        }
        applyCutComments(cutComments)
    }

    /// Loads the conversation in the capture file at `path`.
    public static func load(path: String) throws -> PTPConversation {
        try PTPConversation(capture: try FileCaptureSource(path: path))
    }
}
