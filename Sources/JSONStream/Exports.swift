// `import JSONStream` brings in every layer of the library (see ARCHITECTURE.md): each is a
// module of its own, so that the compiler keeps them apart, and this one re-exports them.

@_exported import JSONStreamBinary
@_exported import JSONStreamCore
@_exported import JSONStreamParser
@_exported import JSONStreamPatch
@_exported import JSONStreamPath
@_exported import JSONStreamValue
@_exported import JSONStreamWriter
