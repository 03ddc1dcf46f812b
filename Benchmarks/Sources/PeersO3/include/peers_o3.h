// RapidJSON's operations of the Peers shim, compiled at -O3 (see peers_o3.cpp); each does
// what the function of the same name without `o3_` does (see Peers/include/peers.h).
#ifndef JSONSTREAM_BENCH_PEERS_O3_H
#define JSONSTREAM_BENCH_PEERS_O3_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int64_t peer_o3_rapidjson_sax(const char *json, size_t length);
double peer_o3_rapidjson_sax_doubles(const char *json, size_t length);
int64_t peer_o3_rapidjson_document(const char *json, size_t length);

#ifdef __cplusplus
}
#endif

#endif
