import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Imaging
import SeededRandom
import XCTest

/// The design's promise that the worker never crashes on a client's bytes,
/// checked with seeded hostile connections against one worker: random
/// payloads in valid framing and frames whose JPEG bytes or raw-frame fields
/// are mutated inside a real session go to the lean socket's handler
/// in-process, on the real models, as the bytes a socket would deliver;
/// valid calls mutated on the wire, whose broken framing ends in the worker
/// hanging up on a real socket, go to the worker's binary. After every case
/// the worker must still answer a Ping on another connection (and its
/// process still run); each well-framed call must get exactly one answer,
/// and every error must be one a client can act on (never INTERNAL). In the
/// end no fuzz session may be left open, and a normal session still finds
/// the astronaut.
///
/// Each case draws from its own generator, seeded from the test's seed and
/// the case number; a failure names both and says what the case sent.
final class FuzzTests: InProcessModelTestCase {
    static let seed: UInt64 = 0xFACE_F022
    /// Cases of each of the two in-process kinds, and of the worker process's one.
    static let cases = 150
    /// The worker's default --max-message-bytes.
    static let maximumMessageBytes = 32 << 20

    /// Codes the API documents for a client's mistakes; INTERNAL or UNKNOWN
    /// would be the worker failing on its own.
    static let clientErrors: Set<Faceworker_V1_Status.Code> = [
        .invalidArgument, .notFound, .resourceExhausted, .unimplemented, .failedPrecondition,
    ]

    /// How often each outcome occurred, to show the cases reached the paths
    /// they are meant to.
    struct Tally {
        var unparseablePayloads = 0
        var brokenFramings = 0
        var frameResults = 0
        var refusedFrames = 0
        var abandonedFrames = 0
    }

    /// The fixture and the valid raw frames mutations start from.
    struct Originals {
        let jpeg: [UInt8]
        /// The astronaut at a quarter of its size, 128 x 128: every fourth
        /// pixel of every fourth row, so raw frames stay small.
        let pixels: RGBImage

        init() throws {
            jpeg = Array(try TestPaths.jpeg("astronaut.jpg"))
            let full = try JPEGDecoder().decode(jpeg, maxPixels: 1 << 20)
            pixels = try RGBImage(width: 128, height: 128, pixels: (0..<128 * 128).flatMap { index in
                let start = ((index / 128) * 4 * full.width + index % 128 * 4) * 3
                return full.pixels[start..<start + 3]
            })
        }
    }

    /// One seeded case: its generator, its name in failure messages, and
    /// what went wrong in it.
    struct Case {
        let number: Int
        var random: SplitMix64
        var label: String
        var problems: [String] = []

        init(number: Int) {
            self.number = number
            random = SplitMix64(seed: FuzzTests.seed &+ UInt64(number))
            label = "seed \(String(FuzzTests.seed, radix: 16)) case \(number)"
        }

        mutating func problem(_ text: String) {
            problems.append(text)
        }
    }

    func testHostilePayloadsAndFramesNeverFailTheWorkerNorLeaveSessionsOpen() async throws {
        let worker = try startInProcessWorker()
        let originals = try Originals()
        let observer = try await worker.connect()
        var tally = Tally()
        for number in 0..<2 * Self.cases {
            var fuzz = Case(number: number)
            do {
                let connection = try await worker.connect()
                if number.isMultiple(of: 2) {
                    try await randomPayloads(&fuzz, connection, &tally)
                } else {
                    try await mutatedFrames(&fuzz, connection, originals, &tally)
                }
                try await connection.close()
                try await confirmAlive(observer, after: fuzz)
            } catch {
                return XCTFail("\(fuzz.label): \(error)")
            }
            for problem in fuzz.problems {
                XCTFail("\(fuzz.label): \(problem)")
            }
        }

        // A hung-up connection's sessions are freed once its frames in flight are answered.
        var stats = try await observer.stats()
        while stats.sessions != 0 || stats.connections != 1 {
            try await Task.sleep(for: .milliseconds(10))
            stats = try await observer.stats()
        }
        XCTAssertGreaterThan(stats.framesProcessed, 0)
        XCTAssertGreaterThan(stats.framesFailed, 0)
        XCTAssertGreaterThan(tally.unparseablePayloads, 0, "payloads refused as invalid ClientMessages")
        XCTAssertGreaterThan(tally.frameResults, 0, "mutated frames that were still processed")
        XCTAssertGreaterThan(tally.refusedFrames, 0, "mutated frames refused with a client error")
        XCTAssertGreaterThan(tally.abandonedFrames, 0, "frames left in flight by a client that hung up")

        let client = try await worker.connect()
        Expect.astronaut(try await client.process(.jpeg(Data(originals.jpeg)), in: try await client.open(Expect.options(.image))))
    }

    /// The end of a stream and a hang-up are the socket's: the worker's
    /// process reads them from the kernel.
    func testCallsMutatedOnTheWireNeverCrashTheWorkerProcessNorLeaveSessionsOpen() async throws {
        let worker = try await startWorker()
        let originals = try Originals()
        let observer = try HostileConnection(path: worker.socketPath)
        var tally = Tally()
        for number in 0..<Self.cases {
            var fuzz = Case(number: number)
            do {
                try mutatedCalls(&fuzz, worker, originals, &tally)
                try confirmAlive(worker, observer, after: fuzz)
            } catch {
                XCTFail("\(fuzz.label): \(error)\n\(await Self.postMortem(worker))")
                return
            }
            for problem in fuzz.problems {
                XCTFail("\(fuzz.label): \(problem)")
            }
        }

        var stats = try XCTUnwrap(try observer.call(.getStats(callID: 1), timeout: .seconds(10))).getStats
        let deadline = ContinuousClock.now + .seconds(5)
        while stats.sessions != 0 || stats.connections != 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            stats = try XCTUnwrap(try observer.call(.getStats(callID: 1), timeout: .seconds(10))).getStats
        }
        XCTAssertEqual(stats.sessions, 0, "every session of a closed fuzz connection is freed")
        XCTAssertEqual(stats.connections, 1, "only the observer is still connected")
        XCTAssertGreaterThan(tally.brokenFramings, 0, "connections ended for broken framing")

        let client = try await worker.connect()
        try await Expect.stillServes(try await client.openSession(options: Expect.options(.image)))
    }

    // MARK: - The kinds of case

    /// Valid framing around random payloads: pure noise, random protobuf, and
    /// calls that are random below their envelope. The stream stays in step,
    /// so every payload gets exactly one answer and the connection stays open.
    private func randomPayloads(_ fuzz: inout Case, _ connection: InProcessModelConnection, _ tally: inout Tally) async throws {
        let session = Bool.random(using: &fuzz.random) ? try await openSession(&fuzz, connection) : nil
        var payloads: [[UInt8]] = []
        for _ in 0..<Int.random(in: 1...6, using: &fuzz.random) {
            switch fuzz.random.next() % 3 {
            case 0: payloads.append(HostileInput.bytes(Int.random(in: 0...120, using: &fuzz.random), &fuzz.random))
            case 1: payloads.append(HostileInput.protobuf(&fuzz.random))
            default: payloads.append(HostileInput.randomCall(session: session, &fuzz.random))
            }
        }
        fuzz.label += " (random payloads of \(payloads.map(\.count)) bytes\(session.map { ", session \($0)" } ?? ""))"
        var sentinel = Faceworker_V1_ClientMessage()
        sentinel.callID = 1 << 63 | fuzz.random.next()
        sentinel.ping.payload = Data(HostileInput.bytes(8, &fuzz.random))
        var stream: [UInt8] = []
        for payload in payloads {
            stream += TestFraming.frame(payload: payload)
        }
        stream += try TestFraming.frame(sentinel)
        try await connection.send(bytes: stream)

        var answers: [Faceworker_V1_WorkerMessage] = []
        while answers.count < payloads.count + 1, let answer = try await connection.next() {
            answers.append(answer)
        }
        if answers.count != payloads.count + 1 {
            fuzz.problem("\(answers.count) answers to \(payloads.count + 1) well-framed calls, then the worker hung up")
        }
        if !answers.contains(where: { $0.callID == sentinel.callID && $0.ping.payload == sentinel.ping.payload }) {
            fuzz.problem("the Ping after the random payloads was not echoed")
        }
        for answer in answers {
            check(answer, &fuzz)
            if answer.callID == 0, answer.error.code == .invalidArgument { tally.unparseablePayloads += 1 }
        }
    }

    /// Valid calls of every kind, framed, then mutated on the wire (bits,
    /// bytes, cuts, insertions, lengths up to 4 GiB, flags), then a Ping.
    /// Half of the clients wait until the Ping is answered, the worker hangs
    /// up on broken framing, or it waits for bytes that never come; the other
    /// half stop sending at once. Whatever the worker made of the bytes, it
    /// answers with well-formed messages and client errors, and hangs up at
    /// the end of the stream.
    private func mutatedCalls(_ fuzz: inout Case, _ worker: WorkerProcess, _ originals: Originals, _ tally: inout Tally) throws {
        let connection = try HostileConnection(path: worker.socketPath)
        let session = Bool.random(using: &fuzz.random) ? try openSession(&fuzz, connection) : nil
        var stream: [UInt8] = []
        var kinds: [String] = []
        for index in 0..<Int.random(in: 1...4, using: &fuzz.random) {
            let (kind, message) = validCall(callID: UInt64(10 + index), session: session, originals, &fuzz.random)
            kinds.append(kind)
            stream += try TestFraming.frame(message)
        }
        var mutations: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &fuzz.random) {
            mutations.append(HostileInput.mutateStream(&stream, maximumMessageBytes: Self.maximumMessageBytes, &fuzz.random))
        }
        let waits = Bool.random(using: &fuzz.random)
        fuzz.label += " (\(kinds.joined(separator: ", ")) then \(mutations.joined(separator: ", ")), \(waits ? "waits" : "stops at once"))"
        let sentinel = Faceworker_V1_ClientMessage.ping(callID: 1 << 63 | fuzz.random.next())
        stream += try TestFraming.frame(sentinel)
        let answered = connection.answers.count
        connection.send(stream)
        if waits {
            _ = try connection.collect(until: { $0.contains { $0.callID == sentinel.callID } }, timeout: .milliseconds(100))
        }
        connection.finishSending()

        let ending = try connection.collect(timeout: .seconds(20))
        if ending != .closed {
            fuzz.problem("the worker did not hang up after the end of the stream (\(ending))")
        }
        for answer in connection.answers.dropFirst(answered) {
            check(answer, &fuzz)
            if answer.callID == 0, [.resourceExhausted, .unimplemented].contains(answer.error.code) { tally.brokenFramings += 1 }
        }
    }

    /// A session in a random running mode, then frames whose JPEG bytes or
    /// raw-frame fields (size, stride, format, data, orientation, timestamp)
    /// are mutated. Each frame gets exactly one answer: a result, a client
    /// error, or (live stream) a drop. Sometimes the client hangs up with the
    /// frames in flight; sometimes it then resets the session and sends a
    /// good frame, in which the session must still find the astronaut.
    private func mutatedFrames(_ fuzz: inout Case, _ connection: InProcessModelConnection, _ originals: Originals,
                               _ tally: inout Tally) async throws {
        let mode = [Faceworker_V1_RunningMode.image, .video, .liveStream].randomElement(using: &fuzz.random)!
        let numFaces = UInt32.random(in: 1...3, using: &fuzz.random)
        var options = Expect.options(mode) { $0.numFaces = numFaces }
        options.trackingEnabled = mode != .image && Bool.random(using: &fuzz.random)
        // Now and then every model and output, so mutated frames reach the face mesh too.
        if fuzz.random.next() % 4 == 0 {
            options.performanceMode = Bool.random(using: &fuzz.random) ? .accurate : .fast
            options.landmarkMode = .all
            options.contourMode = .all
            options.classificationMode = .all
            options.outputFaceMesh = Bool.random(using: &fuzz.random)
            options.outputTransformationMatrix = Bool.random(using: &fuzz.random)
        }
        let setOptions = options.textFormatString().split(separator: "\n").joined(separator: ", ")
        guard let session = try await openSession(&fuzz, connection, options: options) else { return }
        var timestamp = Int64.random(in: 0...1000, using: &fuzz.random)
        var frames: [Faceworker_V1_ClientMessage] = []
        var descriptions: [String] = []
        for index in 0..<Int.random(in: 1...4, using: &fuzz.random) {
            var frame: Faceworker_V1_Frame
            var mutations: [String] = []
            if Bool.random(using: &fuzz.random) {
                var jpeg = originals.jpeg
                mutations.append("astronaut JPEG")
                for round in 0..<Int.random(in: 0...3, using: &fuzz.random) {
                    mutations.append(HostileInput.mutateJPEG(&jpeg, intact: round == 0, &fuzz.random))
                }
                frame = .jpeg(Data(jpeg))
            } else {
                let format = [Faceworker_V1_PixelFormat.rgb, .rgba, .bgra, .bgr, .gray8, .nv12, .nv21, .i420].randomElement(using: &fuzz.random)!
                var raw = Faceworker_V1_RawImage(
                    originals.pixels, format: format,
                    width: Int.random(in: 100...128, using: &fuzz.random), height: Int.random(in: 80...128, using: &fuzz.random),
                    padding: Int.random(in: 0...5, using: &fuzz.random))
                mutations.append("\(format) \(raw.width)x\(raw.height) stride \(raw.rowStride)")
                for _ in 0..<Int.random(in: 0...2, using: &fuzz.random) {
                    mutations.append(HostileInput.mutateRaw(&raw, &fuzz.random))
                }
                frame = Faceworker_V1_Frame()
                frame.raw = raw
            }
            if fuzz.random.next() % 10 == 0 {
                frame.orientation = .UNRECOGNIZED(Int.random(in: 8...1000, using: &fuzz.random))
            } else {
                frame.orientation = Faceworker_V1_Orientation(rawValue: Int.random(in: 0...7, using: &fuzz.random))!
            }
            timestamp += fuzz.random.next() % 8 == 0 ? -Int64.random(in: 0...5, using: &fuzz.random) : Int64.random(in: 1...40, using: &fuzz.random)
            frame.timestampMs = timestamp
            mutations.append("orientation \(frame.orientation), timestamp \(timestamp)")
            descriptions.append("[\(mutations.joined(separator: ", "))]")
            frames.append(.processFrame(callID: UInt64(10 + index), session: session, frame))
        }
        fuzz.label += " (session with \(setOptions); frames \(descriptions.joined(separator: " ")))"
        try await connection.send(all: frames)

        if fuzz.random.next() % 4 == 0 {
            tally.abandonedFrames += frames.count
            return try await connection.close()
        }
        var answers: [Faceworker_V1_WorkerMessage] = []
        while answers.count < frames.count, let answer = try await connection.next() {
            answers.append(answer)
        }
        if answers.count != frames.count {
            fuzz.problem("\(answers.count) answers to \(frames.count) frames, then the worker hung up")
        }
        if answers.map(\.callID).sorted() != frames.map(\.callID) {
            fuzz.problem("answered calls \(answers.map(\.callID)), sent \(frames.map(\.callID))")
        }
        for answer in answers {
            check(answer, &fuzz)
            switch answer.kind {
            case .frameResult(let result):
                tally.frameResults += 1
                if result.faces.count > numFaces { fuzz.problem("\(result.faces.count) faces with num_faces \(numFaces)") }
            case .error(let status):
                tally.refusedFrames += 1
                if ![.invalidArgument, .resourceExhausted].contains(status.code) { fuzz.problem("a frame refused with \(status.code): \(status.message)") }
            case .frameDropped where mode == .liveStream:
                break
            default:
                fuzz.problem("a frame answered with \(answer)")
            }
        }

        // In video and live-stream modes the detector may wait a few frames
        // after the mutated ones found nothing; a reset makes it run at once.
        if fuzz.random.next() % 3 == 0 {
            let reset = try await connection.call { callID in
                var reset = Faceworker_V1_ClientMessage()
                reset.callID = callID
                reset.resetSession.sessionID = session
                return reset
            }
            guard case .resetSession? = reset.kind else {
                fuzz.problem("the session could not be reset after the mutated frames: \(reset)")
                return
            }
            let answer = try await connection.call { .processFrame(callID: $0, session: session, .jpeg(Data(originals.jpeg))) }
            if answer.frameResult.faces.count != 1 {
                fuzz.problem("a good frame after the mutated ones found \(answer.frameResult.faces.count) faces: \(answer)")
            }
        }
    }

    // MARK: - Helpers

    /// Opens a session with a clean call and returns its ID; nil (and a
    /// problem) when the worker refuses.
    private func openSession(
        _ fuzz: inout Case, _ connection: InProcessModelConnection, options: Faceworker_V1_SessionOptions = Expect.options(.image)
    ) async throws -> UInt64? {
        let answer = try await connection.call { .openSession(callID: $0, options) }
        guard case .openSession(let opened) = answer.kind else {
            fuzz.problem("a valid OpenSession was not answered with a session: \(answer)")
            return nil
        }
        return opened.sessionID
    }

    /// Opens a session on the worker process with a clean call and returns
    /// its ID; nil (and a problem) when the worker refuses.
    private func openSession(_ fuzz: inout Case, _ connection: HostileConnection) throws -> UInt64? {
        guard let answer = try connection.call(.openSession(callID: 1, Expect.options(.image)), timeout: .seconds(10)),
              case .openSession(let opened) = answer.kind else {
            fuzz.problem("a valid OpenSession was not answered with a session")
            return nil
        }
        return opened.sessionID
    }

    /// A valid call of a random kind, named for the failure message.
    private func validCall(callID: UInt64, session: UInt64?, _ originals: Originals, _ random: inout SplitMix64) -> (String, Faceworker_V1_ClientMessage) {
        var message = Faceworker_V1_ClientMessage()
        message.callID = callID
        let target = session ?? random.next() % 8
        switch random.next() % 7 {
        case 0:
            message.openSession.options = Expect.options([.image, .video, .liveStream].randomElement(using: &random)!)
            return ("OpenSession", message)
        case 1, 2:
            message.processFrame.sessionID = target
            message.processFrame.frame = .jpeg(Data(originals.jpeg), timestampMs: Int64(callID))
            return ("ProcessFrame JPEG for session \(target)", message)
        case 3:
            message.processFrame.sessionID = target
            message.processFrame.frame.raw = Faceworker_V1_RawImage(originals.pixels, format: .nv21, width: 64, height: 48, padding: 0)
            return ("ProcessFrame NV21 for session \(target)", message)
        case 4:
            message.ping.payload = Data(HostileInput.bytes(Int.random(in: 0...64, using: &random), &random))
            return ("Ping", message)
        case 5:
            if Bool.random(using: &random) {
                message.closeSession.sessionID = target
                return ("CloseSession \(target)", message)
            }
            message.resetSession.sessionID = target
            return ("ResetSession \(target)", message)
        default:
            message.getStats = Faceworker_V1_GetStatsRequest()
            return ("GetStats", message)
        }
    }

    /// Checks what every answer must be: of a kind, and if an error, a
    /// client error with a message.
    private func check(_ answer: Faceworker_V1_WorkerMessage, _ fuzz: inout Case) {
        switch answer.kind {
        case nil:
            fuzz.problem("an answer without a kind: \(answer)")
        case .error(let status):
            if !Self.clientErrors.contains(status.code) || status.message.isEmpty {
                fuzz.problem("call \(answer.callID) failed with \(status.code): \(status.message)")
            }
        case .frameResult(let result):
            if result.imageWidth == 0 || result.imageHeight == 0 {
                fuzz.problem("a frame result for an empty image: \(result.imageWidth)x\(result.imageHeight)")
            }
        default:
            break
        }
    }

    /// Fails unless the worker answers a Ping on the observer's connection.
    private func confirmAlive(_ observer: InProcessModelConnection, after fuzz: Case) async throws {
        let payload = Data("case \(fuzz.number)".utf8)
        let answer = try await observer.call { callID in
            var ping = Faceworker_V1_ClientMessage()
            ping.callID = callID
            ping.ping.payload = payload
            return ping
        }
        guard answer.ping.payload == payload else { throw WorkerDown(answer: answer) }
    }

    /// Fails unless the worker process runs and answers a Ping on the observer's connection.
    private func confirmAlive(_ worker: WorkerProcess, _ observer: HostileConnection, after fuzz: Case) throws {
        var ping = Faceworker_V1_ClientMessage()
        ping.callID = UInt64(fuzz.number) + 1000
        ping.ping.payload = Data("case \(fuzz.number)".utf8)
        let answer = try observer.call(ping, timeout: .seconds(10))
        guard worker.process.isRunning, answer?.ping.payload == ping.ping.payload else {
            throw WorkerDown(answer: answer)
        }
    }

    /// The worker did not answer the observer's Ping after a case.
    struct WorkerDown: Error, CustomStringConvertible {
        var answer: Faceworker_V1_WorkerMessage?
        var description: String {
            "the worker no longer answers a Ping on another connection (answer: \(answer.map { "\($0)" } ?? "none"))"
        }
    }

    /// How the worker exited, if it did (a crashing worker may take a moment
    /// to print its backtrace), and its log from some lines before the first
    /// sign of a crash, or else its last lines.
    static func postMortem(_ worker: WorkerProcess) async -> String {
        let status = await worker.waitForExit(timeout: .seconds(3))
        let state = status.map { "exited with status \($0)" } ?? "still running"
        let lines = worker.log.split(separator: "\n", omittingEmptySubsequences: false)
        let crash = lines.firstIndex { $0.contains("Fatal error") || $0.contains("*** Signal") || $0.contains("Program crashed") }
        let start = crash.map { max(0, $0 - 20) } ?? max(0, lines.count - 60)
        return "face-worker \(state); its log from line \(start + 1):\n\(lines[start...].prefix(400).joined(separator: "\n"))"
    }
}

extension Faceworker_V1_RawImage {
    /// The top-left `width` x `height` pixels of `image` in `format`, laid out
    /// as faceworker.proto describes, each row `padding` bytes longer than
    /// the least it may be. YUV frames carry the luma, with neutral chroma.
    init(_ image: RGBImage, format: Faceworker_V1_PixelFormat, width: Int, height: Int, padding: Int) {
        precondition(width <= image.width && height <= image.height)
        let channels: (UInt8, UInt8, UInt8) -> [UInt8]
        switch format {
        case .rgb: channels = { [$0, $1, $2] }
        case .rgba: channels = { [$0, $1, $2, 255] }
        case .bgra: channels = { [$2, $1, $0, 255] }
        case .bgr: channels = { [$2, $1, $0] }
        case .gray8: channels = { [Self.luma($0, $1, $2)] }
        default: channels = { [Self.videoLuma(Self.luma($0, $1, $2))] }
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let packedRow = [.nv12, .nv21].contains(format) ? 2 * chromaWidth : width * channels(0, 0, 0).count
        let stride = packedRow + padding
        var data: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let pixel = image.pixels[(y * image.width + x) * 3..<(y * image.width + x) * 3 + 3]
                data += channels(pixel[pixel.startIndex], pixel[pixel.startIndex + 1], pixel[pixel.startIndex + 2])
            }
            data += [UInt8](repeating: 0, count: stride - width * channels(0, 0, 0).count)
        }
        switch format {
        case .nv12, .nv21:
            data += [UInt8](repeating: 128, count: chromaHeight * stride)
        case .i420:
            data += [UInt8](repeating: 128, count: 2 * chromaHeight * ((stride + 1) / 2))
        default:
            break
        }
        self.init()
        self.format = format
        self.width = UInt32(width)
        self.height = UInt32(height)
        rowStride = UInt32(stride)
        self.data = Data(data)
    }

    /// Full-range luma squeezed into BT.601's 16...235.
    private static func videoLuma(_ luma: UInt8) -> UInt8 {
        UInt8(16 + Int(luma) * 219 / 255)
    }

    private static func luma(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
        let weighted: Int = 77 * Int(red) + 150 * Int(green) + 29 * Int(blue)
        return UInt8(weighted >> 8)
    }
}
