// swift-tools-version:6.0
import PackageDescription

// XNNPACK, cpuinfo and pthreadpool as static libraries, built by `make deps` (scripts/build-xnnpack.sh)
// into the repository; Sources/CXNNPack's header names the same prefix. The ThreadSanitizer run links
// the variant whose thread pool the tool sees into (FACEWORKER_XNNPACK=xnnpack-tsan).
let xnnpackLibraries = Context.packageDirectory + "/.deps/" + (Context.environment["FACEWORKER_XNNPACK"] ?? "xnnpack") + "/lib"

// The numeric layers (the model reader, inference set-up, pixel sampling, the face pipeline) are
// optimized in debug builds too: the tests run them over real images and models frame after frame,
// which unoptimized code makes several times slower, while the layers above stay debuggable.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "FaceWorker",
    platforms: [.macOS(.v14)],
    products: [
        // What users outside the package build on: the worker, and the two Swift clients with the
        // messages their calls are written in. The layers below are the worker's own.
        .executable(name: "face-worker", targets: ["face-worker"]),
        .library(name: "FaceWorkerClient", targets: ["FaceWorkerClient"]),
        .library(name: "FaceWorkerGRPC", targets: ["FaceWorkerGRPC"]),
        .library(name: "FaceWorkerProtocol", targets: ["FaceWorkerProtocol"]),
        // The iOS face APIs on the Swift client: MediaPipe Tasks' FaceDetector and FaceLandmarker,
        // and ML Kit's face detection, each taken by its import alone.
        .library(name: "FaceWorkerTasksVision", targets: ["FaceWorkerTasksVision"]),
        .library(name: "FaceWorkerMLKit", targets: ["FaceWorkerMLKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.28.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
    ],
    targets: [
        // C libraries: XNNPACK built by `make deps`, TurboJPEG from the Debian package it installs.
        .systemLibrary(name: "CXNNPack", path: "Sources/CXNNPack"),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG"),
        // Part of a JPEG decoded through libjpeg's own API (Debian's libjpeg62-turbo, the library
        // TurboJPEG is built from): rows and columns, behind the one setjmp that libjpeg's errors need.
        .target(name: "CJPEGRegion", linkerSettings: [.linkedLibrary("jpeg")]),
        // The calling thread's CPU affinity: sched_setaffinity is a GNU extension Swift's Glibc leaves out.
        .target(name: "CThreadAffinity"),

        // Layer 1: the .tflite file, read and folded into plain float tensors.
        .target(name: "ModelFile", dependencies: [.product(name: "Crypto", package: "swift-crypto")], swiftSettings: optimizedInDebug),
        // Layer 2: running a loaded model on XNNPACK.
        .target(
            name: "Inference",
            dependencies: ["ModelFile", "CXNNPack", "CThreadAffinity"],
            swiftSettings: optimizedInDebug,
            // Ahead of the system's directories, so Debian 12's shared libXNNPACK is never the one linked.
            linkerSettings: [.unsafeFlags(["-L" + xnnpackLibraries])]
        ),
        // Pixels in: decoding, pixel formats, orientation, crops to tensors.
        .target(name: "Imaging", dependencies: ["CJPEGRegion", "CTurboJPEG"], swiftSettings: optimizedInDebug),
        // Layer 3: the face pipeline (detector, landmarks, ML Kit outputs, tracking, running modes).
        .target(name: "FaceDetection", dependencies: ["Inference", "Imaging"], swiftSettings: optimizedInDebug),
        // The wire both sides share: generated protobuf messages, the length-prefixed codec,
        // framing errors and their statuses, and where the worker's socket is.
        .target(
            name: "FaceWorkerProtocol",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),

        // The gRPC service generated from proto/faceworker/v1/faceworker_service.proto: the
        // worker's second door, and the stubs any Swift gRPC client uses.
        .target(
            name: "FaceWorkerGRPC",
            dependencies: [
                "FaceWorkerProtocol",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),

        // Layer 4, the server's core: calls and their answers, the scheduler and inference threads,
        // named sessions and subscribers, shared buffers, limits, statistics, lifecycle, and the Unix
        // socket files every door publishes. It knows no wire; each door turns its own into the core's calls.
        .target(
            name: "WorkerCore",
            dependencies: [
                "FaceDetection",
                "FaceWorkerProtocol",
                "Imaging",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // The core's face pipeline for real: MediaPipe's models loaded once, one XNNPACK engine per
        // inference thread, the first splitting a lone frame over every core.
        .target(name: "FaceAnalysis", dependencies: ["FaceDetection", "Imaging", "Inference", "ModelFile", "WorkerCore"]),

        // Layer 5, the doors: each turns one wire into the core's calls, and none sees another.
        // The lean socket: length-prefixed protobuf, and the shared-memory handoff beside it.
        .target(
            name: "SocketTransport",
            dependencies: [
                "FaceDetection",
                "FaceWorkerProtocol",
                "Imaging",
                "WorkerCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // gRPC over HTTP/2 on a Unix socket: the service of proto/faceworker/v1/faceworker_service.proto.
        .target(
            name: "GRPCTransport",
            dependencies: [
                "FaceDetection",
                "FaceWorkerGRPC",
                "FaceWorkerProtocol",
                "Imaging",
                "WorkerCore",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Prometheus metrics over HTTP.
        .target(
            name: "MetricsHTTP",
            dependencies: [
                "FaceDetection",
                "WorkerCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // Layer 6: the worker assembled from the core and its doors as Services.
        .target(
            name: "WorkerComposition",
            dependencies: [
                "FaceAnalysis",
                "FaceDetection",
                "FaceWorkerProtocol",
                "GRPCTransport",
                "Inference",
                "MetricsHTTP",
                "SocketTransport",
                "WorkerCore",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The Swift client library: connect, sessions, frames, ping, stats.
        .target(
            name: "FaceWorkerClient",
            dependencies: [
                "FaceWorkerProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),

        // MediaPipe Tasks' iOS vision API for faces, over the Swift client.
        .target(name: "FaceWorkerTasksVision", dependencies: ["FaceWorkerClient", "FaceWorkerProtocol"]),
        // ML Kit's iOS face detection API, over the Swift client.
        .target(name: "FaceWorkerMLKit", dependencies: ["FaceWorkerClient", "FaceWorkerProtocol"]),

        .executableTarget(
            name: "face-worker",
            dependencies: [
                "WorkerComposition",
                "WorkerCore",
                "FaceWorkerProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // One small program per iOS API: an ML Kit photo scan, a Tasks live stream with a delegate.
        .executableTarget(name: "mlkit-photo-scan", dependencies: ["FaceWorkerMLKit"], path: "examples/mlkit-photo-scan"),
        .executableTarget(name: "tasks-live-stream", dependencies: ["FaceWorkerTasksVision"], path: "examples/tasks-live-stream"),
        .executableTarget(
            name: "inference-bench",
            dependencies: [
                "Inference",
                "ModelFile",
                "SeededRandom",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "pipeline-bench",
            dependencies: [
                "FaceDetection",
                "Imaging",
                "SeededRandom",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // SplitMix64, the seeded generator the Python tools share: parity inputs, randomized tests, benchmark inputs.
        .target(name: "SeededRandom"),
        // JPEGs for tests: a TurboJPEG encoder, and hand-built hostile streams for the decoder and the worker's bad-input tests.
        .target(name: "ImagingTesting", dependencies: ["Imaging", "CTurboJPEG"]),

        .testTarget(name: "ModelFileTests", dependencies: ["ModelFile", "SeededRandom"]),
        .testTarget(
            name: "InferenceTests",
            dependencies: ["Inference", "SeededRandom"],
            exclude: ["Goldens"]
        ),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "ImagingTesting", "SeededRandom"]),
        .testTarget(name: "FaceDetectionTests", dependencies: ["FaceDetection"], exclude: ["Goldens"]),
        .testTarget(
            name: "FaceWorkerProtocolTests",
            dependencies: [
                "FaceWorkerProtocol", "SeededRandom",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        // The iOS guides' programs against a worker, results against the Python client's goldens.
        .testTarget(
            name: "FaceWorkerVisionAPITests",
            dependencies: ["FaceWorkerMLKit", "FaceWorkerTasksVision", "Imaging"],
            exclude: ["Goldens"]
        ),
        // The server's core in-process on a fake face pipeline, for the core's and the doors' tests.
        .target(
            name: "WorkerCoreTesting",
            dependencies: ["FaceDetection", "FaceWorkerProtocol", "Imaging", "WorkerCore", .product(name: "Logging", package: "swift-log")]
        ),
        // The server's core in-process, on a fake face pipeline: no model files, no worker process.
        .testTarget(
            name: "WorkerCoreTests",
            dependencies: [
                "FaceDetection", "FaceWorkerProtocol", "Imaging", "ImagingTesting", "SocketTransport", "WorkerCore", "WorkerCoreTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // The gRPC door's service in-process, over grpc-swift's in-process transport and the fake pipeline.
        .testTarget(
            name: "GRPCTransportTests",
            dependencies: [
                "FaceDetection", "FaceWorkerGRPC", "FaceWorkerProtocol", "GRPCTransport", "Imaging", "WorkerCore", "WorkerCoreTesting",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCInProcessTransport", package: "grpc-swift-2"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/GRPCTransportTests"
        ),
        .testTarget(
            name: "FaceWorkerTests",
            dependencies: [
                "FaceAnalysis", "FaceDetection", "FaceWorkerClient", "FaceWorkerGRPC", "FaceWorkerProtocol", "GRPCTransport", "Imaging", "ImagingTesting", "Inference",
                "MetricsHTTP", "SeededRandom", "SocketTransport", "WorkerComposition", "WorkerCore", "WorkerCoreTesting",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ]
)

// libFuzzer targets (make fuzz), declared only for the AddressSanitizer build (FACEWORKER_FUZZ=1),
// which the test bundle and the worker share with them. Only they link libFuzzer: its runtime goes
// in whole, main included, which the worker and the test bundle, with mains of their own, cannot
// take (so the build asks for the fuzzer's coverage by itself rather than with --sanitize=fuzzer).
// SwiftPM names an executable's own main the program's main over libFuzzer's, so each fuzz target's
// main starts libFuzzer's driver (Sources/Fuzz/CLibFuzzer).
if Context.environment["FACEWORKER_FUZZ"] == "1" {
    func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(
            name: "fuzz-" + name, dependencies: dependencies + ["CLibFuzzer"], path: "Sources/Fuzz/" + name,
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-fsanitize=fuzzer"])]
        )
    }
    package.targets += [
        .systemLibrary(name: "CLibFuzzer", path: "Sources/Fuzz/CLibFuzzer"),
        fuzzTarget("FrameDecoder", ["FaceWorkerProtocol", .product(name: "NIOCore", package: "swift-nio")]),
        fuzzTarget("Connection", [
            "FaceAnalysis", "FaceDetection", "FaceWorkerProtocol", "SocketTransport", "WorkerCore",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ]),
        fuzzTarget("FrameAdmission", ["FaceDetection", "FaceWorkerProtocol", "Imaging", "WorkerCore"]),
        fuzzTarget("JPEG", ["Imaging"]),
        fuzzTarget("TFLite", ["ModelFile"]),
        fuzzTarget("FlexBuffers", ["ModelFile"]),
        fuzzTarget("TaskBundle", ["ModelFile"]),
        fuzzTarget("GeometryMetadata", ["FaceDetection"]),
    ]
}
