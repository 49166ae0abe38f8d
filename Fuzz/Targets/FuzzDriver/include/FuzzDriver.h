#ifndef LAYERCAST_FUZZ_DRIVER_H
#define LAYERCAST_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer (compiler-rt's LLVMFuzzerRunDriver) on `callback` with the process's
/// arguments, and returns its exit status. SwiftPM gives every executable a main of its own,
/// so a fuzz target's Swift @main hands over to libFuzzer through this.
int layercast_fuzz_run(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));

#endif
