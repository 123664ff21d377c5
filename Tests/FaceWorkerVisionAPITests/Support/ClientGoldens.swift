import Foundation
import XCTest

/// What the Python client answered on the fixtures (tools/goldens/make_client_goldens.py).
struct ClientGoldens: Decodable {
    struct Detection: Decodable {
        /// Whole pixels: x, y, width, height.
        var box: [Double]
        var score: Float
        var keypoints: [[Double]]
        var labels: [String]
    }

    struct Landmarks: Decodable {
        var landmarks: [[[Float]]]
        var blendshapes: [[Float]]
        var blendshapeNames: [[String]]
        var matrices: [[Float]]
    }

    struct MLKitFace: Decodable {
        var box: [Double]
        var landmarks: [String: [Double]]
        var contours: [String: [[Double]]]
        var headEulerAngleX: Double?
        var headEulerAngleY: Double?
        var headEulerAngleZ: Double?
        var smilingProbability: Double?
        var leftEyeOpenProbability: Double?
        var rightEyeOpenProbability: Double?
        var trackingId: Int?
    }

    var frameMs: Int
    var detectorImage: [String: [Detection]]
    var detectorVideo: [[Detection]]
    var landmarkerImage: [String: Landmarks]
    var landmarkerVideo: [Landmarks]
    var mlkitImage: [String: [MLKitFace]]
    var mlkitTracking: [[MLKitFace]]

    static let shared: ClientGoldens = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(ClientGoldens.self, from: Data(contentsOf: TestPaths.goldens))
        } catch {
            fatalError("cannot read \(TestPaths.goldens.path): \(error)")
        }
    }()
}

/// Numbers the worker computed, compared with the Python client's copy of
/// them as written with 9 significant digits.
func assertSame(_ actual: Double, _ expected: Double, _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual, expected, accuracy: max(1e-6, abs(expected) * 1e-6), what(), file: file, line: line)
}
