extension DNGEncoder {
    func losslessTiles(
        _ samples: [UInt16], width: Int, height: Int, planes: Int, bitsPerSample: Int, tileWidth: Int, tileHeight: Int
    ) throws(DNGError) -> [DNGImageChunk] {
        throw DNGError(.compressionFailed, "waiting for LosslessJPEG")
    }
}
