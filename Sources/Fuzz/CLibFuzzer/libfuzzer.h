// libFuzzer's driver, run by the main of every fuzz target on the LLVMFuzzerTestOneInput it defines.
// libFuzzer brings a main of its own, but SwiftPM makes the target's main the program's (Package.swift
// says why the fuzz targets cannot do without one), so that main must start the fuzzer itself.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));

__attribute__((noreturn)) static inline void libfuzzer_main(int argc, char **argv) {
    exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput));
}
