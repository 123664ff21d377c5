"""make soak: one worker restarted under running clients."""
