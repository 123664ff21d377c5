"""What several folders of tools use: model tables and inputs, MediaPipe's loader, gRPC stubs."""
