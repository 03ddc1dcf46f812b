import Foundation

/// Runs the program at `path` with `arguments` to its end; its exit status and what it wrote
/// to standard output, and to standard error too when `withStandardError` (else that is
/// inherited).
public func runProgram(_ path: String, _ arguments: [String], withStandardError: Bool = true)
  throws -> (status: Int32, output: String)
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  if withStandardError { process.standardError = output }
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
