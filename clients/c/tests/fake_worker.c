#include "fake_worker.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct fake_worker {
    char dir[64];
    char path[96];
    int listen_fd;
    fake_script script;
    void *arg;
    int connections;
    pthread_t thread;
    bool serving; /* the thread runs, on listen_fd */
};

static void *serve(void *p)
{
    fake_worker *w = p;
    for (int i = 0; i < w->connections; i++) {
        int fd = accept(w->listen_fd, NULL, NULL);
        if (fd < 0)
            break;
        w->script(fd, w->arg);
        close(fd);
    }
    return NULL;
}

fake_worker *fake_worker_start(fake_script script, void *arg)
{
    return fake_worker_start_serving(script, arg, 1);
}

/* Binds and listens on w->path and starts the thread that serves it. */
static bool listen_and_serve(fake_worker *w, fake_script script, void *arg, int connections)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", w->path);
    w->listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (w->listen_fd < 0 || bind(w->listen_fd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
        listen(w->listen_fd, 1) < 0) {
        if (w->listen_fd >= 0)
            close(w->listen_fd);
        unlink(w->path);
        return false;
    }
    w->script = script;
    w->arg = arg;
    w->connections = connections;
    if (pthread_create(&w->thread, NULL, serve, w) != 0) {
        close(w->listen_fd);
        unlink(w->path);
        return false;
    }
    return true;
}

fake_worker *fake_worker_start_serving(fake_script script, void *arg, int connections)
{
    fake_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    const char *tmp = getenv("TMPDIR");
    snprintf(w->dir, sizeof w->dir, "%s/fw-fake-XXXXXX", tmp && tmp[0] && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(w->dir)) {
        free(w);
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s/worker.sock", w->dir);
    if (!listen_and_serve(w, script, arg, connections)) {
        rmdir(w->dir);
        free(w);
        return NULL;
    }
    w->serving = true;
    return w;
}

bool fake_worker_serve_again(fake_worker *w, fake_script script, void *arg, int connections)
{
    if (w->serving) {
        pthread_join(w->thread, NULL);
        close(w->listen_fd);
        unlink(w->path);
    }
    w->serving = listen_and_serve(w, script, arg, connections);
    return w->serving;
}

const char *fake_worker_path(const fake_worker *w)
{
    return w->path;
}

void fake_worker_stop(fake_worker *w)
{
    if (w->serving) {
        pthread_join(w->thread, NULL);
        close(w->listen_fd);
        unlink(w->path);
    }
    rmdir(w->dir);
    free(w);
}

static int read_full(int fd, uint8_t *buf, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, buf + done, len - done);
        if (n == 0)
            return -1;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

Faceworker__V1__ClientMessage *fake_read(int fd)
{
    uint8_t header[5];
    if (read_full(fd, header, sizeof header) < 0 || header[0] != 0)
        return NULL;
    uint32_t len = (uint32_t)header[1] << 24 | (uint32_t)header[2] << 16 | (uint32_t)header[3] << 8 | header[4];
    uint8_t *payload = malloc(len ? len : 1);
    if (!payload)
        return NULL;
    Faceworker__V1__ClientMessage *m = NULL;
    if (read_full(fd, payload, len) == 0)
        m = faceworker__v1__client_message__unpack(NULL, len, payload);
    free(payload);
    return m;
}

void fake_write_bytes(int fd, const void *bytes, size_t len)
{
    const uint8_t *p = bytes;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        p += n;
        len -= (size_t)n;
    }
}

static uint8_t *frame(const Faceworker__V1__WorkerMessage *m, size_t *total)
{
    size_t size = faceworker__v1__worker_message__get_packed_size(m);
    uint8_t *buf = malloc(5 + size);
    if (!buf)
        return NULL;
    buf[0] = 0;
    buf[1] = (uint8_t)(size >> 24);
    buf[2] = (uint8_t)(size >> 16);
    buf[3] = (uint8_t)(size >> 8);
    buf[4] = (uint8_t)size;
    faceworker__v1__worker_message__pack(m, buf + 5);
    *total = 5 + size;
    return buf;
}

void fake_write(int fd, const Faceworker__V1__WorkerMessage *m)
{
    size_t total;
    uint8_t *buf = frame(m, &total);
    if (!buf)
        return;
    fake_write_bytes(fd, buf, total);
    free(buf);
}

void fake_write_slowly(int fd, const Faceworker__V1__WorkerMessage *m)
{
    size_t total;
    uint8_t *buf = frame(m, &total);
    if (!buf)
        return;
    for (size_t i = 0; i < total; i++) {
        fake_write_bytes(fd, buf + i, 1);
        nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
    }
    free(buf);
}

void fake_write_status(int fd, uint64_t call_id, Faceworker__V1__Status__Code code, const char *message)
{
    Faceworker__V1__Status status = FACEWORKER__V1__STATUS__INIT;
    status.code = code;
    status.message = (char *)message;
    Faceworker__V1__WorkerMessage m = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    m.call_id = call_id;
    m.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR;
    m.error = &status;
    fake_write(fd, &m);
}

void fake_answer_ping(int fd, const Faceworker__V1__ClientMessage *m, uint64_t call_id, bool slowly)
{
    Faceworker__V1__PingResponse pong = FACEWORKER__V1__PING_RESPONSE__INIT;
    pong.payload = m->ping->payload;
    Faceworker__V1__WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_PING;
    w.ping = &pong;
    if (slowly)
        fake_write_slowly(fd, &w);
    else
        fake_write(fd, &w);
}

void fake_answer_open(int fd, const Faceworker__V1__ClientMessage *m, uint64_t session_id,
                      Faceworker__V1__SessionOptions *options)
{
    Faceworker__V1__OpenSessionResponse open = FACEWORKER__V1__OPEN_SESSION_RESPONSE__INIT;
    open.session_id = session_id;
    open.options = options;
    Faceworker__V1__WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION;
    w.open_session = &open;
    fake_write(fd, &w);
}

void fake_wait_for_hangup(int fd)
{
    Faceworker__V1__ClientMessage *m;
    while ((m = fake_read(fd)) != NULL)
        faceworker__v1__client_message__free_unpacked(m, NULL);
}

fw_client *fake_connect(fake_script script, void *arg, fake_worker **w)
{
    *w = fake_worker_start(script, arg);
    if (!*w) {
        fprintf(stderr, "    cannot start the fake worker\n");
        return NULL;
    }
    fw_error err;
    fw_client *c = fw_connect(fake_worker_path(*w), &err);
    if (!c) {
        fprintf(stderr, "    fw_connect: %s\n", err.message);
        fake_worker_stop(*w);
    } else {
        fw_set_auto_reconnect(c, false, NULL);
    }
    return c;
}

void fake_disconnect(fw_client *c, fake_worker *w)
{
    fw_close(c);
    fake_worker_stop(w);
}
