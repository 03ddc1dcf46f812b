import Peers
import PeersO3

/// An input for the peers: NUL-terminated (RapidJSON's StringStream reads to the NUL), with
/// simdjson's padded copy and parser made once.
final class PeerInput {
  let bytes: [UInt8]
  private let terminated: [CChar]
  private let simdjson: UnsafeMutableRawPointer
  private let document: UnsafeMutableRawPointer

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    terminated = bytes.map { CChar(bitPattern: $0) } + [0]
    simdjson = terminated.withUnsafeBufferPointer { peer_simdjson_new($0.baseAddress, bytes.count) }
    document = terminated.withUnsafeBufferPointer {
      peer_rapidjson_document_new($0.baseAddress, bytes.count)
    }
  }

  deinit {
    peer_simdjson_free(simdjson)
    peer_rapidjson_document_free(document)
  }

  private func call<R>(_ body: (UnsafePointer<CChar>, Int) -> R) -> R {
    terminated.withUnsafeBufferPointer { body($0.baseAddress!, bytes.count) }
  }

  func rapidjsonSAX() -> Int64 { call { peer_rapidjson_sax($0, $1) } }
  func rapidjsonSAXDoubles() -> Double { call { peer_rapidjson_sax_doubles($0, $1) } }
  func rapidjsonDocument() -> Int64 { call { peer_rapidjson_document($0, $1) } }
  /// The same three, with RapidJSON compiled at -O3.
  func rapidjsonSAXO3() -> Int64 { call { peer_o3_rapidjson_sax($0, $1) } }
  func rapidjsonSAXDoublesO3() -> Double { call { peer_o3_rapidjson_sax_doubles($0, $1) } }
  func rapidjsonDocumentO3() -> Int64 { call { peer_o3_rapidjson_document($0, $1) } }
  func rapidjsonWrite(pretty: Bool) -> Int64 { peer_rapidjson_write(document, pretty ? 1 : 0) }
  func rapidjsonReformat(pretty: Bool) -> Int64 {
    call { peer_rapidjson_reformat($0, $1, pretty ? 1 : 0) }
  }
  func yajl(chunk: Int) -> Int64 { call { peer_yajl_parse($0, $1, chunk) } }
  func yajlReformat(pretty: Bool) -> Int64 { call { peer_yajl_reformat($0, $1, pretty ? 1 : 0) } }
  func simdjsonDOM() -> Int64 { peer_simdjson_dom(simdjson) }
  func simdjsonOnDemand() -> Double { peer_simdjson_ondemand(simdjson) }
  /// The kernel simdjson On-Demand runs here ("fallback" is its portable scalar one).
  static var simdjsonOnDemandKernel: String { String(cString: peer_simdjson_ondemand_kernel()) }
}
