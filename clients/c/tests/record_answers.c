/*
 * Records what a real face-worker answers, byte for byte as its socket
 * carries it, for the reader's tests (test_reader --answers): sessions
 * opened with every output, a result with the whole pipeline's face, one
 * with blendshapes, a refusal, an echo, the statistics, a close.
 *
 *   record_answers JPEG OUT SOCKET
 *
 * `make record-answers` runs it against the repository's worker and
 * fixture; its output is committed, so the tests need no worker.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "faceworker/v1/faceworker.pb-c.h"

typedef Faceworker__V1__ClientMessage ClientMessage;

static int fd = -1;
static FILE *out;
static uint64_t next_call = 1;

static int read_full(uint8_t *buf, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t n = read(fd, buf + done, len - done);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            return -1;
        if (n > 0)
            done += (size_t)n;
    }
    return 0;
}

/* Sends m, then writes its answer, framed, to the output; the session id
 * an OpenSession answer carries, else 0; -1 on failure. */
static int64_t call(ClientMessage *m)
{
    m->call_id = next_call++;
    size_t len = faceworker__v1__client_message__get_packed_size(m);
    uint8_t *buf = malloc(5 + len);
    if (!buf)
        return -1;
    buf[0] = 0;
    buf[1] = (uint8_t)(len >> 24);
    buf[2] = (uint8_t)(len >> 16);
    buf[3] = (uint8_t)(len >> 8);
    buf[4] = (uint8_t)len;
    faceworker__v1__client_message__pack(m, buf + 5);
    ssize_t sent = send(fd, buf, 5 + len, MSG_NOSIGNAL);
    free(buf);
    uint8_t header[5];
    if (sent != (ssize_t)(5 + len) || read_full(header, 5) < 0)
        return -1;
    uint32_t n = (uint32_t)header[1] << 24 | (uint32_t)header[2] << 16 | (uint32_t)header[3] << 8 | header[4];
    uint8_t *answer = malloc(n ? n : 1);
    if (!answer || read_full(answer, n) < 0) {
        free(answer);
        return -1;
    }
    fwrite(header, 1, 5, out);
    fwrite(answer, 1, n, out);
    Faceworker__V1__WorkerMessage *w = faceworker__v1__worker_message__unpack(NULL, n, answer);
    free(answer);
    if (!w)
        return -1;
    int64_t id = w->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION ? (int64_t)w->open_session->session_id : 0;
    faceworker__v1__worker_message__free_unpacked(w, NULL);
    return id;
}

static int64_t open_session(Faceworker__V1__MeshModel mesh)
{
    Faceworker__V1__SessionOptions o = FACEWORKER__V1__SESSION_OPTIONS__INIT;
    o.running_mode = FACEWORKER__V1__RUNNING_MODE__RUNNING_MODE_VIDEO;
    o.tracking_enabled = 1;
    o.output_face_mesh = 1;
    o.output_transformation_matrix = 1;
    o.mesh_model = mesh;
    if (mesh == FACEWORKER__V1__MESH_MODEL__MESH_MODEL_FACE_LANDMARKER) {
        o.output_face_blendshapes = 1;
    } else {
        o.landmark_mode = FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_ALL;
        o.contour_mode = FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_ALL;
        o.classification_mode = FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_ALL;
    }
    Faceworker__V1__OpenSessionRequest req = FACEWORKER__V1__OPEN_SESSION_REQUEST__INIT;
    req.options = &o;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION;
    m.open_session = &req;
    return call(&m);
}

static int64_t process(uint64_t session, const uint8_t *jpeg, size_t len, int64_t timestamp_ms)
{
    Faceworker__V1__Frame frame = FACEWORKER__V1__FRAME__INIT;
    frame.image_case = FACEWORKER__V1__FRAME__IMAGE_JPEG;
    frame.jpeg.data = (uint8_t *)jpeg;
    frame.jpeg.len = len;
    frame.timestamp_ms = timestamp_ms;
    Faceworker__V1__ProcessFrameRequest req = FACEWORKER__V1__PROCESS_FRAME_REQUEST__INIT;
    req.session_id = session;
    req.frame = &frame;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_PROCESS_FRAME;
    m.process_frame = &req;
    return call(&m);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: record_answers JPEG OUT SOCKET\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    static uint8_t jpeg[1 << 20];
    size_t len = in ? fread(jpeg, 1, sizeof jpeg, in) : 0;
    if (in)
        fclose(in);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", argv[3]);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    out = fopen(argv[2], "wb");
    if (len == 0 || !out || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        fprintf(stderr, "record_answers: cannot read %s, write %s or connect to %s\n", argv[1], argv[2], argv[3]);
        return 1;
    }
    int64_t mesh = open_session(FACEWORKER__V1__MESH_MODEL__MESH_MODEL_ATTENTION_MESH);
    int64_t landmarker = open_session(FACEWORKER__V1__MESH_MODEL__MESH_MODEL_FACE_LANDMARKER);
    bool ok = mesh > 0 && landmarker > 0 && process((uint64_t)mesh, jpeg, len, 1) == 0 &&
              process((uint64_t)mesh, jpeg, len, 1) == 0 && /* refused: the timestamp does not increase */
              process((uint64_t)landmarker, jpeg, len, 1) == 0;
    Faceworker__V1__PingRequest ping = FACEWORKER__V1__PING_REQUEST__INIT;
    ping.payload.data = (uint8_t *)"hello";
    ping.payload.len = 5;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING;
    m.ping = &ping;
    ok = ok && call(&m) == 0;
    Faceworker__V1__GetStatsRequest stats = FACEWORKER__V1__GET_STATS_REQUEST__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_GET_STATS;
    m.get_stats = &stats;
    ok = ok && call(&m) == 0;
    Faceworker__V1__CloseSessionRequest close_req = FACEWORKER__V1__CLOSE_SESSION_REQUEST__INIT;
    close_req.session_id = (uint64_t)mesh;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION;
    m.close_session = &close_req;
    ok = ok && call(&m) == 0;
    close(fd);
    if (fclose(out) != 0 || !ok) {
        fprintf(stderr, "record_answers: the worker did not answer every call\n");
        return 1;
    }
    return 0;
}
