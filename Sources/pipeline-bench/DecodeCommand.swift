import ArgumentParser
import Foundation
import Imaging

/// Decodes JPEG files as the worker does by default (damaged data decoded with
/// libjpeg's warning, every header check and the scan limit kept) and says, per
/// file, whether it decoded soundly, decoded with a warning, or was refused: the
/// worker's side of `tools/bench/damaged_jpegs.py`, which compares it with OpenCV.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode JPEG files as the worker does and print one JSON line per file."
    )

    @Option(help: "The largest image decoded, in pixels, as the worker's --max-pixels.")
    var maxPixels = 40_000_000

    @Argument(help: "JPEG files.")
    var files: [String]

    func run() throws {
        let decoder = JPEGDecoder()
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            var line: [String: Any] = ["file": file]
            let decoded = bytes.withUnsafeBytes { jpeg in
                Result { () throws(ImagingError) in
                    let size = try decoder.header(of: jpeg)
                    try PixelLimit.check(width: size.width, height: size.height, maxPixels: maxPixels)
                    return try decoder.decode(jpeg, size: size, refuseDamaged: false)
                }
            }
            switch decoded {
            case .success(let decoded):
                line["outcome"] = decoded.warning == nil ? "sound" : "warning"
                if let warning = decoded.warning { line["message"] = warning }
            case .failure(let error):
                line["outcome"] = "refused"
                line["message"] = "\(error)"
            }
            print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
        }
    }
}
