// The peers' operations behind a small C interface, so the Swift harness can time them in the
// same process and the same run as ours. Every function returns something derived from the
// work (an event count, a byte count, a sum), so the compiler cannot drop it; -1 means the
// input was rejected.
#ifndef JSONSTREAM_BENCH_PEERS_H
#define JSONSTREAM_BENCH_PEERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// RapidJSON SAX Reader with a no-op handler. `json` must be NUL-terminated at `length`.
int64_t peer_rapidjson_sax(const char *json, size_t length);
/// RapidJSON SAX Reader with kParseFullPrecisionFlag, summing every number as a double.
double peer_rapidjson_sax_doubles(const char *json, size_t length);
/// RapidJSON Document: parse (strings copied) and free; returns the root's size.
int64_t peer_rapidjson_document(const char *json, size_t length);
/// A parsed RapidJSON Document kept for the writing benchmarks.
void *peer_rapidjson_document_new(const char *json, size_t length);
void peer_rapidjson_document_free(void *document);
/// RapidJSON Writer (or PrettyWriter) from a Document to a StringBuffer; returns its size.
int64_t peer_rapidjson_write(const void *document, int pretty);
/// RapidJSON Reader → Writer (streaming reformat); returns the output size.
int64_t peer_rapidjson_reformat(const char *json, size_t length, int pretty);

/// yajl with no-op callbacks, fed whole (`chunk` 0) or in chunks of `chunk` bytes.
int64_t peer_yajl_parse(const char *json, size_t length, size_t chunk);
/// yajl → yajl_gen (json_reformat's pipeline); returns the output size.
int64_t peer_yajl_reformat(const char *json, size_t length, int pretty);

/// simdjson: a padded copy of the input and a parser, made once and reused, as simdjson
/// recommends.
void *peer_simdjson_new(const char *json, size_t length);
void peer_simdjson_free(void *state);
/// simdjson DOM parse of the prepared input; returns the root's element count.
int64_t peer_simdjson_dom(void *state);
/// simdjson On-Demand over the prepared input, visiting every value: keys and strings
/// unescaped, numbers read as doubles. Returns a sum of what it read, or NaN on an error (or
/// a scalar at the top, which the corpus does not have).
double peer_simdjson_ondemand(void *state);
/// The kernel On-Demand runs: the one compiled into the shim ("fallback", the portable scalar
/// one, when the shim is built without CPU flags as here).
const char *peer_simdjson_ondemand_kernel(void);

#ifdef __cplusplus
}
#endif

#endif
