import Prometheus
import WorkerCore

/// The worker's gauges, set from a reading just before each scrape is
/// rendered rather than kept up to date as the worker runs.
struct PrometheusGauges: Sendable {
    private let connections: Gauge
    private let sessions: Gauge
    private let queuedFrames: Gauge
    private let residentMemory: Gauge
    private let subscriptions: Gauge
    private let sharedBuffers: Gauge
    private let mappedBytes: Gauge

    /// The gauges, registered in `registry`, and one `faceworker_model_info`
    /// series at 1 for each of `models`.
    init(models: [LoadedModel], registry: PrometheusCollectorRegistry) {
        func gauge(_ name: String, unit: String = "", _ help: String) -> Gauge {
            registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "faceworker", metricName: name, unitName: unit, helpText: help))
        }
        connections = gauge("connections", "Client connections open")
        sessions = gauge("sessions", "Sessions open, over all connections")
        queuedFrames = gauge("queued_frames", "Frames waiting for an inference thread, over all sessions")
        residentMemory = gauge("resident_memory", unit: "bytes", "The worker's resident set size")
        subscriptions = gauge("subscriptions", "Subscriptions to named sessions open")
        sharedBuffers = gauge("shared_buffers", "Shared-memory frame buffers registered")
        mappedBytes = gauge("shared_memory_mapped", unit: "bytes", "Bytes of shared memory the worker has mapped for frame buffers")
        let info = MetricNameDescriptor(namespace: "faceworker", metricName: "model", unitName: "info",
                                        helpText: "The model files loaded, by file name and SHA-256; always 1")
        for model in models {
            registry.makeGauge(descriptor: info, labels: [("name", model.name), ("sha256", model.sha256)]).set(to: 1)
        }
    }

    /// Sets every gauge to `reading`.
    func set(_ reading: GaugeReading) {
        connections.set(to: Double(reading.connections))
        sessions.set(to: Double(reading.sessions))
        queuedFrames.set(to: Double(reading.queuedFrames))
        residentMemory.set(to: Double(reading.residentMemoryBytes))
        subscriptions.set(to: Double(reading.subscriptions))
        sharedBuffers.set(to: Double(reading.sharedBuffers))
        mappedBytes.set(to: Double(reading.mappedBytes))
    }
}
