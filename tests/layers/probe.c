/*
 * Compiled against one layer's include root (tests/layers/CMakeLists.txt)
 * with XG_PROBE_HEADER naming a header of another layer: it compiles when
 * that layer is the same or lower, and must fail when it is higher.
 */
#include XG_PROBE_HEADER

int xg_layer_probe;
