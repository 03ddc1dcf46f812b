#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `-o FILE` for a regular file: the output goes to a temporary file next to FILE, which
/// replaces FILE (rename(2), atomic) only when the command succeeds. Until then FILE keeps its
/// content, so a failed run costs it nothing, and a run that reads FILE as its input reads the
/// original.
///
/// A symbolic link is resolved first: the file it points to gets the new content and the link
/// stays. The new file keeps FILE's permission bits (and its owner and group where allowed), or
/// gets those of any new file (0666 less the umask) when FILE did not exist.
///
/// Replacing makes a new file: hard links to FILE keep the old content. A FILE the user may not
/// write is refused, as by the shell's `>`.
///
/// Ctrl-C, SIGTERM or SIGHUP removes the temporary file (see `removeOnTerminatingSignal`);
/// after SIGKILL or a crash, a `.FILE.jsonstream-XXXXXX` may remain next to FILE.
final class ReplacingFile {
  /// The file replaced on success: FILE with symbolic links resolved.
  let path: String
  /// Where the output goes until then: in the same directory, as rename(2) works only within
  /// one file system.
  let temporaryPath: String
  /// The temporary file, open for writing.
  let fd: Int32
  /// Set once the temporary file has been renamed or removed.
  private var finished = false

  /// Whether `-o path` should be written through a replacing file: yes for a regular file or
  /// one that does not exist yet. A device (`/dev/null`, `/dev/full`), a FIFO or a descriptor
  /// (`/dev/stdout`, `/dev/fd/3`, perhaps redirected with `>>` by the shell) is written in
  /// place: renaming over it would be wrong, and it holds no content to keep.
  static func suits(_ path: String) -> Bool {
    if path == "/dev/stdout" || path == "/dev/stderr" || path.hasPrefix("/dev/fd/")
      || path.hasPrefix("/proc/")
    {
      return false
    }
    var status = stat()
    guard unsafe stat(path, &status) == 0 else { return true }
    return (status.st_mode & S_IFMT) == S_IFREG
  }

  /// Creates the temporary file for `-o path`, with a unique name (O_EXCL).
  init(path: String) throws(ToolError) {
    func failure(_ reason: String) -> ToolError { .io("cannot write \(path): \(reason)") }
    var target = path
    if let resolved = unsafe realpath(path, nil) {
      target = unsafe String(cString: resolved)
      unsafe free(resolved)
    } else {
      // A link to nothing: replacing would turn the link into a file, and following it by hand
      // is more than this tool needs.
      var link = stat()
      if unsafe lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
        throw failure("a symbolic link to a file that does not exist")
      }
    }
    self.path = target
    var existing = stat()
    let exists = unsafe stat(target, &existing) == 0
    // A read-only FILE stays read-only, as with the shell's `>`: the rename below would not ask.
    if unsafe exists && access(target, W_OK) != 0 {
      throw unsafe failure(String(cString: strerror(errno)))
    }

    let slash = target.lastIndex(of: "/")
    let directory = slash.map { String(target[...$0]) } ?? ""
    let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    // A terminating signal between the file's creation and the handler that removes it would
    // leave the file behind: such signals wait until the handler is in place.
    (fd, temporaryPath) = try withTerminatingSignalsBlocked { () throws(ToolError) in
      var attempts = 0
      while true {
        let suffix = String((0..<6).map { _ in letters.randomElement()! })
        let candidate = directory + "." + name + ".jsonstream-" + suffix
        // 0666: the kernel applies the umask, as for any new file.
        let fd = unsafe open(candidate, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        if fd >= 0 {
          removeOnTerminatingSignal(candidate)
          return (fd, candidate)
        }
        attempts += 1
        if errno == EEXIST && attempts < 100 { continue }
        let place = directory.isEmpty ? "." : directory
        throw failure(
          unsafe "cannot create a temporary file in \(place): \(String(cString: strerror(errno)))")
      }
    }
    if exists {
      // Owner first: a change of owner clears the set-user-ID bit that fchmod then restores.
      // Only root or the owner in FILE's group can do it; otherwise the file is the user's.
      _ = fchown(fd, existing.st_uid, existing.st_gid)
      guard fchmod(fd, existing.st_mode & 0o7777) == 0 else {
        let reason = unsafe String(cString: strerror(errno))
        discard()
        throw failure("cannot set the permissions of a temporary file: \(reason)")
      }
    }
  }

  /// Puts the output in place of FILE. On failure FILE is unchanged and the temporary file gone.
  func commit() throws(ToolError) {
    guard !finished else { return }
    finished = true
    // A file system may report a failed write only at close (NFS, quotas).
    var failed = close(fd) != 0
    if !failed { failed = unsafe rename(temporaryPath, path) != 0 }
    if failed {
      let reason = unsafe String(cString: strerror(errno))
      unsafe unlink(temporaryPath)
      forgetRemovalOnSignal()
      throw ToolError.io("cannot write \(path): \(reason)")
    }
    forgetRemovalOnSignal()
  }

  /// Removes the temporary file, leaving FILE as it was. Does nothing after `commit`.
  func discard() {
    guard !finished else { return }
    finished = true
    close(fd)
    unsafe unlink(temporaryPath)
    forgetRemovalOnSignal()
  }
}
