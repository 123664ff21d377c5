import FaceWorkerProtocol
import Foundation
import SeededRandom
import SwiftProtobuf
import Testing

/// Seeded random and mutated byte streams, fed to the length-prefixed decoder
/// in random chunks: whatever a peer sends, the decoder hands out exactly the
/// payloads the stream frames, then stops with the one framing error the
/// stream earns. It never traps, never loses step after a bad payload, and
/// how the bytes were cut into reads changes nothing.
@Suite("Length-prefixed decoder fuzzing")
struct LengthPrefixedDecoderFuzzTests {
    /// How a stream reads by faceworker.proto's FRAMING rules, worked out
    /// independently of the decoder under test.
    struct Reading {
        var payloads: [[UInt8]] = []
        /// The error `next()` throws once the bad header is in.
        var headerFailure: FramingError?
        /// The error `finish()` throws when the stream stops inside a message.
        var truncation: FramingError?

        init(_ stream: [UInt8], maximum: Int) {
            var offset = 0
            while stream.count - offset >= MessageHeader.size {
                let flag = stream[offset]
                let length = LengthPrefixedDecoderFuzzTests.length(at: offset, in: stream)
                if flag != 0 {
                    headerFailure = .unsupportedFlag(flag)
                    return
                }
                if length > maximum {
                    headerFailure = .messageTooLarge(length: length, maximum: maximum)
                    return
                }
                guard stream.count - offset - MessageHeader.size >= length else {
                    truncation = .truncatedMessage(receivedBytes: stream.count - offset, expectedBytes: MessageHeader.size + length)
                    return
                }
                payloads.append(Array(stream[offset + MessageHeader.size..<offset + MessageHeader.size + length]))
                offset += MessageHeader.size + length
            }
            if offset < stream.count {
                truncation = .truncatedMessage(receivedBytes: stream.count - offset, expectedBytes: nil)
            }
        }
    }

    /// What one pass of the decoder over a stream produced.
    struct Outcome {
        /// Every payload taken out, as bytes (from `next()`) or as the parse
        /// result (from `nextMessage`, nil when the payload did not parse).
        var taken: [Taken] = []
        var headerFailure: FramingError?
        var truncation: FramingError?
    }

    /// One payload as the decoder handed it out.
    enum Taken {
        case bytes([UInt8])
        case message(Faceworker_V1_ClientMessage?)
    }

    static let maximums = [0, 1, 5, 64, 1000, LengthPrefixedMessageDecoder.defaultMaximumMessageLength]

    /// Feeds `stream` in random chunks (some empty), draining after each with
    /// `next()` or `nextMessage` at random, and checks on the way that the
    /// decoder's buffer holds exactly the bytes not yet handed out and that a
    /// framing error, once thrown, is thrown again for good.
    static func decode(_ stream: [UInt8], maximum: Int, random: inout SplitMix64, label: String) -> Outcome {
        var decoder = LengthPrefixedMessageDecoder(maximumMessageLength: maximum)
        var outcome = Outcome()
        let largestChunk = [1, 2, 7, 64, 4096].randomElement(using: &random)!
        var remaining = stream[...]
        var consumed = 0
        feeding: while true {
            let chunk = remaining.prefix(Int.random(in: 0...largestChunk, using: &random))
            remaining = remaining.dropFirst(chunk.count)
            decoder.append(contentsOf: chunk)
            while true {
                do {
                    let taken: Taken?
                    if Bool.random(using: &random) {
                        taken = try decoder.next().map { Taken.bytes($0) }
                    } else {
                        taken = try nextMessage(&decoder)
                    }
                    guard let taken else { break }
                    guard stream.count - consumed >= MessageHeader.size else {
                        Issue.record("\(label): a payload was handed out past the stream's last header")
                        break feeding
                    }
                    outcome.taken.append(taken)
                    consumed += MessageHeader.size + Self.length(at: consumed, in: stream)
                } catch let error as FramingError {
                    outcome.headerFailure = error
                    #expect(throws: error, "\(label): the error stays") { try decoder.next() }
                    #expect(throws: error, "\(label): finish reports it too") { try decoder.finish() }
                    break feeding
                } catch {
                    Issue.record("\(label): a read threw \(error), neither a FramingError nor a BinaryDecodingError")
                    break feeding
                }
            }
            #expect(decoder.bufferedByteCount == stream.count - remaining.count - consumed, "\(label): buffered bytes")
            if remaining.isEmpty {
                do {
                    try decoder.finish()
                } catch {
                    outcome.truncation = error
                }
                break
            }
        }
        return outcome
    }

    /// The next message, nil for no complete message yet, or `.message(nil)`
    /// for a payload that did not parse, which must leave the stream in step.
    private static func nextMessage(_ decoder: inout LengthPrefixedMessageDecoder) throws -> Taken? {
        do {
            guard let message = try decoder.nextMessage(as: Faceworker_V1_ClientMessage.self) else { return nil }
            return .message(message)
        } catch is BinaryDecodingError {
            return .message(nil)
        }
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
    static func check(_ stream: [UInt8], random: inout SplitMix64, label: String, endings: inout Endings) {
        let maximum = maximums.randomElement(using: &random)!
        let label = "\(label), maximum \(maximum), \(stream.count) bytes"
        let expected = Reading(stream, maximum: maximum)
        let outcome = decode(stream, maximum: maximum, random: &random, label: label)
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
    func randomStreams() {
        var random = SplitMix64(seed: 0xF022_0001)
        var endings = Endings()
        for index in 0..<5000 {
            Self.check(Self.randomStream(&random), random: &random, label: "random stream \(index) of seed 0xF0220001", endings: &endings)
        }
        endings.expectEveryKind()
    }

    @Test("valid client messages, framed, then mutated")
    func mutatedStreams() throws {
        var random = SplitMix64(seed: 0xF022_0002)
        var endings = Endings()
        for index in 0..<5000 {
            var stream: [UInt8] = []
            let encoder = LengthPrefixedMessageEncoder()
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                try encoder.encode(message: Self.clientMessage(&random), into: &stream)
            }
            var mutations: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                mutations.append(Self.mutate(&stream, &random))
            }
            Self.check(stream, random: &random, label: "mutated stream \(index) of seed 0xF0220002 (\(mutations.joined(separator: ", ")))", endings: &endings)
        }
        endings.expectEveryKind()
    }

    /// Headers whose flag is usually 0 and whose length is usually small, so
    /// that most streams get past their first header, with payloads that may
    /// be shorter than announced.
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
                UInt32.max, UInt32(LengthPrefixedMessageDecoder.defaultMaximumMessageLength) + 1, 0,
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
