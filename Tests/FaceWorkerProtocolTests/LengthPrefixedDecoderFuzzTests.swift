import FaceWorkerProtocol
import Foundation
import SeededRandom
import NIOCore
import SwiftProtobuf
import Testing

/// Seeded random and mutated byte streams, fed in random reads to the decoder
/// in a channel pipeline, as the worker and the client run it: whatever a
/// peer sends, the decoder hands out exactly the payloads the stream frames,
/// each as soon as its last byte is in, then stops with the one framing error
/// the stream earns, as soon as the bytes that earn it are in. It never traps,
/// stays stopped after an error, and how the bytes were cut into reads changes
/// nothing.
@Suite("Length-prefixed decoder fuzzing")
struct LengthPrefixedDecoderFuzzTests {
    /// How a stream reads by faceworker.proto's FRAMING rules, worked out
    /// independently of the decoder under test.
    struct Reading {
        var payloads: [[UInt8]] = []
        /// Where in the stream each payload's last byte is, plus one.
        var payloadEnds: [Int] = []
        /// The error a read throws once the bad header is in.
        var headerFailure: FramingError?
        /// Where in the stream the bad header's last byte is, plus one.
        var headerFailureEnd: Int?
        /// The error the end of the stream throws when it stops inside a message.
        var truncation: FramingError?

        init(_ stream: [UInt8], maximum: Int) {
            var offset = 0
            while stream.count - offset >= MessageHeader.size {
                let flag = stream[offset]
                let length = LengthPrefixedDecoderFuzzTests.length(at: offset, in: stream)
                if flag != 0 {
                    headerFailure = .unsupportedFlag(flag)
                    headerFailureEnd = offset + MessageHeader.size
                    return
                }
                if length > maximum {
                    headerFailure = .messageTooLarge(length: length, maximum: maximum)
                    headerFailureEnd = offset + MessageHeader.size
                    return
                }
                guard stream.count - offset - MessageHeader.size >= length else {
                    truncation = .truncatedMessage(receivedBytes: stream.count - offset, expectedBytes: MessageHeader.size + length)
                    return
                }
                payloads.append(Array(stream[offset + MessageHeader.size..<offset + MessageHeader.size + length]))
                offset += MessageHeader.size + length
                payloadEnds.append(offset)
            }
            if offset < stream.count {
                truncation = .truncatedMessage(receivedBytes: stream.count - offset, expectedBytes: nil)
            }
        }

        /// How many payloads are whole once the first `count` bytes are in.
        func payloadsComplete(within count: Int) -> Int {
            payloadEnds.prefix { $0 <= count }.count
        }
    }

    /// What one pass of the decoder over a stream produced.
    struct Outcome {
        /// Every payload handed out, as bytes or as the parse result (nil when
        /// the payload did not parse), as the worker parses them.
        var taken: [Taken] = []
        var headerFailure: FramingError?
        var truncation: FramingError?
    }

    /// One payload as the decoder handed it out.
    enum Taken {
        case bytes([UInt8])
        case message(Faceworker_V1_ClientMessage?)
    }

    static let maximums = [0, 1, 5, 64, 1000, WorkerSocket.maxAnswerBytes]

    /// Feeds `stream` in random reads (some empty), and checks after each
    /// that the payloads handed out so far are exactly those whose last byte
    /// is in, that a bad header is refused by the read that completes it, and
    /// that once refused the decoder refuses every later byte and the end of
    /// the stream reports nothing more.
    static func decode(_ stream: [UInt8], maximum: Int, expected: Reading, random: inout SplitMix64, label: String) throws -> Outcome {
        let pipeline = DecoderPipeline(maximumMessageLength: maximum)
        var outcome = Outcome()
        let largestChunk = [1, 2, 7, 64, 4096].randomElement(using: &random)!
        var fed = 0
        while true {
            let chunk = Int.random(in: 0...min(largestChunk, stream.count - fed), using: &random)
            do {
                try pipeline.write(stream[fed..<fed + chunk])
            } catch let error as FramingError {
                outcome.headerFailure = error
            } catch {
                Issue.record("\(label): a read threw \(error), not a FramingError")
                return outcome
            }
            fed += chunk
            outcome.taken += try pipeline.payloadBuffers().map { take($0, random: &random) }
            let refused = expected.headerFailureEnd.map { fed >= $0 } ?? false
            guard outcome.taken.count == expected.payloadsComplete(within: fed), (outcome.headerFailure != nil) == refused else {
                Issue.record("\(label): once \(fed) bytes are in, \(outcome.taken.count) payloads were handed out, not \(expected.payloadsComplete(within: fed)), and the stream was \(outcome.headerFailure == nil ? "not " : "")refused")
                return outcome
            }
            if let failure = outcome.headerFailure {
                try expectStaysFailed(pipeline, after: failure, rest: stream[fed...], label: label)
                return outcome
            }
            if fed == stream.count {
                do {
                    try pipeline.close()
                } catch let error as FramingError {
                    outcome.truncation = error
                } catch {
                    Issue.record("\(label): the end of the stream threw \(error), not a FramingError")
                }
                #expect(try pipeline.payloads().isEmpty, "\(label): no payload handed out at the end")
                return outcome
            }
        }
    }

    /// The decoder refuses the rest of the stream and a good message after
    /// it, naming the first error, and hands nothing more out.
    private static func expectStaysFailed(_ pipeline: DecoderPipeline, after failure: FramingError, rest: ArraySlice<UInt8>, label: String) throws {
        let later = #expect(throws: ByteToMessageDecoderError.self, "\(label): later bytes are refused") {
            try pipeline.write(rest + framed([1]))
        }
        if case .dataReceivedInErrorState(let cause, _)? = later {
            #expect(cause as? FramingError == failure, "\(label): later bytes are refused for the first error")
        } else {
            Issue.record("\(label): later bytes gave \(String(describing: later))")
        }
        #expect(throws: Never.self, "\(label): the end reports nothing more") { try pipeline.close() }
        #expect(try pipeline.payloads().isEmpty, "\(label): nothing handed out after the error")
    }

    /// The payload as bytes, or parsed from the buffer, at random.
    private static func take(_ payload: ByteBuffer, random: inout SplitMix64) -> Taken {
        if Bool.random(using: &random) {
            return .bytes(Array(payload.readableBytesView))
        }
        return .message(try? Faceworker_V1_ClientMessage(serializedBytes: payload.readableBytesSpan))
    }

    /// The payload length the header at `offset` announces.
    static func length(at offset: Int, in stream: [UInt8]) -> Int {
        stream[offset + 1..<offset + 5].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Where the headers are, following the lengths from the start for as
    /// long as they stay inside the stream.
    static func headerOffsets(_ stream: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        while stream.count - offset >= MessageHeader.size {
            offsets.append(offset)
            offset += MessageHeader.size + length(at: offset, in: stream)
        }
        return offsets
    }

    /// How the streams of one test ended, to show that each way was reached.
    struct Endings: CustomStringConvertible {
        var clean = 0, truncated = 0, badFlag = 0, tooLarge = 0, unparseable = 0

        mutating func count(_ reading: Reading, _ outcome: Outcome) {
            switch reading.headerFailure ?? reading.truncation {
            case nil: clean += 1
            case .unsupportedFlag?: badFlag += 1
            case .messageTooLarge?: tooLarge += 1
            case .truncatedMessage?: truncated += 1
            }
            unparseable += outcome.taken.filter { if case .message(nil) = $0 { true } else { false } }.count
        }

        var description: String {
            "\(clean) clean ends, \(truncated) truncated, \(badFlag) bad flags, \(tooLarge) too large, \(unparseable) unparseable payloads"
        }

        func expectEveryKind() {
            #expect(clean > 0 && truncated > 0 && badFlag > 0 && tooLarge > 0 && unparseable > 0, "\(self)")
        }
    }

    /// Checks one stream against its independent reading.
    static func check(_ stream: [UInt8], random: inout SplitMix64, label: String, endings: inout Endings) throws {
        let maximum = maximums.randomElement(using: &random)!
        let label = "\(label), maximum \(maximum), \(stream.count) bytes"
        let expected = Reading(stream, maximum: maximum)
        let outcome = try decode(stream, maximum: maximum, expected: expected, random: &random, label: label)
        endings.count(expected, outcome)
        #expect(outcome.headerFailure == expected.headerFailure, "\(label): framing error")
        #expect(outcome.truncation == expected.truncation, "\(label): how the stream ended")
        #expect(outcome.taken.count == expected.payloads.count, "\(label): payloads taken")
        for (taken, payload) in zip(outcome.taken, expected.payloads) {
            switch taken {
            case .bytes(let bytes):
                #expect(bytes == payload, "\(label): payload bytes")
            case .message(let message):
                #expect(message == (try? Faceworker_V1_ClientMessage(serializedBytes: payload)), "\(label): parsed payload")
            }
        }
    }

    @Test("random streams of random headers and payloads")
    func randomStreams() throws {
        var random = SplitMix64(seed: 0xF022_0001)
        var endings = Endings()
        for index in 0..<5000 {
            try Self.check(Self.randomStream(&random), random: &random, label: "random stream \(index) of seed 0xF0220001", endings: &endings)
        }
        endings.expectEveryKind()
    }

    @Test("valid client messages, framed, then mutated")
    func mutatedStreams() throws {
        var random = SplitMix64(seed: 0xF022_0002)
        var endings = Endings()
        for index in 0..<5000 {
            var framedMessages = ByteBuffer()
            let encoder = LengthPrefixedMessageEncoder<Faceworker_V1_ClientMessage>()
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                try encoder.encode(data: Self.clientMessage(&random), out: &framedMessages)
            }
            var stream = Array(framedMessages.readableBytesView)
            var mutations: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                mutations.append(Self.mutate(&stream, &random))
            }
            try Self.check(stream, random: &random, label: "mutated stream \(index) of seed 0xF0220002 (\(mutations.joined(separator: ", ")))", endings: &endings)
        }
        endings.expectEveryKind()
    }

    /// Headers whose flag is usually 0 and whose length is usually small, so
    /// that most streams get past their first header, with payloads that may
    /// be shorter than announced and an end that may cut the last message.
    static func randomStream(_ random: inout SplitMix64) -> [UInt8] {
        if random.next() % 5 == 0 {
            return randomBytes(Int.random(in: 0...300, using: &random), &random)
        }
        var stream: [UInt8] = []
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let flag: UInt8 = random.next() % 10 == 0 ? UInt8.random(in: 1...255, using: &random) : 0
            let length = random.next() % 10 == 0 ? UInt32.random(in: 0...UInt32.max, using: &random) : UInt32.random(in: 0...80, using: &random)
            MessageHeader(flag: flag, length: length).write(into: &stream)
            stream += randomBytes(Int(min(length, 80)), &random)
        }
        if !stream.isEmpty && random.next() % 4 == 0 {
            stream.removeLast(Int.random(in: 1...min(stream.count, 20), using: &random))
        }
        return stream
    }

    static func randomBytes(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// One call of each kind, with small random contents.
    static func clientMessage(_ random: inout SplitMix64) -> Faceworker_V1_ClientMessage {
        var message = Faceworker_V1_ClientMessage()
        message.callID = random.next() >> UInt64.random(in: 0...63, using: &random)
        switch random.next() % 6 {
        case 0:
            message.openSession.options = .with {
                $0.runningMode = .video
                $0.numFaces = UInt32.random(in: 1...4, using: &random)
                $0.minDetectionConfidence = Float.random(in: 0...1, using: &random)
            }
        case 1:
            message.processFrame.sessionID = random.next() % 10
            message.processFrame.frame.jpeg = Data([0xFF, 0xD8] + randomBytes(Int.random(in: 0...40, using: &random), &random))
            message.processFrame.frame.timestampMs = Int64.random(in: -5...1_000_000, using: &random)
        case 2:
            message.processFrame.sessionID = random.next() % 10
            message.processFrame.frame.raw = .with {
                $0.format = .nv12
                $0.width = 4
                $0.height = 2
                $0.data = Data(randomBytes(12, &random))
            }
        case 3:
            message.closeSession.sessionID = random.next() % 10
        case 4:
            message.ping.payload = Data(randomBytes(Int.random(in: 0...30, using: &random), &random))
        default:
            message.getStats = Faceworker_V1_GetStatsRequest()
        }
        return message
    }

    /// Applies one random mutation to `stream` and says what it did.
    static func mutate(_ stream: inout [UInt8], _ random: inout SplitMix64) -> String {
        guard !stream.isEmpty else {
            stream = randomBytes(5, &random)
            return "replaced the empty stream"
        }
        let at = Int.random(in: 0..<stream.count, using: &random)
        switch random.next() % 7 {
        case 0:
            let bit = UInt8(1) << UInt8.random(in: 0...7, using: &random)
            stream[at] ^= bit
            return "flipped bit \(bit) of byte \(at)"
        case 1:
            stream.removeSubrange(at...)
            return "truncated to \(at) bytes"
        case 2:
            let inserted = randomBytes(Int.random(in: 1...16, using: &random), &random)
            stream.insert(contentsOf: inserted, at: at)
            return "inserted \(inserted.count) bytes at \(at)"
        case 3:
            let end = min(stream.count, at + Int.random(in: 1...16, using: &random))
            stream.removeSubrange(at..<end)
            return "deleted bytes \(at)..<\(end)"
        case 4, 5:
            // A changed length shifts every later message.
            guard let header = headerOffsets(stream).randomElement(using: &random) else { return "found no header to change" }
            let old = length(at: header, in: stream)
            let length = [
                UInt32.max, UInt32(WorkerSocket.maxAnswerBytes) + 1, 0,
                UInt32(clamping: max(0, old + Int.random(in: -3...3, using: &random))),
            ].randomElement(using: &random)!
            stream.replaceSubrange(header + 1..<header + 5, with: MessageHeader(length: length).bytes.dropFirst())
            return "set the length at \(header) from \(old) to \(length)"
        default:
            guard let header = headerOffsets(stream).randomElement(using: &random) else { return "found no header to change" }
            let flag = UInt8.random(in: 1...255, using: &random)
            stream[header] = flag
            return "set the flag at \(header) to \(flag)"
        }
    }
}
