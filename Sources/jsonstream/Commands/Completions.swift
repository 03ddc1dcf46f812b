/// `jsonstream completions bash|zsh`: a script that completes the tool's commands and each
/// command's options, made from the same tables the parser reads, so it cannot drift.
func completionScript(for shell: String) -> String? {
  switch shell {
  case "bash": return bashCompletion()
  case "zsh": return zshCompletion()
  default: return nil
  }
}

/// Every option `command` takes.
func options(of command: Command) -> [String] {
  var names = ["--help", "--quiet", "--color"]
  names += optionFlags.map(\.name)
  names += numberFlags.filter { $0.appliesTo(command) }.map(\.name)
  if command.writesJSON { names += writerFlags.map(\.name) }
  if command != .validate { names += ["--output"] }
  switch command {
  case .ndjson: names += ["--to-array"]
  case .patch: names += ["--merge"]
  case .stats: names += ["--json"]
  case .select: names += ["--paths", "--with-paths", "--raw", "--count", "--rfc-order"]
  case .convert: names += ["--to", "--force"]
  case .validate, .events, .fmt, .minify: break
  }
  return names
}

private func bashCompletion() -> String {
  var cases = ""
  for command in Command.allCases {
    cases +=
      "    \(command.rawValue)) options=\"\(options(of: command).joined(separator: " "))\" ;;\n"
  }
  let commands = (Command.allCases.map(\.rawValue) + ["help", "completions"]).joined(separator: " ")
  return """
    # bash completion for jsonstream. Install: jsonstream completions bash > /etc/bash_completion.d/jsonstream
    # (or source it from ~/.bashrc).
    _jsonstream() {
      local current=${COMP_WORDS[COMP_CWORD]} options
      if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "\(commands) --help --version" -- "$current"))
        return
      fi
      case ${COMP_WORDS[1]} in
    \(cases)    help) COMPREPLY=($(compgen -W "\(Command.allCases.map(\.rawValue).joined(separator: " "))" -- "$current")); return ;;
        completions) COMPREPLY=($(compgen -W "bash zsh" -- "$current")); return ;;
        *) return ;;
      esac
      case ${COMP_WORDS[COMP_CWORD-1]} in
        --to) COMPREPLY=($(compgen -W "binary json" -- "$current")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$current")); return ;;
        -o|--output) mapfile -t COMPREPLY < <(compgen -f -- "$current"); return ;;
      esac
      if [[ $current == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$current"))
      else
        # A file per line: a name may hold spaces (-o filenames quotes it).
        mapfile -t COMPREPLY < <(compgen -f -- "$current")
      fi
    }
    complete -o filenames -F _jsonstream jsonstream

    """
}

private func zshCompletion() -> String {
  var cases = ""
  for command in Command.allCases {
    let specs = options(of: command).map { name -> String in
      if name == "--to" { return "'--to=[output format]:format:(binary json)'" }
      if name == "--output" { return "'--output=[output file]:file:_files'" }
      if name == "--color" { return "'--color=[when to colour]:when:(auto always never)'" }
      if numberFlags.contains(where: { $0.name == name }) { return "'\(name)=[number]:number:'" }
      return "'\(name)'"
    }
    cases +=
      "      \(command.rawValue)) _arguments \(specs.joined(separator: " ")) '*:file:_files' ;;\n"
  }
  var commands = ""
  for command in Command.allCases {
    commands += "    '\(command.rawValue):\(command.summary.replacingQuotes())'\n"
  }
  return """
    #compdef jsonstream
    # zsh completion for jsonstream. Install: jsonstream completions zsh > "${fpath[1]}/_jsonstream"
    _jsonstream() {
      local -a commands
      commands=(
    \(commands)    'help:show a command'"'"'s options'
        'completions:print a shell completion script (bash, zsh)'
      )
      if (( CURRENT == 2 )); then
        _describe 'command' commands
        return
      fi
      case $words[2] in
    \(cases)      help) _values 'command' \(Command.allCases.map(\.rawValue).joined(separator: " ")) ;;
          completions) _values 'shell' bash zsh ;;
      esac
    }
    _jsonstream "$@"

    """
}

extension String {
  /// The text inside a single-quoted shell word: each `'` closed, escaped and reopened.
  fileprivate func replacingQuotes() -> String {
    var result = ""
    for character in self {
      if character == "'" { result += "'\"'\"'" } else { result.append(character) }
    }
    return result
  }
}
