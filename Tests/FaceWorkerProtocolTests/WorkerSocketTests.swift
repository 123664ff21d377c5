import FaceWorkerProtocol
import Foundation
import Testing

/// Where a client looks for the worker, by the rule of the conformance file,
/// which the Python and C clients follow too: an explicit path, else the
/// socket variable when set and not empty, else a file in the runtime
/// directory when that is absolute, else a per-user path in /tmp.
@Suite("Worker socket path")
struct WorkerSocketTests {
    let file: ConformanceFile.Socket

    init() throws {
        file = try ConformanceFile.load().socket
    }

    @Test("the socket variable and the answer cap are the conformance file's")
    func constants() throws {
        let conformance = try ConformanceFile.load()
        #expect(WorkerSocket.environmentVariable == conformance.socket.environmentVariable)
        #expect(WorkerSocket.maxAnswerBytes == conformance.client.maxAnswerBytes)
    }

    @Test("an explicit path wins over every variable")
    func explicitWins() {
        let environment = [file.environmentVariable: "/run/named.sock", file.runtimeDirectoryVariable: "/run/user/1000"]
        #expect(WorkerSocket.path(explicit: "/srv/explicit.sock", environment: environment, uid: 1000) == "/srv/explicit.sock")
    }

    @Test("the socket variable wins over the runtime directory")
    func namedByVariable() {
        let environment = [file.environmentVariable: "/run/named.sock", file.runtimeDirectoryVariable: "/run/user/1000"]
        #expect(WorkerSocket.path(environment: environment, uid: 1000) == "/run/named.sock")
    }

    @Test("an empty socket variable counts as unset")
    func emptyVariableIgnored() {
        let environment = [file.environmentVariable: "", file.runtimeDirectoryVariable: "/run/user/1000"]
        #expect(WorkerSocket.path(environment: environment, uid: 1000) == "/run/user/1000/\(file.runtimeDirectoryFile)")
        #expect(WorkerSocket.path(environment: [file.environmentVariable: ""], uid: 1000) == fallback(uid: 1000))
    }

    @Test("an absolute runtime directory holds the socket, with or without a trailing slash", arguments: ["/run/user/1000", "/run/user/1000/"])
    func runtimeDirectory(directory: String) {
        let path = WorkerSocket.path(environment: [file.runtimeDirectoryVariable: directory], uid: 1000)
        #expect(path == "/run/user/1000/\(file.runtimeDirectoryFile)")
    }

    @Test("a relative or empty runtime directory is ignored", arguments: ["run/user/1000", "./run", ""])
    func relativeRuntimeDirectory(directory: String) {
        #expect(WorkerSocket.path(environment: [file.runtimeDirectoryVariable: directory], uid: 1000) == fallback(uid: 1000))
    }

    @Test("with no variable, the socket is the per-user fallback", arguments: [UInt32(0), 1000, UInt32.max])
    func fallbackPath(uid: UInt32) {
        #expect(file.fallback.contains("{uid}"), "the fallback must differ between users")
        #expect(WorkerSocket.path(environment: [:], uid: uid) == fallback(uid: uid))
        #expect(WorkerSocket.path(environment: ["UNRELATED": "/x"], uid: uid) == fallback(uid: uid))
    }

    @Test("the fallback is a path in /tmp named after the user ID")
    func fallbackShape() {
        #expect(fallback(uid: 1234) == "/tmp/faceworker-1234.sock")
    }

    /// The file's fallback, with `{uid}` replaced by `uid`.
    private func fallback(uid: UInt32) -> String {
        file.fallback.replacingOccurrences(of: "{uid}", with: String(uid))
    }
}
