#include "peers.h"

#include <cmath>
#include <cstring>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

using namespace rapidjson;

namespace {

// Counts events, so the parse has an observable result.
struct CountingHandler : BaseReaderHandler<UTF8<>, CountingHandler> {
  int64_t events = 0;
  bool Default() {
    ++events;
    return true;
  }
};

// Sums numbers as doubles: what a consumer of canada.json's coordinates does.
struct DoubleHandler : BaseReaderHandler<UTF8<>, DoubleHandler> {
  double sum = 0;
  bool Default() { return true; }
  bool Int(int i) { sum += i; return true; }
  bool Uint(unsigned u) { sum += u; return true; }
  bool Int64(int64_t i) { sum += static_cast<double>(i); return true; }
  bool Uint64(uint64_t u) { sum += static_cast<double>(u); return true; }
  bool Double(double d) { sum += d; return true; }
};

template <typename Handler, unsigned Flags>
bool parse_sax(const char *json, Handler &handler) {
  Reader reader;
  StringStream stream(json);
  return !reader.Parse<Flags>(stream, handler).IsError();
}

}  // namespace

extern "C" {

int64_t peer_rapidjson_sax(const char *json, size_t) {
  CountingHandler handler;
  return parse_sax<CountingHandler, kParseDefaultFlags>(json, handler) ? handler.events : -1;
}

double peer_rapidjson_sax_doubles(const char *json, size_t) {
  DoubleHandler handler;
  return parse_sax<DoubleHandler, kParseFullPrecisionFlag>(json, handler) ? handler.sum : -1;
}

int64_t peer_rapidjson_document(const char *json, size_t length) {
  Document document;
  document.Parse(json, length);
  if (document.HasParseError()) return -1;
  return document.IsObject() ? document.MemberCount() : (document.IsArray() ? document.Size() : 1);
}

void *peer_rapidjson_document_new(const char *json, size_t length) {
  Document *document = new Document();
  document->Parse(json, length);
  return document;
}

void peer_rapidjson_document_free(void *document) { delete static_cast<Document *>(document); }

int64_t peer_rapidjson_write(const void *document, int pretty) {
  StringBuffer buffer;
  const Document *doc = static_cast<const Document *>(document);
  if (pretty) {
    PrettyWriter<StringBuffer> writer(buffer);
    doc->Accept(writer);
  } else {
    Writer<StringBuffer> writer(buffer);
    doc->Accept(writer);
  }
  return static_cast<int64_t>(buffer.GetSize());
}

int64_t peer_rapidjson_reformat(const char *json, size_t, int pretty) {
  StringBuffer buffer;
  Reader reader;
  StringStream stream(json);
  bool ok;
  if (pretty) {
    PrettyWriter<StringBuffer> writer(buffer);
    ok = !reader.Parse<kParseDefaultFlags>(stream, writer).IsError();
  } else {
    Writer<StringBuffer> writer(buffer);
    ok = !reader.Parse<kParseDefaultFlags>(stream, writer).IsError();
  }
  return ok ? static_cast<int64_t>(buffer.GetSize()) : -1;
}

// MARK: yajl

static int y_null(void *ctx) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_boolean(void *ctx, int) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_number(void *ctx, const char *, size_t) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_string(void *ctx, const unsigned char *, size_t) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_start_map(void *ctx) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_map_key(void *ctx, const unsigned char *, size_t) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_end_map(void *ctx) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_start_array(void *ctx) { ++*static_cast<int64_t *>(ctx); return 1; }
static int y_end_array(void *ctx) { ++*static_cast<int64_t *>(ctx); return 1; }

// Raw numbers (yajl_number) so no conversion is done, as our no-op handler does none.
static yajl_callbacks counting_callbacks = {
    y_null, y_boolean, nullptr, nullptr, y_number, y_string,
    y_start_map, y_map_key, y_end_map, y_start_array, y_end_array};

static bool feed_yajl(yajl_handle handle, const char *json, size_t length, size_t chunk) {
  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(json);
  if (chunk == 0) chunk = length;
  for (size_t offset = 0; offset < length; offset += chunk) {
    size_t n = length - offset < chunk ? length - offset : chunk;
    if (yajl_parse(handle, bytes + offset, n) != yajl_status_ok) return false;
  }
  return yajl_complete_parse(handle) == yajl_status_ok;
}

int64_t peer_yajl_parse(const char *json, size_t length, size_t chunk) {
  int64_t events = 0;
  yajl_handle handle = yajl_alloc(&counting_callbacks, nullptr, &events);
  bool ok = feed_yajl(handle, json, length, chunk);
  yajl_free(handle);
  return ok ? events : -1;
}

static int g_null(void *ctx) { return yajl_gen_null(static_cast<yajl_gen>(ctx)) == yajl_gen_status_ok; }
static int g_boolean(void *ctx, int b) { return yajl_gen_bool(static_cast<yajl_gen>(ctx), b) == yajl_gen_status_ok; }
static int g_number(void *ctx, const char *s, size_t l) { return yajl_gen_number(static_cast<yajl_gen>(ctx), s, l) == yajl_gen_status_ok; }
static int g_string(void *ctx, const unsigned char *s, size_t l) { return yajl_gen_string(static_cast<yajl_gen>(ctx), s, l) == yajl_gen_status_ok; }
static int g_start_map(void *ctx) { return yajl_gen_map_open(static_cast<yajl_gen>(ctx)) == yajl_gen_status_ok; }
static int g_end_map(void *ctx) { return yajl_gen_map_close(static_cast<yajl_gen>(ctx)) == yajl_gen_status_ok; }
static int g_start_array(void *ctx) { return yajl_gen_array_open(static_cast<yajl_gen>(ctx)) == yajl_gen_status_ok; }
static int g_end_array(void *ctx) { return yajl_gen_array_close(static_cast<yajl_gen>(ctx)) == yajl_gen_status_ok; }

static yajl_callbacks reformat_callbacks = {
    g_null, g_boolean, nullptr, nullptr, g_number, g_string,
    g_start_map, g_string, g_end_map, g_start_array, g_end_array};

int64_t peer_yajl_reformat(const char *json, size_t length, int pretty) {
  yajl_gen generator = yajl_gen_alloc(nullptr);
  yajl_gen_config(generator, yajl_gen_beautify, pretty ? 1 : 0);
  yajl_gen_config(generator, yajl_gen_validate_utf8, 1);
  yajl_handle handle = yajl_alloc(&reformat_callbacks, nullptr, generator);
  bool ok = feed_yajl(handle, json, length, 0);
  const unsigned char *output;
  size_t size = 0;
  yajl_gen_get_buf(generator, &output, &size);
  yajl_free(handle);
  yajl_gen_free(generator);
  return ok ? static_cast<int64_t>(size) : -1;
}

// MARK: simdjson

namespace {
struct SimdState {
  simdjson::padded_string input;
  simdjson::dom::parser parser;
  simdjson::ondemand::parser onDemand;
};

// Visits every value On-Demand: each key and string unescaped, each number read as a double,
// each literal checked; adds what it read to `sum`, so that nothing can be skipped.
static simdjson::error_code visit(simdjson::ondemand::value value, double &sum) {
  using namespace simdjson::ondemand;
  json_type type;
  if (auto error = value.type().get(type)) return error;
  switch (type) {
    case json_type::object: {
      object members;
      if (auto error = value.get_object().get(members)) return error;
      for (auto field : members) {
        std::string_view key;
        if (auto error = field.unescaped_key().get(key)) return error;
        sum += static_cast<double>(key.size());
        if (auto error = visit(field.value(), sum)) return error;
      }
      return simdjson::SUCCESS;
    }
    case json_type::array: {
      array elements;
      if (auto error = value.get_array().get(elements)) return error;
      for (auto element : elements) {
        simdjson::ondemand::value child;
        if (auto error = element.get(child)) return error;
        if (auto error = visit(child, sum)) return error;
      }
      return simdjson::SUCCESS;
    }
    case json_type::string: {
      std::string_view text;
      if (auto error = value.get_string().get(text)) return error;
      sum += static_cast<double>(text.size());
      return simdjson::SUCCESS;
    }
    case json_type::number: {
      double number;
      if (auto error = value.get_double().get(number)) return error;
      sum += number;
      return simdjson::SUCCESS;
    }
    case json_type::boolean: {
      bool flag;
      if (auto error = value.get_bool().get(flag)) return error;
      sum += flag ? 1 : 0;
      return simdjson::SUCCESS;
    }
    case json_type::null: {
      bool null;
      if (auto error = value.is_null().get(null)) return error;
      return null ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
    }
  }
  return simdjson::INCORRECT_TYPE;
}
}  // namespace

void *peer_simdjson_new(const char *json, size_t length) {
  SimdState *state = new SimdState();
  state->input = simdjson::padded_string(json, length);
  return state;
}

void peer_simdjson_free(void *state) { delete static_cast<SimdState *>(state); }

int64_t peer_simdjson_dom(void *opaque) {
  SimdState *state = static_cast<SimdState *>(opaque);
  simdjson::dom::element root;
  if (state->parser.parse(state->input).get(root)) return -1;
  if (root.is_object()) return static_cast<int64_t>(simdjson::dom::object(root).size());
  if (root.is_array()) return static_cast<int64_t>(simdjson::dom::array(root).size());
  return 1;
}

double peer_simdjson_ondemand(void *opaque) {
  SimdState *state = static_cast<SimdState *>(opaque);
  simdjson::ondemand::document document;
  if (state->onDemand.iterate(state->input).get(document)) return std::nan("");
  simdjson::ondemand::value root;
  if (document.get_value().get(root)) return std::nan("");
  double sum = 0;
  if (visit(root, sum)) return std::nan("");
  return sum;
}

const char *peer_simdjson_ondemand_kernel(void) {
  static const std::string name = simdjson::builtin_implementation()->name();
  return name.c_str();
}

}  // extern "C"
