/// Reads the frames of a video stream one at a time, holding only the frame being read.
///
/// Reading blocks until a frame's bytes have arrived; ``VideoFrames`` runs a reader off the caller's thread.
public protocol FrameReader: Sendable {
    /// The next frame; nil at the end of the stream. After an error or the end, it keeps returning nil.
    mutating func nextFrame() throws(VideoStreamError) -> VideoFrame?
}
