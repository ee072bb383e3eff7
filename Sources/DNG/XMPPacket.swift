import RawImage

/// The XMP packet rawcap writes into a DNG's IFD0 (tag 700) for what neither TIFF, EXIF nor DNG has a tag for:
/// a focus bracket frame's lens position (``RawImage/CaptureMetadata/focusStep``) as `rawcap:FocusStep`.
///
/// The packet is the serialisation the XMP specification (part 1, 7.3; part 3, 1.1.5 for TIFF) describes: an
/// `x:xmpmeta` element holding one `rdf:Description` whose simple properties are XML attributes, wrapped in the
/// `xpacket` processing instructions, UTF-8 without padding. exiftool shows the property as `XMP-rawcap:FocusStep`.
struct XMPPacket: Sendable {
    /// rawcap's namespace for its own properties.
    static let namespace = "http://ns.rawcap.dev/xmp/1.0/"

    /// The packet's bytes (UTF-8).
    let bytes: [UInt8]

    /// The packet for `metadata`, or `nil` when it holds nothing that goes into XMP.
    init?(_ metadata: CaptureMetadata) {
        var properties: [(name: String, value: String)] = []
        if let step = metadata.focusStep { properties.append(("rawcap:FocusStep", String(step))) }
        guard !properties.isEmpty else { return nil }
        // Values are integers: nothing in them needs XML escaping.
        let attributes = properties.map { "\n    \($0.name)=\"\($0.value)\"" }.joined()
        let text = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:rawcap="\(Self.namespace)"\(attributes)/>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        bytes = Array(text.utf8)
    }
}
