/*
 * The calls that need no session: a ping, and the worker's counters.
 */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int fw_ping(fw_client *c, const void *payload, size_t len, fw_error *err)
{
    if (!c || (len > 0 && !payload))
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_ping: no client, or a length without a payload");
    int rc = fwi_prepare(c, err);
    if (rc != FW_OK)
        return rc;
    Faceworker__V1__PingRequest ping = FACEWORKER__V1__PING_REQUEST__INIT;
    ping.payload.len = len;
    ping.payload.data = (uint8_t *)(uintptr_t)payload; /* only read while packing */
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING;
    m.ping = &ping;
    WorkerMessage *answer;
    rc = fwi_call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_PING, &answer, err);
    if (rc != FW_OK)
        return rc;
    const ProtobufCBinaryData *echo = &answer->ping->payload;
    size_t echoed = echo->len;
    bool same = echoed == len && (len == 0 || memcmp(echo->data, payload, len) == 0);
    faceworker__v1__worker_message__free_unpacked(answer, NULL);
    if (!same)
        return fwi_break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                    "face-worker answered a ping of %zu bytes with %zu bytes that differ from it", len,
                                    echoed);
    return FW_OK;
}

void fw_stats_init(fw_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->size = sizeof *stats;
}

int fw_get_stats(fw_client *c, fw_stats *caller, fw_error *err)
{
    if (!c || !caller)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_get_stats: no client or no place for the stats");
    size_t covered = FWI_STATS_COVERED(caller->size);
    if (covered == 0)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "fw_stats.size is %zu, which no version has; fill it with fw_stats_init", caller->size);
    fw_stats filled;
    fw_stats *out = &filled;
    int rc = fwi_prepare(c, err);
    if (rc != FW_OK)
        return rc;
    Faceworker__V1__GetStatsRequest req = FACEWORKER__V1__GET_STATS_REQUEST__INIT;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_GET_STATS;
    m.get_stats = &req;
    WorkerMessage *answer;
    rc = fwi_call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_GET_STATS, &answer, err);
    if (rc != FW_OK)
        return rc;
    const Faceworker__V1__GetStatsResponse *s = answer->get_stats;
    memset(out, 0, sizeof *out);
    out->uptime_seconds = s->uptime_seconds;
    out->connections = s->connections;
    out->sessions = s->sessions;
    out->frames_processed = s->frames_processed;
    out->frames_dropped = s->frames_dropped;
    out->frames_failed = s->frames_failed;
    out->resident_memory_bytes = s->resident_memory_bytes;
    out->inference_threads = s->inference_threads;
    out->subscriptions = s->subscriptions;
    out->events_missed = s->events_missed;
    out->shared_buffers = s->shared_buffers;
    out->mapped_bytes = s->mapped_bytes;
    for (size_t i = 0; i < s->n_stage_latencies; i++) {
        const Faceworker__V1__StageLatency *l = s->stage_latencies[i];
        int stage = (int)l->stage - FACEWORKER__V1__STAGE__STAGE_QUEUED;
        if (stage < 0 || stage >= FW_STAGE_COUNT)
            continue;
        out->stages[stage] = (fw_stage_latency){l->p50_us, l->p90_us, l->p99_us, l->count};
    }
    for (size_t i = 0; i < s->n_models && out->model_count < FW_STATS_MAX_MODELS; i++) {
        fw_model_info *info = &out->models[out->model_count++];
        snprintf(info->name, sizeof info->name, "%s", s->models[i]->name ? s->models[i]->name : "");
        snprintf(info->sha256, sizeof info->sha256, "%s", s->models[i]->sha256 ? s->models[i]->sha256 : "");
        info->size_bytes = s->models[i]->size_bytes;
    }
    faceworker__v1__worker_message__free_unpacked(answer, NULL);
    filled.size = caller->size;
    memcpy(caller, &filled, covered);
    return FW_OK;
}
