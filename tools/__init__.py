"""The project's Python programs by job; tools/README.md says what each folder holds."""
