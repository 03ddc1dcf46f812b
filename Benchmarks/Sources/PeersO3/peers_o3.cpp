// The same shim as the Peers target, compiled at -O3 (this target's flag) under other names:
// RapidJSON is header-only, so how it is compiled is ours to choose, and it gains from -O3.
// yajl and simdjson come compiled in their Debian packages; their wrappers are renamed only
// so that the two copies of the shim link together.
#define peer_rapidjson_sax peer_o3_rapidjson_sax
#define peer_rapidjson_sax_doubles peer_o3_rapidjson_sax_doubles
#define peer_rapidjson_document peer_o3_rapidjson_document
#define peer_rapidjson_document_new peer_o3_rapidjson_document_new
#define peer_rapidjson_document_free peer_o3_rapidjson_document_free
#define peer_rapidjson_write peer_o3_rapidjson_write
#define peer_rapidjson_reformat peer_o3_rapidjson_reformat
#define peer_yajl_parse peer_o3_yajl_parse
#define peer_yajl_reformat peer_o3_yajl_reformat
#define peer_simdjson_new peer_o3_simdjson_new
#define peer_simdjson_free peer_o3_simdjson_free
#define peer_simdjson_dom peer_o3_simdjson_dom
#define peer_simdjson_ondemand peer_o3_simdjson_ondemand
#define peer_simdjson_ondemand_kernel peer_o3_simdjson_ondemand_kernel

#include "../Peers/peers.cpp"
