import FaceWorkerClient

// The Swift client's types this API's signatures use, under their own names,
// so that this module's import alone is enough to write them.

/// How an image's stored pixels must be turned to look upright, under
/// `UIImage.Orientation`'s names.
public typealias ImageOrientation = FaceWorkerClient::FrameImage.Orientation
/// The layout of uncompressed pixels.
public typealias PixelFormat = FaceWorkerClient::FrameImage.Format
/// Pixels in any form the worker takes: a JPEG file or its bytes,
/// uncompressed pixels, or a region of a shared frame buffer.
public typealias FrameImage = FaceWorkerClient::FrameImage
/// A shared-memory buffer registered with the worker, whose regions images
/// may name instead of carrying their bytes.
public typealias SharedFrameBuffer = FaceWorkerClient::SharedFrameBuffer
/// How the connection finds its worker again after a restart.
public typealias ReconnectPolicy = FaceWorkerClient::ReconnectPolicy
/// Why a call failed, by gRPC's status codes.
public typealias StatusCode = FaceWorkerClient::StatusCode
