import Inference
import Logging

/// What the worker does with the memory its warm-up left resident: moves it
/// onto 2 MB pages, so a frame after an idle spell walks fewer page tables,
/// and says how much it moved.
enum WarmMemory {
    static func settle(logger: Logger) {
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = HugePages.collapseWarmMemory()
        if let problem = outcome.problem {
            logger.notice("warm memory stays on 4 KB pages", metadata: ["reason": "\(problem)"])
            return
        }
        logger.info("warm memory moved onto 2 MB pages", metadata: [
            "huge_page_mib": "\(outcome.collapsedBytes >> 20)", "refused_mib": "\(outcome.refusedBytes >> 20)",
            "ms": "\(Int((clock.now - start) / .milliseconds(1)))",
        ])
    }
}
