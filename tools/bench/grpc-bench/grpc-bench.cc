// grpc-bench: face-bench's video and ping round trips through the worker's
// gRPC socket, driven by gRPC's own C++ client.
//
// `make bench` runs it beside face-bench on one worker, so that P1, P2 and
// P6 through gRPC are timed by a compiled client as they are through the
// worker's own socket, and the ratio shows what the gRPC door costs rather
// than what an interpreter costs. It sends what face-bench sends: the same
// session options, the JPEG files of a folder in name order, cycled, with
// camera-like timestamps, each frame once the previous one is answered.

#include <grpcpp/grpcpp.h>

#include <getopt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "faceworker/v1/faceworker_service.grpc.pb.h"

namespace {

namespace v1 = faceworker::v1;

constexpr int kConnectSeconds = 10;
constexpr double kFramesPerSecond = 30;

struct Config {
    std::string target;
    std::string mode = "video";
    long count = 300;
    long warmup = 0;
    std::string frames_dir;
    bool landmarks = false;
    std::string samples_path;
};

// What a run measured: a round trip per timed frame or Ping, and for frames
// the round trip minus the worker's own total (transport and client).
struct Run {
    std::vector<double> round_trips_us;
    std::vector<double> transport_us;
    long sent = 0;
    long answered = 0;
    long errors = 0;
    long faces = 0;
    std::string first_error;

    void error(const std::string &what) {
        if (errors++ == 0) first_error = what;
    }
};

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 64;

[[noreturn]] void fail(const std::string &message, int status = kExitFailure) {
    std::fprintf(stderr, "grpc-bench: %s\n", message.c_str());
    std::exit(status);
}

double elapsed_us(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since).count();
}

std::string describe(const grpc::Status &status) {
    return "gRPC status " + std::to_string(status.error_code()) + ": " + status.error_message();
}

std::vector<std::string> read_frames(const std::string &dir) {
    std::vector<std::filesystem::path> paths;
    std::error_code listing;
    for (const auto &entry : std::filesystem::directory_iterator(dir, listing)) {
        auto extension = entry.path().extension();
        if (extension == ".jpg" || extension == ".jpeg") paths.push_back(entry.path());
    }
    if (listing) fail("cannot list " + dir + ": " + listing.message());
    std::sort(paths.begin(), paths.end());
    std::vector<std::string> frames;
    for (const auto &path : paths) {
        std::ifstream file(path, std::ios::binary);
        std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
        if (!file.good() && !file.eof()) fail("cannot read " + path.string());
        frames.push_back(std::move(bytes));
    }
    if (frames.empty()) fail("no .jpg or .jpeg files in " + dir);
    return frames;
}

// face-bench's options: video mode with tracking, one face, and with
// --landmarks the whole pipeline.
v1::SessionOptions session_options(const Config &config) {
    v1::SessionOptions options;
    options.set_running_mode(v1::RUNNING_MODE_VIDEO);
    options.set_tracking_enabled(true);
    options.set_num_faces(1);
    if (config.landmarks) {
        options.set_landmark_mode(v1::LANDMARK_MODE_ALL);
        options.set_contour_mode(v1::CONTOUR_MODE_ALL);
        options.set_classification_mode(v1::CLASSIFICATION_MODE_ALL);
        options.set_output_face_mesh(true);
    }
    return options;
}

// One Session stream: the warm-up frames untimed, then the timed ones.
Run run_video(v1::FaceWorker::Stub &stub, const Config &config) {
    auto frames = read_frames(config.frames_dir);
    grpc::ClientContext context;
    auto stream = stub.Session(&context);
    v1::SessionRequest open;
    *open.mutable_open()->mutable_options() = session_options(config);
    v1::SessionResponse answer;
    if (!stream->Write(open) || !stream->Read(&answer)) fail("the session did not open: " + describe(stream->Finish()));
    if (answer.kind_case() != v1::SessionResponse::kOpened) fail("the session did not open: " + answer.ShortDebugString());

    Run run;
    long total = config.warmup + config.count;
    long long last_timestamp = -1;
    for (long i = 0; i < total; i++) {
        v1::SessionRequest request;
        auto *frame = request.mutable_frame();
        frame->set_jpeg(frames[static_cast<size_t>(i) % frames.size()]);
        // Camera-like timestamps that strictly increase.
        long long timestamp = std::llround(static_cast<double>(i) * 1000.0 / kFramesPerSecond);
        last_timestamp = std::max(timestamp, last_timestamp + 1);
        frame->set_timestamp_ms(last_timestamp);
        bool timed = i >= config.warmup;
        auto sent = std::chrono::steady_clock::now();
        if (!stream->Write(request) || !stream->Read(&answer)) {
            run.error("the stream broke at frame " + std::to_string(last_timestamp) + ": " + describe(stream->Finish()));
            return run;
        }
        double round_trip = elapsed_us(sent);
        if (!timed) continue;
        run.sent++;
        switch (answer.kind_case()) {
        case v1::SessionResponse::kResult:
            run.answered++;
            run.faces += answer.result().faces_size();
            run.round_trips_us.push_back(round_trip);
            run.transport_us.push_back(round_trip - static_cast<double>(answer.result().timings().total_us()));
            break;
        case v1::SessionResponse::kError:
            run.error("frame " + std::to_string(last_timestamp) + ": " + answer.error().ShortDebugString());
            break;
        default:
            run.error("frame " + std::to_string(last_timestamp) + " was answered with " + answer.ShortDebugString());
        }
    }
    stream->WritesDone();
    while (stream->Read(&answer)) {
    }
    auto status = stream->Finish();
    if (!status.ok()) run.error("the session ended with " + describe(status));
    return run;
}

// Empty unary Pings, one at a time.
Run run_ping(v1::FaceWorker::Stub &stub, const Config &config) {
    Run run;
    for (long i = 0; i < config.warmup + config.count; i++) {
        grpc::ClientContext context;
        v1::PingRequest request;
        v1::PingResponse response;
        auto sent = std::chrono::steady_clock::now();
        auto status = stub.Ping(&context, request, &response);
        double round_trip = elapsed_us(sent);
        if (i < config.warmup) continue;
        run.sent++;
        if (!status.ok()) {
            run.error("Ping: " + describe(status));
            continue;
        }
        run.answered++;
        run.round_trips_us.push_back(round_trip);
        // A Ping costs the worker nothing it times: all of it is transport, as face-bench counts it.
        run.transport_us.push_back(round_trip);
    }
    return run;
}

// The nearest-rank percentile, in ms; 0 when nothing was measured.
double percentile_ms(std::vector<double> values, double fraction) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    auto rank = static_cast<size_t>(std::ceil(fraction * static_cast<double>(values.size())));
    return values[std::max<size_t>(rank, 1) - 1] / 1000.0;
}

std::string json_string(const std::string &text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

void print_json(const Config &config, const Run &run) {
    const auto &rt = run.round_trips_us;
    std::printf("{\"mode\":%s,\"target\":%s,\"landmarks\":%s,\"sent\":%ld,\"answered\":%ld,\"errors\":%ld,\"faces\":%ld,"
                "\"latency_ms\":{\"p50\":%.4f,\"p90\":%.4f,\"p99\":%.4f,\"max\":%.4f},\"transport_median_ms\":%.4f,"
                "\"first_error\":%s}\n",
                json_string(config.mode).c_str(), json_string(config.target).c_str(), config.landmarks ? "true" : "false",
                run.sent, run.answered, run.errors, run.faces, percentile_ms(rt, 0.5), percentile_ms(rt, 0.9),
                percentile_ms(rt, 0.99), percentile_ms(rt, 1.0), percentile_ms(run.transport_us, 0.5),
                run.first_error.empty() ? "null" : json_string(run.first_error).c_str());
}

void write_samples(const std::string &path, const Run &run) {
    std::ofstream file(path);
    for (double us : run.round_trips_us) file << us << '\n';
    if (!file) fail("cannot write " + path);
}

void usage(const char *program, FILE *to) {
    std::fprintf(to,
                 "usage: %s -t TARGET [-m video|ping] [-n COUNT] [-w WARMUP] [-d DIR] [--landmarks] [--samples FILE]\n"
                 "\n"
                 "Times round trips through face-worker's gRPC socket (--grpc-socket) with gRPC's C++ client\n"
                 "and prints one JSON object: sent, answered, errors, faces, latency_ms (p50, p90, p99, max),\n"
                 "transport_median_ms (round trip minus the worker's own total) and first_error.\n"
                 "\n"
                 "  -t TARGET     the gRPC address, such as unix:/run/user/1000/faceworker-grpc.sock\n"
                 "  -m MODE       video: one Session stream in video mode with tracking, each frame sent\n"
                 "                once the previous one is answered (default); ping: empty unary Pings\n"
                 "  -n COUNT      timed frames or Pings (300)\n"
                 "  -w WARMUP     untimed frames or Pings first (0)\n"
                 "  -d DIR        video: send the .jpg/.jpeg files of DIR, in name order, cycling\n"
                 "  --landmarks   video: the whole pipeline (face mesh, ML Kit landmarks, contours,\n"
                 "                classification); default detection and tracking only\n"
                 "  --samples FILE  write every timed round trip, in microseconds, one per line\n"
                 "\n"
                 "Exits 64 on a bad option, 1 when it cannot read the frames, connect or open the\n"
                 "session; errors after that are counted and reported in the JSON.\n",
                 program);
}

long parse_count(const char *text, const char *option) {
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || value < 0)
        fail(std::string(option) + " takes a whole number >= 0, not \"" + text + "\"", kExitUsage);
    return value;
}

Config parse(int argc, char **argv) {
    Config config;
    const option long_options[] = {
        {"landmarks", no_argument, nullptr, 'L'},
        {"samples", required_argument, nullptr, 'S'},
        {"help", no_argument, nullptr, 'h'},
        {nullptr, 0, nullptr, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "t:m:n:w:d:h", long_options, nullptr)) != -1) {
        switch (c) {
        case 't': config.target = optarg; break;
        case 'm': config.mode = optarg; break;
        case 'n': config.count = parse_count(optarg, "-n"); break;
        case 'w': config.warmup = parse_count(optarg, "-w"); break;
        case 'd': config.frames_dir = optarg; break;
        case 'L': config.landmarks = true; break;
        case 'S': config.samples_path = optarg; break;
        case 'h': usage(argv[0], stdout); std::exit(0);
        default: usage(argv[0], stderr); std::exit(kExitUsage);
        }
    }
    if (optind != argc) fail(std::string("unexpected argument \"") + argv[optind] + "\"; see --help", kExitUsage);
    if (config.target.empty())
        fail("-t TARGET is required, such as -t unix:/path/to/faceworker-grpc.sock; see --help", kExitUsage);
    if (config.mode != "video" && config.mode != "ping") fail("-m takes video or ping, not \"" + config.mode + "\"", kExitUsage);
    if (config.mode == "video" && config.frames_dir.empty()) fail("video mode needs -d DIR, a folder of JPEG frames", kExitUsage);
    return config;
}

}  // namespace

int main(int argc, char **argv) {
    Config config = parse(argc, argv);
    auto channel = grpc::CreateChannel(config.target, grpc::InsecureChannelCredentials());
    auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(kConnectSeconds);
    if (!channel->WaitForConnected(deadline))
        fail("cannot connect to " + config.target + " within " + std::to_string(kConnectSeconds) + " s; is face-worker running with --grpc-socket?");
    auto stub = v1::FaceWorker::NewStub(channel);
    Run run = config.mode == "ping" ? run_ping(*stub, config) : run_video(*stub, config);
    if (!config.samples_path.empty()) write_samples(config.samples_path, run);
    print_json(config, run);
    return 0;
}
