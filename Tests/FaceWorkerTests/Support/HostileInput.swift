import FaceWorkerProtocol
import Foundation
import ImagingTesting
import SeededRandom

/// Seeded bytes a hostile client could send: random protobuf, mutated
/// streams of framed messages, mutated JPEGs and raw frames. Every function
/// takes the generator it draws from, so a case is reproduced from its seed
/// alone, and says what it did, for the failure message.
enum HostileInput {
    static func bytes(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    static func varint(_ value: UInt64, into bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A length-delimited field.
    static func field(_ number: UInt64, _ body: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        varint(number << 3 | 2, into: &bytes)
        varint(UInt64(body.count), into: &bytes)
        return bytes + body
    }

    /// Fields with small numbers (those of every faceworker.v1 message), all
    /// wire types, values at the edges of their ranges, nested messages, and
    /// now and then a length that runs past the end or a wire type that does
    /// not exist.
    static func protobuf(_ random: inout SplitMix64, depth: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let number = random.next() % 8 == 0 ? UInt64.random(in: 1...536_870_911, using: &random) : UInt64.random(in: 1...16, using: &random)
            let wireType: UInt64 = random.next() % 12 == 0 ? UInt64.random(in: 3...7, using: &random) : [0, 0, 1, 2, 2, 2, 5].randomElement(using: &random)!
            varint(number << 3 | wireType, into: &bytes)
            switch wireType {
            case 0:
                let values: [UInt64] = [0, 1, 2, 7, 8, 9, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, UInt64.max, random.next() % 1000, random.next()]
                let value = values.randomElement(using: &random)!
                varint(value, into: &bytes)
            case 1:
                bytes += Self.bytes(8, &random)
            case 5:
                let float: Float = [.nan, .infinity, -.infinity, -0.0, 0.5, 1, -1, 2, Float.greatestFiniteMagnitude].randomElement(using: &random)!
                bytes += random.next() % 3 == 0 ? Self.bytes(4, &random) : withUnsafeBytes(of: float.bitPattern.littleEndian, Array.init)
            case 2:
                let body = depth < 3 && random.next() % 10 < 7
                    ? protobuf(&random, depth: depth + 1)
                    : Self.bytes(Int.random(in: 0...24, using: &random), &random)
                let length = random.next() % 10 == 0 ? UInt64.random(in: 0...UInt64(body.count + 10), using: &random) : UInt64(body.count)
                varint(length, into: &bytes)
                bytes += body
            default:
                break
            }
        }
        return bytes
    }

    /// A ClientMessage payload that is random below its envelope: a call
    /// kind (2 to 7), whose body is random protobuf; a ProcessFrame names
    /// `session` half of the time, so random frames reach the frame checks.
    static func randomCall(session: UInt64?, _ random: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        varint(1 << 3, into: &bytes)
        varint(random.next() % 1000, into: &bytes)
        let kind = UInt64.random(in: 2...7, using: &random)
        var body: [UInt8] = []
        if kind == 3, let session, Bool.random(using: &random) {
            varint(1 << 3, into: &body)
            varint(session, into: &body)
            body += field(2, protobuf(&random, depth: 1))
        } else {
            body = protobuf(&random, depth: 1)
        }
        return bytes + field(kind, body)
    }

    /// Where the framed messages of `stream` start, following each header's
    /// length for as long as it stays inside the stream.
    static func headerOffsets(_ stream: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        while stream.count - offset >= MessageHeader.size {
            offsets.append(offset)
            offset += MessageHeader.size + Int(MessageHeader(parsing: stream[offset...])!.length)
        }
        return offsets
    }

    /// One mutation of a stream of framed messages, half of the time within
    /// the first bytes of a message (its header and envelope fields), where
    /// the framing and the call kind are decided.
    static func mutateStream(_ stream: inout [UInt8], maximumMessageBytes: Int, _ random: inout SplitMix64) -> String {
        let headers = headerOffsets(stream)
        guard !stream.isEmpty, let header = headers.randomElement(using: &random) else {
            stream += bytes(Int.random(in: 1...9, using: &random), &random)
            return "appended random bytes"
        }
        let at = Bool.random(using: &random)
            ? min(stream.count - 1, header + Int.random(in: 0..<32, using: &random))
            : Int.random(in: 0..<stream.count, using: &random)
        switch random.next() % 8 {
        case 0:
            let bit = UInt8(1) << UInt8.random(in: 0...7, using: &random)
            stream[at] ^= bit
            return "flipped bit \(bit) of byte \(at)"
        case 1:
            let value = UInt8(truncatingIfNeeded: random.next())
            stream[at] = value
            return "set byte \(at) to \(value)"
        case 2:
            stream.removeSubrange(at...)
            return "truncated to \(at) bytes"
        case 3:
            let inserted = bytes(Int.random(in: 1...16, using: &random), &random)
            stream.insert(contentsOf: inserted, at: at)
            return "inserted \(inserted.count) bytes at \(at)"
        case 4:
            let end = min(stream.count, at + Int.random(in: 1...16, using: &random))
            stream.removeSubrange(at..<end)
            return "deleted bytes \(at)..<\(end)"
        case 5, 6:
            let old = Int(MessageHeader(parsing: stream[header...])!.length)
            let length = [
                UInt32.max, UInt32(maximumMessageBytes), UInt32(maximumMessageBytes + 1), 0,
                UInt32(clamping: max(0, old + Int.random(in: -4...4, using: &random))),
            ].randomElement(using: &random)!
            stream.replaceSubrange(header + 1..<header + 5, with: MessageHeader(length: length).bytes.dropFirst())
            return "set the length at \(header) from \(old) to \(length)"
        default:
            let flag = UInt8.random(in: 1...255, using: &random)
            stream[header] = flag
            return "set the flag at \(header) to \(flag)"
        }
    }

    /// A mutation of a JPEG: the size its frame header states (only on an
    /// intact JPEG, whose frame header is still found), or one of
    /// `HostileJPEG.mutate`'s.
    static func mutateJPEG(_ jpeg: inout [UInt8], intact: Bool, _ random: inout SplitMix64) -> String {
        if intact, random.next() % 4 == 0 {
            let width = [0, 1, 7, 4096, 65535, Int.random(in: 1...3000, using: &random)].randomElement(using: &random)!
            let height = [0, 1, 9, 4096, 65535, Int.random(in: 1...3000, using: &random)].randomElement(using: &random)!
            jpeg = HostileJPEG.replacingSize(of: jpeg, width: width, height: height)
            return "stated size \(width)x\(height)"
        }
        return HostileJPEG.mutate(&jpeg, using: &random)
    }

    /// A mutation of a raw frame's fields, among them values at the edges of
    /// their ranges and values that overflow `height * row_stride`.
    static func mutateRaw(_ raw: inout Faceworker_V1_RawImage, _ random: inout SplitMix64) -> String {
        switch random.next() % 6 {
        case 0:
            raw.width = [0, 1, raw.width &- 1, raw.width &+ 1, raw.width &* 2, 65536, UInt32.max, UInt32.random(in: 0...5000, using: &random)]
                .randomElement(using: &random)!
            return "width \(raw.width)"
        case 1:
            raw.height = [0, 1, raw.height &- 1, raw.height &+ 1, raw.height &* 2, 65536, UInt32.max, UInt32.random(in: 0...5000, using: &random)]
                .randomElement(using: &random)!
            return "height \(raw.height)"
        case 2:
            raw.rowStride = [0, 1, raw.rowStride &- 1, raw.rowStride &+ 1, raw.width, 0x8000_0000, UInt32.max, UInt32.random(in: 0...2000, using: &random)]
                .randomElement(using: &random)!
            return "row stride \(raw.rowStride)"
        case 3:
            raw.format = [.unspecified, .UNRECOGNIZED(9), .UNRECOGNIZED(Int(Int32.max)), .rgb, .rgba, .bgra, .bgr, .gray8, .nv12, .nv21, .i420]
                .randomElement(using: &random)!
            return "format \(raw.format)"
        case 4:
            let cut = Int.random(in: 0...raw.data.count, using: &random)
            raw.data = raw.data.prefix(cut)
            return "data cut to \(cut) bytes"
        default:
            let extra = Int.random(in: 1...300, using: &random)
            raw.data += Data(bytes(extra, &random))
            return "\(extra) bytes added to the data"
        }
    }
}
