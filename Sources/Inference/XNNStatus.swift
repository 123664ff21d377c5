import CXNNPack

extension xnn_status {
    /// XNNPACK's status names, so errors read like its documentation.
    var name: String {
        switch self {
        case xnn_status_success: "success"
        case xnn_status_uninitialized: "uninitialized"
        case xnn_status_invalid_parameter: "invalid parameter"
        case xnn_status_invalid_state: "invalid state"
        case xnn_status_unsupported_parameter: "unsupported parameter"
        case xnn_status_unsupported_hardware: "unsupported hardware"
        case xnn_status_out_of_memory: "out of memory"
        default: "status \(rawValue)"
        }
    }
}
