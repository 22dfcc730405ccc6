package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"
)

func init() {
	commands = append(commands, &command{
		name:    "completion",
		summary: "Print a shell completion script for bash, zsh or fish.",
		usage:   "nodegen completion bash|zsh|fish",
		help: `Completes commands, their flags, the values of --format, file
arguments (.hcl modules, test files and directories, profile directories),
option paths (the PATH of "nodegen option", the value of "eval -A"; from
the options the modules on the command line and the library declare) and
the files of "nodegen modules cat".

  bash:  source <(nodegen completion bash)          # in ~/.bashrc
  zsh:   source <(nodegen completion zsh)           # in ~/.zshrc, after compinit
  fish:  nodegen completion fish > ~/.config/fish/completions/nodegen.fish`,
		example: "nodegen completion bash > /etc/bash_completion.d/nodegen",
		args:    argsShells,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			return runCompletion
		},
	})
}

var shells = []string{"bash", "zsh", "fish"}

func runCompletion(args []string, stdout, stderr io.Writer) int {
	c := findCommand("completion")
	if len(args) != 1 {
		return usageError(stderr, c, "want one shell: %s", strings.Join(shells, ", "))
	}
	var script string
	switch args[0] {
	case "bash":
		script = bashCompletion()
	case "zsh":
		script = zshCompletion()
	case "fish":
		script = fishCompletion()
	default:
		return usageError(stderr, c, "unknown shell %q: want %s", args[0], strings.Join(shells, ", "))
	}
	io.WriteString(stdout, script)
	return exitOK
}

// flagInfo is one flag of a command, for completion scripts.
type flagInfo struct {
	long, short, usage string
	takesValue         bool
	values             []string // completeDirs, completeFree, or words
}

// sortedCommands returns the commands by name.
func sortedCommands() []*command {
	out := append([]*command(nil), commands...)
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func commandFlagInfo(c *command) []flagInfo {
	fs, _ := commandFlags(c, io.Discard)
	var out []flagInfo
	fs.VisitAll(func(f *pflag.Flag) {
		_, usage := pflag.UnquoteUsage(f)
		fi := flagInfo{long: f.Name, short: f.Shorthand, usage: usage, takesValue: f.Value.Type() != "bool"}
		if fi.takesValue {
			fi.values = []string{completeFree}
			if v := f.Annotations[annotationComplete]; len(v) > 0 {
				fi.values = v
			}
		}
		out = append(out, fi)
	})
	return out
}

func (f flagInfo) words() []string {
	var w []string
	if f.short != "" {
		w = append(w, "-"+f.short)
	}
	return append(w, "--"+f.long)
}

func bashCompletion() string {
	var b strings.Builder
	cmds := sortedCommands()
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	b.WriteString("# bash completion for nodegen. Load it with: source <(nodegen completion bash)\n")
	b.WriteString("_nodegen_dynamic() {\n")
	b.WriteString("  local IFS=$'\\n' w\n")
	b.WriteString("  COMPREPLY+=($(nodegen " + completeCommand + " \"${COMP_WORDS[@]:1:COMP_CWORD}\" 2>/dev/null))\n")
	b.WriteString("  for w in \"${COMPREPLY[@]}\"; do [[ $w == *. ]] && compopt -o nospace; done\n")
	b.WriteString("}\n")
	b.WriteString("_nodegen() {\n")
	b.WriteString("  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\"\n")
	b.WriteString("  [ \"$COMP_CWORD\" -gt 0 ] && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	b.WriteString("  COMPREPLY=()\n")
	b.WriteString("  if [ \"$COMP_CWORD\" -eq 1 ]; then\n")
	fmt.Fprintf(&b, "    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(names, " "))
	b.WriteString("    return\n  fi\n")
	b.WriteString("  local cmd=\"${COMP_WORDS[1]}\"\n")
	// Flag values.
	b.WriteString("  case \"$cmd $prev\" in\n")
	for _, c := range cmds {
		for _, f := range commandFlagInfo(c) {
			if !f.takesValue {
				continue
			}
			var pats []string
			for _, w := range f.words() {
				pats = append(pats, fmt.Sprintf("%q", c.name+" "+w))
			}
			fmt.Fprintf(&b, "    %s)\n", strings.Join(pats, "|"))
			switch f.values[0] {
			case completeDirs:
				b.WriteString("      COMPREPLY=($(compgen -d -- \"$cur\"))\n")
			case completeFree:
			case completeOptions:
				b.WriteString("      _nodegen_dynamic\n")
			default:
				fmt.Fprintf(&b, "      COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(f.values, " "))
			}
			b.WriteString("      return ;;\n")
		}
	}
	b.WriteString("  esac\n")
	// Flags.
	b.WriteString("  if [[ \"$cur\" == -* ]]; then\n    case \"$cmd\" in\n")
	for _, c := range cmds {
		var words []string
		for _, f := range commandFlagInfo(c) {
			words = append(words, f.words()...)
		}
		fmt.Fprintf(&b, "      %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", c.name, strings.Join(words, " "))
	}
	b.WriteString("    esac\n    return\n  fi\n")
	// Arguments.
	b.WriteString("  case \"$cmd\" in\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s)", c.name)
		switch c.args {
		case argsModules:
			b.WriteString(" COMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X '!*.hcl' -- \"$cur\"))")
		case argsModulesOption:
			b.WriteString(" COMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X '!*.hcl' -- \"$cur\")); _nodegen_dynamic")
		case argsLibraryFiles:
			b.WriteString(" if [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=($(compgen -W cat -- \"$cur\")); else _nodegen_dynamic; fi")
		case argsSpecFiles:
			b.WriteString(" if [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=($(compgen -W fetch -- \"$cur\")); else COMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X '!*.json' -- \"$cur\")); fi")
		case argsPaths:
			b.WriteString(" COMPREPLY=($(compgen -f -- \"$cur\"))")
		case argsDirs:
			b.WriteString(" COMPREPLY=($(compgen -d -- \"$cur\"))")
		case argsShells:
			fmt.Fprintf(&b, " COMPREPLY=($(compgen -W %q -- \"$cur\"))", strings.Join(shells, " "))
		case argsCommands:
			fmt.Fprintf(&b, " COMPREPLY=($(compgen -W %q -- \"$cur\"))", strings.Join(names, " "))
		}
		b.WriteString(" ;;\n")
	}
	b.WriteString("  esac\n}\n")
	b.WriteString("complete -o filenames -F _nodegen nodegen\n")
	return b.String()
}

// zshQuote quotes s for a zsh single-quoted word.
func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// zshDesc escapes a description for _arguments and _describe.
func zshDesc(s string) string {
	r := strings.NewReplacer("[", `\[`, "]", `\]`, ":", `\:`, "`", "")
	return r.Replace(s)
}

func zshCompletion() string {
	var b strings.Builder
	cmds := sortedCommands()
	b.WriteString("#compdef nodegen\n")
	b.WriteString("# zsh completion for nodegen. Load it with: source <(nodegen completion zsh)\n")
	b.WriteString("_nodegen_dynamic() {\n")
	b.WriteString("  local -a all dotted plain\n")
	b.WriteString("  all=(${(f)\"$(nodegen " + completeCommand + " ${words[1,CURRENT]} 2>/dev/null)\"})\n")
	b.WriteString("  dotted=(${(M)all:#*.}) plain=(${all:#*.})\n")
	b.WriteString("  compadd -S '' -- $dotted\n  compadd -- $plain\n")
	b.WriteString("}\n")
	b.WriteString("_nodegen() {\n")
	b.WriteString("  local -a commands\n  commands=(\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s\n", zshQuote(c.name+":"+zshDesc(c.summary)))
	}
	b.WriteString("  )\n")
	b.WriteString("  if (( CURRENT == 2 )); then\n    _describe -t commands 'nodegen command' commands\n    return\n  fi\n")
	b.WriteString("  local cmd=${words[2]}\n  shift words\n  (( CURRENT-- ))\n")
	b.WriteString("  case $cmd in\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s)\n      _arguments -s", c.name)
		for _, f := range commandFlagInfo(c) {
			action := ""
			if f.takesValue {
				switch f.values[0] {
				case completeDirs:
					action = ":" + strings.ToLower(f.long) + ":_files -/"
				case completeFree:
					action = ":" + strings.ToLower(f.long) + ": "
				case completeOptions:
					action = ":" + strings.ToLower(f.long) + ":_nodegen_dynamic"
				default:
					action = ":" + strings.ToLower(f.long) + ":(" + strings.Join(f.values, " ") + ")"
				}
			}
			desc := "[" + zshDesc(f.usage) + "]"
			if f.short != "" {
				excl := "(-" + f.short + " --" + f.long + ")"
				fmt.Fprintf(&b, " \\\n        %s{-%s,--%s}%s", zshQuote(excl), f.short, f.long, zshQuote(desc+action))
			} else {
				fmt.Fprintf(&b, " \\\n        %s", zshQuote("--"+f.long+desc+action))
			}
		}
		switch c.args {
		case argsModules:
			b.WriteString(" \\\n        '*:module:_files -g \"*.hcl\"'")
		case argsModulesOption:
			b.WriteString(" \\\n        '*:module or option:{_files -g \"*.hcl\"; _nodegen_dynamic}'")
		case argsLibraryFiles:
			b.WriteString(" \\\n        '1:subcommand:(cat)' \\\n        '2:library file:_nodegen_dynamic'")
		case argsSpecFiles:
			b.WriteString(" \\\n        '1:subcommand:(fetch)' \\\n        '*:spec file:_files -g \"*.json\"'")
		case argsPaths:
			b.WriteString(" \\\n        '*:path:_files'")
		case argsDirs:
			b.WriteString(" \\\n        '*:profile:_files -/'")
		case argsShells:
			fmt.Fprintf(&b, " \\\n        '1:shell:(%s)'", strings.Join(shells, " "))
		case argsCommands:
			var names []string
			for _, c := range cmds {
				names = append(names, c.name)
			}
			fmt.Fprintf(&b, " \\\n        '1:command:(%s)'", strings.Join(names, " "))
		}
		b.WriteString("\n      ;;\n")
	}
	b.WriteString("  esac\n}\n")
	b.WriteString("if [ \"$funcstack[1]\" = \"_nodegen\" ]; then\n  _nodegen \"$@\"\nelse\n  compdef _nodegen nodegen\nfi\n")
	return b.String()
}

// fishQuote quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func fishCompletion() string {
	var b strings.Builder
	cmds := sortedCommands()
	b.WriteString("# fish completion for nodegen. Install it with:\n")
	b.WriteString("#   nodegen completion fish > ~/.config/fish/completions/nodegen.fish\n")
	b.WriteString("function __nodegen_hcl_files\n")
	b.WriteString("    for f in (commandline -ct)*\n")
	b.WriteString("        if test -d $f\n            echo $f/\n")
	b.WriteString("        else if string match -q '*.hcl' -- $f\n            echo $f\n        end\n")
	b.WriteString("    end\nend\n")
	b.WriteString("function __nodegen_dynamic\n")
	b.WriteString("    nodegen " + completeCommand + " (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null\n")
	b.WriteString("end\n")
	b.WriteString("complete -c nodegen -f\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c nodegen -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	for _, c := range cmds {
		cond := fishQuote("__fish_seen_subcommand_from " + c.name)
		for _, f := range commandFlagInfo(c) {
			fmt.Fprintf(&b, "complete -c nodegen -n %s", cond)
			if f.short != "" {
				fmt.Fprintf(&b, " -s %s", f.short)
			}
			fmt.Fprintf(&b, " -l %s", f.long)
			if f.takesValue {
				switch f.values[0] {
				case completeDirs:
					b.WriteString(" -r -a '(__fish_complete_directories)'")
				case completeFree:
					b.WriteString(" -r")
				case completeOptions:
					b.WriteString(" -r -a '(__nodegen_dynamic)'")
				default:
					fmt.Fprintf(&b, " -r -a %s", fishQuote(strings.Join(f.values, " ")))
				}
			}
			fmt.Fprintf(&b, " -d %s\n", fishQuote(f.usage))
		}
		switch c.args {
		case argsModules:
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a '(__nodegen_hcl_files)'\n", cond)
		case argsModulesOption:
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a '(__nodegen_hcl_files) (__nodegen_dynamic)'\n", cond)
		case argsLibraryFiles:
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a '(__nodegen_dynamic)'\n", cond)
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a cat\n", fishQuote("__fish_seen_subcommand_from modules; and not __fish_seen_subcommand_from cat"))
		case argsSpecFiles:
			fmt.Fprintf(&b, "complete -c nodegen -n %s -F\n", fishQuote("__fish_seen_subcommand_from fetch"))
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a fetch\n", fishQuote("__fish_seen_subcommand_from pki; and not __fish_seen_subcommand_from fetch"))
		case argsPaths:
			fmt.Fprintf(&b, "complete -c nodegen -n %s -F\n", cond)
		case argsDirs:
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a '(__fish_complete_directories)'\n", cond)
		case argsShells:
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a %s\n", cond, fishQuote(strings.Join(shells, " ")))
		case argsCommands:
			var names []string
			for _, c := range cmds {
				names = append(names, c.name)
			}
			fmt.Fprintf(&b, "complete -c nodegen -n %s -a %s\n", cond, fishQuote(strings.Join(names, " ")))
		}
	}
	return b.String()
}
