import FaceDetection
import FaceWorkerProtocol

extension Faceworker_V1_OpenSessionRequest {
    /// The options and the name the request asks for, checked.
    ///
    /// - Throws: INVALID_ARGUMENT naming the option that is out of range.
    package func checked() throws(CallError) -> (options: FaceOptions, name: String?) {
        do throws(FaceError) {
            return (try FaceOptions(wire: options), optionalName == nil ? nil : name)
        } catch {
            throw CallError(error)
        }
    }
}

extension Faceworker_V1_OpenSessionResponse {
    /// The answer to OpenSession, which both doors send.
    package init(_ opening: SessionOpening) {
        self.init()
        sessionID = opening.sessionID
        options = Faceworker_V1_SessionOptions(effective: opening.options)
        name = opening.name ?? ""
        blendshapeNames = options.blendshapeNames
    }
}
