/*
 * The C client against the conformance file, proto/faceworker/v1/defaults.json,
 * which the build turns into conformance.h (tests/gen_conformance.py).
 *
 *   test_conformance [--socket PATH]
 *
 * Without a worker: fw_session_options_init() holds every default of the
 * file, the client sends them on the wire, the socket rule picks the path
 * the file describes, and the answer cap is the file's to the byte (against
 * the fake worker). With --socket, against a real face-worker: the options
 * the worker applies to a default session are the file's, and every numeric
 * option is accepted at both ends of its range and refused just outside,
 * with INVALID_ARGUMENT and a message naming the option and its range, and
 * a raw image of each of the file's layout examples is taken with exactly
 * the file's bytes. The client's pixel formats are the file's, with the
 * wire's numbers. The last line printed is "N passed, N failed".
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "conformance.h"
#include "fake_worker.h"
#include "faceworker.h"
#include "support.h"

typedef Faceworker__V1__ClientMessage ClientMessage;
typedef Faceworker__V1__WorkerMessage WorkerMessage;

static const char *worker_socket;


/* ------------------------------------------------------------------------
 * The options of the file, read from the client's struct and from the wire
 * ------------------------------------------------------------------------ */

/* How fw_session_options holds an option of the file. */
enum member_kind {
    MEMBER_FLOAT,
    MEMBER_UINT32,
    MEMBER_BOOL,
    MEMBER_MODE,        /* an fw_ enum with the .proto enum's numbers */
    MEMBER_ALL_OR_NONE, /* a bool that is true for the value in true_means */
};

struct member {
    const char *option;
    size_t offset;
    enum member_kind kind;
    const char *true_means;
};

_Static_assert(sizeof(fw_running_mode) == sizeof(int) && sizeof(fw_performance_mode) == sizeof(int) &&
                   sizeof(fw_mesh_model) == sizeof(int),
               "MEMBER_MODE reads an int");

#define MEMBER(option, field, kind, true_means) {option, offsetof(fw_session_options, field), kind, true_means}

static const struct member members[] = {
    MEMBER("running_mode", running_mode, MEMBER_MODE, NULL),
    MEMBER("performance_mode", performance_mode, MEMBER_MODE, NULL),
    MEMBER("landmark_mode", landmarks, MEMBER_ALL_OR_NONE, "LANDMARK_MODE_ALL"),
    MEMBER("contour_mode", contours, MEMBER_ALL_OR_NONE, "CONTOUR_MODE_ALL"),
    MEMBER("classification_mode", classification, MEMBER_ALL_OR_NONE, "CLASSIFICATION_MODE_ALL"),
    MEMBER("min_face_size", min_face_size, MEMBER_FLOAT, NULL),
    MEMBER("tracking_enabled", tracking_enabled, MEMBER_BOOL, NULL),
    MEMBER("min_detection_confidence", min_detection_confidence, MEMBER_FLOAT, NULL),
    MEMBER("min_suppression_threshold", min_suppression_threshold, MEMBER_FLOAT, NULL),
    MEMBER("num_faces", num_faces, MEMBER_UINT32, NULL),
    MEMBER("min_face_presence_confidence", min_face_presence_confidence, MEMBER_FLOAT, NULL),
    MEMBER("min_tracking_confidence", min_tracking_confidence, MEMBER_FLOAT, NULL),
    MEMBER("output_face_mesh", output_face_mesh, MEMBER_BOOL, NULL),
    MEMBER("output_transformation_matrix", output_transformation_matrix, MEMBER_BOOL, NULL),
    MEMBER("detector_interval_frames", detector_interval_frames, MEMBER_UINT32, NULL),
    MEMBER("max_missed_frames", max_missed_frames, MEMBER_UINT32, NULL),
    MEMBER("refuse_damaged_jpeg", refuse_damaged_jpeg, MEMBER_BOOL, NULL),
    MEMBER("mesh_model", mesh_model, MEMBER_MODE, NULL),
    MEMBER("output_face_blendshapes", output_face_blendshapes, MEMBER_BOOL, NULL),
};

static const struct member *member_of(const char *option)
{
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
        if (strcmp(members[i].option, option) == 0)
            return &members[i];
    return NULL;
}

static double member_value(const fw_session_options *o, const struct member *m)
{
    const char *at = (const char *)o + m->offset;
    switch (m->kind) {
    case MEMBER_FLOAT: return *(const float *)(const void *)at;
    case MEMBER_UINT32: return *(const uint32_t *)(const void *)at;
    case MEMBER_MODE: return *(const int *)(const void *)at;
    case MEMBER_BOOL:
    case MEMBER_ALL_OR_NONE: return *(const bool *)(const void *)at;
    }
    return NAN;
}

static void set_member(fw_session_options *o, const struct member *m, double value)
{
    char *at = (char *)o + m->offset;
    if (m->kind == MEMBER_FLOAT)
        *(float *)(void *)at = (float)value;
    else if (m->kind == MEMBER_UINT32)
        *(uint32_t *)(void *)at = (uint32_t)value;
}

static const ProtobufCFieldDescriptor *wire_field(const char *option)
{
    return protobuf_c_message_descriptor_get_field_by_name(&faceworker__v1__session_options__descriptor, option);
}

/* The number of the .proto enum value the file names; -1 if there is none. */
static int enum_number(const char *option, const char *value)
{
    const ProtobufCFieldDescriptor *f = wire_field(option);
    const ProtobufCEnumValue *v =
        f && f->type == PROTOBUF_C_TYPE_ENUM ? protobuf_c_enum_descriptor_get_value_by_name(f->descriptor, value) : NULL;
    return v ? v->value : -1;
}

/* The file's default as the client's struct holds it. */
static double member_default(const struct conformance_option *c, const struct member *m)
{
    if (c->type != CONFORMANCE_ENUM)
        return m->kind == MEMBER_FLOAT ? (float)c->default_value : c->default_value;
    if (m->kind == MEMBER_ALL_OR_NONE)
        return strcmp(c->default_enum, m->true_means) == 0;
    return enum_number(c->name, c->default_enum);
}

/* The file's default as the wire carries it. */
static double wire_default(const struct conformance_option *c)
{
    if (c->type == CONFORMANCE_ENUM)
        return enum_number(c->name, c->default_enum);
    return c->type == CONFORMANCE_FLOAT ? (float)c->default_value : c->default_value;
}

/* The value of a SessionOptions field, and whether it is present (a field
 * without presence always is). */
static double wire_value(const Faceworker__V1__SessionOptions *p, const ProtobufCFieldDescriptor *f, bool *present)
{
    const char *base = (const char *)p;
    *present = !(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
               *(const uint32_t *)(const void *)(base + f->quantifier_offset) == f->id;
    const void *at = base + f->offset;
    switch (f->type) {
    case PROTOBUF_C_TYPE_FLOAT: return *(const float *)at;
    case PROTOBUF_C_TYPE_UINT32: return *(const uint32_t *)at;
    case PROTOBUF_C_TYPE_BOOL: return *(const protobuf_c_boolean *)at;
    case PROTOBUF_C_TYPE_ENUM: return *(const int *)at;
    default: return NAN;
    }
}

/* Whether text has a number equal to value as a word of its own, however
 * it is written ("1", "1.0", "1e0"). */
static bool mentions_number(const char *text, double value)
{
    for (const char *p = text; *p; p++) {
        bool starts = (*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9');
        bool inside_word = p > text && (p[-1] == '_' || p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9') ||
                                        (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
        if (!starts || inside_word)
            continue;
        char *end;
        double parsed = strtod(p, &end);
        if (end > p && fabs(parsed - value) <= 1e-6 * fmax(1.0, fabs(value)))
            return true;
        if (end > p)
            p = end - 1;
    }
    return false;
}

/* ------------------------------------------------------------------------
 * Defaults
 * ------------------------------------------------------------------------ */

static void test_every_option_of_the_file_is_on_the_wire_and_in_the_struct(void)
{
    for (size_t i = 0; i < CONFORMANCE_OPTION_COUNT; i++) {
        const char *name = conformance_options[i].name;
        CHECK(wire_field(name) != NULL, "the file's %s is no field of SessionOptions", name);
        CHECK(member_of(name) != NULL, "the file's %s has no member in fw_session_options", name);
    }
    const ProtobufCMessageDescriptor *d = &faceworker__v1__session_options__descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        bool listed = false;
        for (size_t j = 0; j < CONFORMANCE_OPTION_COUNT; j++)
            listed = listed || strcmp(conformance_options[j].name, d->fields[i].name) == 0;
        CHECK(listed, "SessionOptions.%s is missing from the conformance file", d->fields[i].name);
    }
}

static void test_init_holds_the_files_defaults(void)
{
    fw_session_options o;
    memset(&o, 0xa5, sizeof o);
    fw_session_options_init(&o);
    for (size_t i = 0; i < CONFORMANCE_OPTION_COUNT; i++) {
        const struct conformance_option *c = &conformance_options[i];
        const struct member *m = member_of(c->name);
        REQUIRE(m, "%s has no member", c->name);
        CHECK(member_value(&o, m) == member_default(c, m), "%s: fw_session_options_init() sets %g, the file says %g",
              c->name, member_value(&o, m), member_default(c, m));
    }
}

struct sent_options {
    int opened;
    Faceworker__V1__SessionOptions seen[2];
};

/* Records the options of two OpenSession calls, answering each with them. */
static void script_record_options(int fd, void *arg)
{
    struct sent_options *r = arg;
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION && r->opened < 2) {
            Faceworker__V1__SessionOptions *o = m->open_session->options;
            r->seen[r->opened++] = *o;
            fake_answer_open(fd, m, (uint64_t)r->opened, o);
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

static void test_the_defaults_go_on_the_wire(void)
{
    struct sent_options rec = {0};
    fake_worker *w;
    fw_client *c = fake_connect(script_record_options, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_session_options o;
    fw_session_options_init(&o);
    CHECK(fw_open_session(c, NULL, &err) != NULL, "NULL options: %s", err.message);
    CHECK(fw_open_session(c, &o, &err) != NULL, "fw_session_options_init(): %s", err.message);
    fake_disconnect(c, w);
    REQUIRE(rec.opened == 2, "the fake saw %d sessions opened", rec.opened);
    const char *how[2] = {"NULL options", "fw_session_options_init()"};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < CONFORMANCE_OPTION_COUNT; i++) {
            const struct conformance_option *opt = &conformance_options[i];
            const ProtobufCFieldDescriptor *f = wire_field(opt->name);
            REQUIRE(f, "%s is no field", opt->name);
            bool present;
            double sent = wire_value(&rec.seen[k], f, &present);
            /* The C client sends every value, so that the worker applies
             * what the caller holds. */
            CHECK(present, "%s: %s is not sent", how[k], opt->name);
            CHECK(sent == wire_default(opt), "%s: %s is sent as %g, the file's default is %g", how[k], opt->name,
                  sent, wire_default(opt));
        }
    }
}

/* ------------------------------------------------------------------------
 * The socket rule
 * ------------------------------------------------------------------------ */

/* The two variables of the rule, saved and restored around a test. */
struct saved_env {
    char *socket, *runtime_dir;
};

static char *saved_copy(const char *name)
{
    const char *v = getenv(name);
    return v ? strdup(v) : NULL;
}

static struct saved_env save_env(void)
{
    return (struct saved_env){saved_copy(CONFORMANCE_SOCKET_ENV), saved_copy(CONFORMANCE_RUNTIME_DIR_ENV)};
}

static void restore_one(const char *name, char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    free(value);
}

static void restore_env(struct saved_env *s)
{
    restore_one(CONFORMANCE_SOCKET_ENV, s->socket);
    restore_one(CONFORMANCE_RUNTIME_DIR_ENV, s->runtime_dir);
}

/* Sets or (value NULL) unsets a variable. */
static void put_env(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

static void test_the_socket_rule(void)
{
    char fallback[128];
    snprintf(fallback, sizeof fallback, CONFORMANCE_FALLBACK_FORMAT, (unsigned)geteuid());
    static const struct {
        const char *socket_env, *runtime_dir, *expected; /* expected NULL: the fallback */
        const char *what;
    } cases[] = {
        {"/srv/face/worker.sock", "/run/user/4321", "/srv/face/worker.sock", "the variable before the runtime dir"},
        {"relative.sock", NULL, "relative.sock", "a relative path in the variable is taken as it is"},
        {"", "/run/user/4321", "/run/user/4321/" CONFORMANCE_RUNTIME_DIR_FILE, "an empty variable is unset"},
        {NULL, "/run/user/4321/", "/run/user/4321/" CONFORMANCE_RUNTIME_DIR_FILE, "a runtime dir with a slash"},
        {NULL, "run/user/4321", NULL, "a relative runtime dir is ignored"},
        {NULL, "", NULL, "an empty runtime dir is ignored"},
        {NULL, NULL, NULL, "neither variable"},
    };
    struct saved_env saved = save_env();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        put_env(CONFORMANCE_SOCKET_ENV, cases[i].socket_env);
        put_env(CONFORMANCE_RUNTIME_DIR_ENV, cases[i].runtime_dir);
        const char *expected = cases[i].expected ? cases[i].expected : fallback;
        char buf[256];
        int n = fw_default_socket_path(buf, sizeof buf);
        CHECK(strcmp(buf, expected) == 0, "%s: %s, not %s", cases[i].what, buf, expected);
        CHECK(n == (int)strlen(expected), "%s: returned %d", cases[i].what, n);
    }
    char small[8];
    CHECK(fw_default_socket_path(small, sizeof small) == -1, "a buffer too small is refused");
    CHECK(small[0] == '\0', "and left empty");
    restore_env(&saved);
}

static void script_echo_pings(int fd, void *arg)
{
    int *pings = arg;
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING) {
            fake_answer_ping(fd, m, m->call_id, false);
            (*pings)++;
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

/* fw_connect(NULL) reaches whatever listens where the rule points. */
static bool reaches(const char *what)
{
    fw_error err;
    fw_client *c = fw_connect(NULL, &err);
    bool ok = CHECK_AT(c != NULL, "%s: %s", what, err.message);
    if (ok) {
        fw_set_timeout(c, WORKER_TIMEOUT_MS);
        ok = CHECK_AT(fw_ping(c, NULL, 0, &err) == FW_OK, "%s: %s", what, err.message);
    }
    fw_close(c);
    return ok;
}

static void test_the_variable_picks_the_worker_of_fw_connect_null(void)
{
    struct saved_env saved = save_env();
    int pings = 0;
    fake_worker *w = fake_worker_start(script_echo_pings, &pings);
    if (CHECK_AT(w != NULL, "fake worker")) {
        put_env(CONFORMANCE_SOCKET_ENV, fake_worker_path(w));
        put_env(CONFORMANCE_RUNTIME_DIR_ENV, "/nonexistent");
        if (!reaches("FACEWORKER_SOCKET"))
            fw_close(fw_connect(fake_worker_path(w), NULL)); /* the fake waits for one client */
        fake_worker_stop(w);
        CHECK(pings == 1, "the fake worker saw %d pings", pings);
    }

    char too_long[300];
    memset(too_long, 'a', sizeof too_long - 1);
    too_long[0] = '/';
    too_long[sizeof too_long - 1] = '\0';
    put_env(CONFORMANCE_SOCKET_ENV, too_long);
    fw_error err;
    CHECK(fw_connect(NULL, &err) == NULL && err.code == FW_ERR_USAGE, "a path too long: %s", fw_status_name(err.code));
    CHECK(contains(err.message, CONFORMANCE_SOCKET_ENV) && contains(err.message, "299"),
          "the message says where the path came from and its length: %s", err.message);
    restore_env(&saved);
}

static void test_worker_found_by_the_rule(void)
{
    struct saved_env saved = save_env();
    put_env(CONFORMANCE_SOCKET_ENV, worker_socket);
    put_env(CONFORMANCE_RUNTIME_DIR_ENV, "/nonexistent");
    reaches("FACEWORKER_SOCKET");

    /* The worker's socket is its directory's faceworker.sock, as the rule's
     * runtime dir would name it. */
    char dir[512];
    snprintf(dir, sizeof dir, "%s", worker_socket);
    char *slash = strrchr(dir, '/');
    if (CHECK_AT(slash && strcmp(slash + 1, CONFORMANCE_RUNTIME_DIR_FILE) == 0, "the worker's socket is %s",
                 worker_socket)) {
        *slash = '\0';
        put_env(CONFORMANCE_SOCKET_ENV, "");
        put_env(CONFORMANCE_RUNTIME_DIR_ENV, dir);
        reaches("XDG_RUNTIME_DIR");
    }
    restore_env(&saved);
}

/* ------------------------------------------------------------------------
 * The answer cap
 * ------------------------------------------------------------------------ */

/* Answers the first call with a Status whose message makes the answer
 * exactly the cap long: the worker's refusal, which reaches the caller only
 * if the client takes an answer of that size. */
static void script_answer_of_the_cap(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    Faceworker__V1__Status status = FACEWORKER__V1__STATUS__INIT;
    status.code = FACEWORKER__V1__STATUS__CODE__ABORTED;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR;
    w.error = &status;
    faceworker__v1__client_message__free_unpacked(m, NULL);
    /* Varint lengths change only at powers of 128, far from the cap. */
    status.message = "";
    size_t text = CONFORMANCE_MAX_ANSWER_BYTES - faceworker__v1__worker_message__get_packed_size(&w);
    char *message = malloc(text + 1);
    if (!message)
        return;
    memset(message, 'x', text);
    message[text] = '\0';
    status.message = message;
    text -= faceworker__v1__worker_message__get_packed_size(&w) - CONFORMANCE_MAX_ANSWER_BYTES;
    message[text] = '\0';
    if (faceworker__v1__worker_message__get_packed_size(&w) == CONFORMANCE_MAX_ANSWER_BYTES)
        fake_write(fd, &w);
    free(message);
    fake_wait_for_hangup(fd);
}

static void test_an_answer_of_exactly_the_cap_is_accepted(void)
{
    CHECK(FW_MAX_ANSWER_BYTES == CONFORMANCE_MAX_ANSWER_BYTES, "FW_MAX_ANSWER_BYTES is %u, the file says %u",
          FW_MAX_ANSWER_BYTES, CONFORMANCE_MAX_ANSWER_BYTES);
    fake_worker *w;
    fw_client *c = fake_connect(script_answer_of_the_cap, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_set_timeout(c, WORKER_TIMEOUT_MS);
    fw_error err;
    int rc = fw_ping(c, NULL, 0, &err);
    CHECK(rc == FW_ABORTED, "an answer of %u bytes reaches the caller: %s %s", CONFORMANCE_MAX_ANSWER_BYTES,
          fw_status_name(rc), err.message);
    CHECK(strspn(err.message, "x") == sizeof err.message - 1, "with its message, cut to fit: %.40s...",
          err.message);
    fake_disconnect(c, w);
}

/* Answers the first call with a header announcing one byte over the cap. */
static void script_over_the_cap(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    faceworker__v1__client_message__free_unpacked(m, NULL);
    uint32_t len = CONFORMANCE_MAX_ANSWER_BYTES + 1;
    const uint8_t header[5] = {0, (uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8), (uint8_t)len};
    fake_write_bytes(fd, header, sizeof header);
    fake_wait_for_hangup(fd);
}

static void test_an_answer_over_the_cap_is_a_protocol_error(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_over_the_cap, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_set_timeout(c, WORKER_TIMEOUT_MS);
    fw_error err;
    CHECK(fw_ping(c, NULL, 0, &err) == FW_ERR_PROTOCOL, "code %s: %s", fw_status_name(err.code), err.message);
    CHECK(mentions_number(err.message, CONFORMANCE_MAX_ANSWER_BYTES + 1.0) &&
              mentions_number(err.message, CONFORMANCE_MAX_ANSWER_BYTES),
          "the message gives the length and the cap: %s", err.message);
    fake_disconnect(c, w);
}

/* ------------------------------------------------------------------------
 * Against the worker
 * ------------------------------------------------------------------------ */

static void test_worker_applies_the_files_defaults(void)
{
    fw_client *c = connect_worker(worker_socket);
    REQUIRE(c, "connect");
    fw_error err;
    fw_session *s = fw_open_session(c, NULL, &err);
    if (CHECK_AT(s != NULL, "%s", err.message)) {
        fw_session_options in_effect = {0};
        fw_session_get_options(s, &in_effect);
        for (size_t i = 0; i < CONFORMANCE_OPTION_COUNT; i++) {
            const struct conformance_option *opt = &conformance_options[i];
            const struct member *m = member_of(opt->name);
            REQUIRE(m, "%s has no member", opt->name);
            CHECK(member_value(&in_effect, m) == member_default(opt, m), "the worker applies %s = %g, the file says %g",
                  opt->name, member_value(&in_effect, m), member_default(opt, m));
        }
    }
    fw_close(c);
}

/* The next float past a bound, away from the range. */
static double just_outside(const struct conformance_option *opt, double bound, double direction)
{
    if (opt->type == CONFORMANCE_FLOAT)
        return nextafterf((float)bound, direction > 0 ? INFINITY : -INFINITY);
    return bound + direction;
}

/* Opens a session with the defaults but for one member; *o holds what was asked. */
static fw_session *open_with(fw_client *c, const struct member *m, double value, fw_session_options *o,
                             fw_error *err)
{
    fw_session_options_init(o);
    set_member(o, m, value);
    return fw_open_session(c, o, err);
}

static void check_accepted(fw_client *c, const struct conformance_option *opt, const struct member *m, double value)
{
    fw_session_options asked, in_effect = {0};
    fw_error err;
    fw_session *s = open_with(c, m, value, &asked, &err);
    if (!CHECK_AT(s != NULL, "%s = %g is in range: %s", opt->name, value, err.message))
        return;
    fw_session_get_options(s, &in_effect);
    CHECK(member_value(&in_effect, m) == member_value(&asked, m), "%s = %g: the worker applies %g", opt->name,
          value, member_value(&in_effect, m));
    CHECK(fw_close_session(s, &err) == FW_OK, "%s", err.message);
}

static void check_refused(fw_client *c, const struct conformance_option *opt, const struct member *m, double value)
{
    fw_session_options asked;
    fw_error err;
    fw_session *s = open_with(c, m, value, &asked, &err);
    CHECK(s == NULL, "%s = %.9g is out of range", opt->name, value);
    CHECK(err.code == FW_INVALID_ARGUMENT, "%s = %.9g: %s", opt->name, value, fw_status_name(err.code));
    CHECK(contains(err.message, opt->name) && mentions_number(err.message, opt->min) &&
              mentions_number(err.message, opt->max),
          "%s = %.9g: the message names the option and the range %g to %g: %s", opt->name, value, opt->min,
          opt->max, err.message);
    fw_close_session(s, NULL);
}

static void test_worker_takes_each_range_exactly(void)
{
    fw_client *c = connect_worker(worker_socket);
    REQUIRE(c, "connect");
    int ranges = 0;
    for (size_t i = 0; i < CONFORMANCE_OPTION_COUNT; i++) {
        const struct conformance_option *opt = &conformance_options[i];
        if (!opt->has_range)
            continue;
        ranges++;
        const struct member *m = member_of(opt->name);
        REQUIRE(m && (m->kind == MEMBER_FLOAT || m->kind == MEMBER_UINT32), "%s is no number", opt->name);
        check_accepted(c, opt, m, opt->min);
        check_accepted(c, opt, m, opt->max);
        check_refused(c, opt, m, just_outside(opt, opt->max, +1));
        double below = just_outside(opt, opt->min, -1);
        /* An unsigned option has nothing below 0; and where 0 stands for
         * the default, 0 is no value below the range. */
        if (opt->type == CONFORMANCE_UINT32 && (below < 0 || (below == 0 && opt->zero_means_default)))
            continue;
        check_refused(c, opt, m, below);
    }
    CHECK(ranges > 0, "the file has ranges");
    fw_close(c);
}

static void test_worker_takes_zero_as_the_default_where_the_file_says_so(void)
{
    fw_client *c = connect_worker(worker_socket);
    REQUIRE(c, "connect");
    for (size_t i = 0; i < CONFORMANCE_OPTION_COUNT; i++) {
        const struct conformance_option *opt = &conformance_options[i];
        if (!opt->zero_means_default)
            continue;
        const struct member *m = member_of(opt->name);
        REQUIRE(m, "%s has no member", opt->name);
        fw_session_options asked;
        fw_error err;
        fw_session *s = open_with(c, m, 0, &asked, &err);
        if (CHECK_AT(s != NULL, "%s = 0: %s", opt->name, err.message)) {
            fw_session_options in_effect = {0};
            fw_session_get_options(s, &in_effect);
            CHECK(member_value(&in_effect, m) == opt->default_value, "%s = 0 gives %g, the default is %g", opt->name,
                  member_value(&in_effect, m), opt->default_value);
            fw_close_session(s, NULL);
        }
    }
    fw_close(c);
}

/* ------------------------------------------------------------------------
 * Raw images
 * ------------------------------------------------------------------------ */

/* The client's pixel formats by the wire names the file uses. */
static const struct {
    const char *name;
    fw_pixel_format format;
} pixel_formats[] = {
    {"PIXEL_FORMAT_RGB", FW_PIXEL_RGB},     {"PIXEL_FORMAT_RGBA", FW_PIXEL_RGBA}, {"PIXEL_FORMAT_BGRA", FW_PIXEL_BGRA},
    {"PIXEL_FORMAT_BGR", FW_PIXEL_BGR},     {"PIXEL_FORMAT_GRAY8", FW_PIXEL_GRAY8}, {"PIXEL_FORMAT_NV12", FW_PIXEL_NV12},
    {"PIXEL_FORMAT_NV21", FW_PIXEL_NV21}, {"PIXEL_FORMAT_I420", FW_PIXEL_I420},
};

/* The client's format of a wire name; 0 if it has none. */
static fw_pixel_format pixel_format_named(const char *name)
{
    for (size_t i = 0; i < sizeof pixel_formats / sizeof pixel_formats[0]; i++)
        if (strcmp(pixel_formats[i].name, name) == 0)
            return pixel_formats[i].format;
    return 0;
}

/* The client sends its format's number as the wire's: each of the file's
 * formats has a value here, and the .proto's number for it. */
static void test_every_pixel_format_of_the_file_is_the_clients_with_the_wires_number(void)
{
    CHECK(CONFORMANCE_PIXEL_FORMAT_COUNT == sizeof pixel_formats / sizeof pixel_formats[0],
          "the file has %zu formats, the client %zu", CONFORMANCE_PIXEL_FORMAT_COUNT,
          sizeof pixel_formats / sizeof pixel_formats[0]);
    for (size_t i = 0; i < CONFORMANCE_PIXEL_FORMAT_COUNT; i++) {
        const char *name = conformance_pixel_formats[i];
        const ProtobufCEnumValue *wire =
            protobuf_c_enum_descriptor_get_value_by_name(&faceworker__v1__pixel_format__descriptor, name);
        if (!CHECK_AT(wire != NULL, "%s is not on the wire", name))
            continue;
        CHECK((int)pixel_format_named(name) == wire->value, "%s: the client sends %d, the wire's number is %d", name,
              (int)pixel_format_named(name), wire->value);
    }
}

/* A raw image of each of the file's examples is taken with exactly the file's
 * byte count, and refused with one byte less or more. */
static void test_worker_takes_exactly_the_files_raw_image_bytes(void)
{
    fw_client *c = connect_worker(worker_socket);
    REQUIRE(c, "connect");
    fw_error err;
    fw_session *s = fw_open_session(c, NULL, &err);
    REQUIRE(s, "%s", err.message);
    for (size_t i = 0; i < CONFORMANCE_RAW_EXAMPLE_COUNT; i++) {
        const struct conformance_raw_example *e = &conformance_raw_examples[i];
        uint8_t *pixels = calloc(e->byte_count + 1, 1);
        REQUIRE(pixels, "calloc");
        for (int delta = -1; delta <= 1; delta++) {
            fw_frame frame = {.pixels = pixels, .pixels_len = e->byte_count + delta, .format = pixel_format_named(e->format),
                              .width = e->width, .height = e->height, .row_stride = e->row_stride};
            fw_result *result = NULL;
            int code = fw_process(s, &frame, &result, &err);
            if (delta == 0)
                CHECK(code == FW_OK, "%s %ux%u stride %u in %u bytes: %s", e->format, e->width, e->height,
                      e->row_stride, e->byte_count, err.message);
            else
                CHECK(code == FW_INVALID_ARGUMENT, "%s %ux%u stride %u in %d bytes: %s", e->format, e->width,
                      e->height, e->row_stride, (int)(e->byte_count + delta), fw_status_name(code));
            fw_result_free(result);
        }
        free(pixels);
    }
    fw_close_session(s, NULL);
    fw_close(c);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--socket") == 0)
            worker_socket = argv[i + 1];

    RUN(test_every_option_of_the_file_is_on_the_wire_and_in_the_struct);
    RUN(test_init_holds_the_files_defaults);
    RUN(test_the_defaults_go_on_the_wire);
    RUN(test_the_socket_rule);
    RUN(test_the_variable_picks_the_worker_of_fw_connect_null);
    RUN(test_an_answer_of_exactly_the_cap_is_accepted);
    RUN(test_an_answer_over_the_cap_is_a_protocol_error);
    RUN(test_every_pixel_format_of_the_file_is_the_clients_with_the_wires_number);

    if (worker_socket) {
        RUN(test_worker_found_by_the_rule);
        RUN(test_worker_applies_the_files_defaults);
        RUN(test_worker_takes_each_range_exactly);
        RUN(test_worker_takes_zero_as_the_default_where_the_file_says_so);
        RUN(test_worker_takes_exactly_the_files_raw_image_bytes);
    }

    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed == 0 ? 0 : 1;
}
