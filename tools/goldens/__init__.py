"""The generators of the committed golden files, fixtures and generated sources."""
