// A client consuming a streamed HTTP response item by item: the sample starts a small server on
// 127.0.0.1 that sends a large JSON array slowly, element by element, the way an API streams
// results; the client reads the response body through an AsyncSequence of chunks and handles
// each element of `$.results` as soon as its last byte has arrived — long before the response
// ends.
//
//   swift run -c release network-stream [COUNT]     # COUNT results, 20 by default

import Foundation
import JSONStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20

// MARK: Server: one connection, a chunked response written piece by piece.

/// Listens on an ephemeral port of 127.0.0.1; returns the socket and the port.
func listenLocally() -> (socket: Int32, port: UInt16) {
  let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = unsafe inet_addr("127.0.0.1")
  address.sin_port = 0
  unsafe withUnsafePointer(to: &address) {
    unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      _ = unsafe bind(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  listen(server, 1)
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  unsafe withUnsafeMutablePointer(to: &address) {
    unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      _ = unsafe getsockname(server, $0, &length)
    }
  }
  return (server, UInt16(bigEndian: address.sin_port))
}

func send(_ socket: Int32, _ text: String) {
  let bytes = Array(text.utf8)
  let total = bytes.count
  var sent = 0
  while sent < total {
    let n = unsafe bytes.withUnsafeBytes {
      unsafe write(socket, $0.baseAddress! + sent, total - sent)
    }
    if n <= 0 { return }
    sent += n
  }
}

/// Serves one request: `{"query":…,"results":[…],"count":N}`, one result every 50 ms, in
/// pieces that cut through the middle of values, as a network would.
func serve(_ server: Int32, count: Int) {
  let connection = accept(server, nil, nil)
  defer { close(connection) }
  var request = [UInt8](repeating: 0, count: 4096)
  _ = unsafe read(connection, &request, request.count)
  send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
  send(connection, #"{"query":"streaming","results":["#)
  for i in 0..<count {
    let item = #"{"id":\#(i),"title":"result \#(i)","score":\#(Double(count - i) / Double(count))}"#
    let text = (i == 0 ? "" : ",") + item
    // Two pieces, split mid-value.
    let middle = text.index(text.startIndex, offsetBy: text.count / 2)
    send(connection, String(text[..<middle]))
    usleep(25_000)
    send(connection, String(text[middle...]))
    usleep(25_000)
  }
  send(connection, #"],"count":\#(count)}"#)
}

// MARK: Client: the response body as an AsyncSequence of chunks.

/// The body of an HTTP response read from `socket`, chunk by chunk as it arrives.
func responseBody(port: UInt16) -> AsyncThrowingStream<[UInt8], any Error> {
  AsyncThrowingStream { continuation in
    let thread = Thread {
      let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      defer { close(client) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = unsafe inet_addr("127.0.0.1")
      address.sin_port = port.bigEndian
      let connected = unsafe withUnsafePointer(to: &address) {
        unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          unsafe connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        continuation.finish(throwing: POSIXError(.ECONNREFUSED))
        return
      }
      send(client, "GET /search?q=streaming HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      var header: [UInt8] = []
      var inBody = false
      while true {
        let n = unsafe read(client, &buffer, buffer.count)
        if n <= 0 { break }
        var chunk = Array(buffer[0..<n])
        if !inBody {
          // Everything up to the blank line is the status line and headers.
          header += chunk
          guard let end = header.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
          chunk = Array(header[end.upperBound...])
          inBody = true
        }
        continuation.yield(chunk)
      }
      continuation.finish()
    }
    thread.start()
  }
}

let (server, port) = listenLocally()
let serverThread = Thread { serve(server, count: count) }
serverThread.start()
print("server on 127.0.0.1:\(port), streaming \(count) results")

let start = ContinuousClock.now
func elapsed() -> String {
  let duration = ContinuousClock.now - start
  return String(
    format: "%6.0f ms",
    Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
}

var received = 0
for try await item in responseBody(port: port).jsonItems(
  paths: [try JSONPath("$.results[*]"), try JSONPath("$.count")])
{
  if item.match.paths == [0] {
    received += 1
    print(
      "\(elapsed())  result \(item.match.index!): \(item.value["title"]!.stringValue!), score \(item.value["score"]!)"
    )
  } else {
    print("\(elapsed())  the response says count = \(item.value)")
  }
}
close(server)
print("\(received) results, each handled as it arrived")
