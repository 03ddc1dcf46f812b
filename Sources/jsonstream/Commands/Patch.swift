import JSONStream

/// A patch file, read and checked.
enum LoadedPatch {
  /// A JSON Patch (RFC 6902).
  case json(JSONPatch)
  /// A JSON Merge Patch (RFC 7396).
  case merge(JSONValue)
}

/// A patch file that could not be used: the exit status, its message already written.
struct PatchFileFailure: Error {
  let status: Int32
}

/// Reads the patch file of `jsonstream patch`, before the output is created: invalid JSON is
/// reported as for any input (`PATCH:LINE:COLUMN: message`), a document that is not a JSON
/// Patch with what is wrong in it; both are status 1.
func loadPatch(_ arguments: Arguments) throws -> Result<LoadedPatch, PatchFileFailure> {
  let file = try ByteInput(path: arguments.patchPath, chunkSize: arguments.chunkSize)
  // The input's syntax, but one document, and the default limits: the limits are set for the
  // input, and a patch is one small value.
  var options = arguments.options
  options.allowMultipleValues = false
  options.limits = JSONParseLimits()
  var parser = JSONParser(handler: JSONTreeBuilder(), options: options)
  if let error = try parseInput(file, into: &parser) {
    report(error, in: file, arguments)
    return .failure(PatchFileFailure(status: 1))
  }
  let value = parser.handler.value!
  if arguments.merge { return .success(.merge(value)) }
  do {
    return .success(.json(try JSONPatch(value)))
  } catch {
    if !arguments.quiet { writeStandardError("\(file.name): not a JSON Patch: \(error)\n") }
    return .failure(PatchFileFailure(status: 1))
  }
}

/// `jsonstream patch PATCH [FILE]`: a merge patch streams, always; a JSON Patch streams when
/// it cannot fail (no operations), or to `-o FILE` when its operations are independent
/// (`JSONPatchFilter.canStream`), where a failure found at the end can still take back what
/// was written; otherwise the document is read into a tree, patched, and written.
func runPatch(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  var writeOptions = arguments.writeOptions
  writeOptions.allowMultipleValues = arguments.options.allowMultipleValues
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  switch arguments.patch! {
  case .merge(let patch):
    return try writeThrough(
      arguments, input: input, output: output, writeOptions: writeOptions, writer: \.downstream
    ) { JSONMergePatchFilter(patch: patch, downstream: $0) }
  case .json(let patch):
    if patch.operations.isEmpty || output.replacesFile,
      let filter = JSONPatchFilter(
        patch: patch,
        downstream: JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions))
    {
      return try streamPatch(arguments, input: input, output: output, filter: filter)
    }
    return try patchTree(patch, arguments, input: input, output: output, options: writeOptions)
  }
}

/// A JSON Patch through its filter; a failing operation is known at the end.
func streamPatch(
  _ arguments: Arguments, input: ByteInput, output: ByteOutput,
  filter: JSONPatchFilter<JSONWriter<ByteOutputSink>>
) throws -> Int32 {
  var parser = JSONParser(handler: filter, options: arguments.options)
  if let error = try parseInput(input, into: &parser) {
    return endInvalid(error, in: input, arguments, output: output) {
      try parser.handler.downstream.flush()
    }
  }
  if let error = parser.handler.error { return patchFailed(error, in: input, arguments) }
  try parser.handler.downstream.finish()
  if parser.handler.downstream.valueCount > 0 { output.buffer.append(0x0A) }
  output.flush()
  return 0
}

/// A JSON Patch applied to the document read into memory (each document, with
/// `--multiple-values`), then written; nothing is written when an operation fails.
func patchTree(
  _ patch: JSONPatch, _ arguments: Arguments, input: ByteInput, output: ByteOutput,
  options: JSONWriteOptions
) throws -> Int32 {
  var parser = JSONParser(handler: JSONTreeBuilder(), options: arguments.options)
  if let error = try parseInput(input, into: &parser) {
    return endInvalid(error, in: input, arguments, output: output) {}
  }
  var documents = parser.handler.takeValues()
  // A deep edit leaves a deep chain of changed containers, which Swift would free
  // recursively.
  defer { JSONValue._releaseIteratively(&documents) }
  for index in documents.indices {
    do {
      try documents[index].apply(patch)
    } catch {
      return patchFailed(error, in: input, arguments)
    }
  }
  var writer = JSONWriter(sink: ByteOutputSink(output: output), options: options)
  for document in documents { try document.write(to: &writer) }
  try writer.finish()
  if writer.valueCount > 0 { output.buffer.append(0x0A) }
  output.flush()
  return 0
}

/// Reports a failing operation; the status is 1, on which `runTool` drops the output.
func patchFailed(_ error: JSONPatchError, in input: ByteInput, _ arguments: Arguments) -> Int32 {
  guard !arguments.quiet else { return 1 }
  var message = "\(input.name): patch failed: \(error)\n"
  if let path = arguments.outputPath, path != "-" {
    message += "jsonstream: nothing written to \(path), which is as it was\n"
  }
  writeStandardError(message)
  return 1
}
