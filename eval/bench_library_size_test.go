package eval_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/options"
)

// largeLibrary is a library file system: the built-in library's modules and
// generated ones. It is a pointer, so that the evaluator keeps its parsed
// modules for the process as it does the built-in library's (a library is
// parsed once per process; the benchmark measures what every evaluation
// does after that).
type largeLibrary struct{ fstest.MapFS }

// newLargeLibrary is the built-in library with extra generated service
// modules (generatedServiceModule) added under services/generated/.
func newLargeLibrary(tb testing.TB, extra int) *largeLibrary {
	tb.Helper()
	lib := &largeLibrary{fstest.MapFS{}}
	err := fs.WalkDir(modules.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(modules.FS(), p)
		lib.MapFS[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range extra {
		lib.MapFS[fmt.Sprintf("services/generated/g%04d.hcl", i)] = &fstest.MapFile{Data: []byte(generatedServiceModule(i))}
	}
	return lib
}

// generatedServiceModule is a service module as the library's are
// written (chrony's, the node exporter's): 20 options under
// services.generated.gNNNN, a disabled enable among them, and, when it is
// enabled, a systemd service, an /etc file, a user and its group, an
// assertion and a warning. No host enables or reads one.
func generatedServiceModule(i int) string {
	name := fmt.Sprintf("g%04d", i)
	var b strings.Builder
	fmt.Fprintf(&b, `locals {
  cfg = config.services.generated.%[1]s
}

options "services.generated.%[1]s" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to run the generated service %[1]s."
  }
  option "port" {
    type        = port
    default     = %[2]d
    description = "The port %[1]s listens on."
  }
  option "user" {
    type        = str
    default     = "%[1]s"
    description = "The user %[1]s runs as."
  }
  option "extraFlags" {
    type        = listOf(str)
    default     = []
    description = "Extra flags of %[1]s."
  }
  option "settings" {
    type        = attrsOf(str)
    default     = {}
    description = "Settings of %[1]s, written to its configuration file."
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "Lines added to the configuration file of %[1]s."
  }
  option "openFirewall" {
    type        = bool
    default     = false
    description = "Whether to open the port of %[1]s."
  }
  option "logLevel" {
    type        = enum(["debug", "info", "warn", "error"])
    default     = "info"
    description = "How much %[1]s logs."
  }
`, name, 10000+i)
	for j := range 12 {
		fmt.Fprintf(&b, `  option "tunable%[2]d" {
    type        = int
    default     = %[2]d
    description = "Tunable %[2]d of %[1]s."
  }
`, name, j)
	}
	fmt.Fprintf(&b, `}

locals {
  configText = join("", concat(
    ["port = ${local.cfg.port}\n", "log_level = ${local.cfg.logLevel}\n"],
    [for k, v in local.cfg.settings : "${k} = ${v}\n"],
    local.cfg.extraConfig == "" ? [] : [local.cfg.extraConfig],
  ))
}

assert {
  condition = !local.cfg.enable || local.cfg.port != 22
  message   = "services.generated.%[1]s.port: 22 is sshd's."
}

warning {
  condition = local.cfg.enable && local.cfg.logLevel == "debug"
  message   = "services.generated.%[1]s logs at debug level."
}

config "environment.etc.\"%[1]s/%[1]s.conf\"" {
  when = local.cfg.enable
  text = local.configText
}

config "users.users.%[1]s" {
  when         = local.cfg.enable
  isSystemUser = true
  group        = "%[1]s"
}

config "users.groups.%[1]s" {
  when = local.cfg.enable
}

config "networking.firewall" {
  when            = local.cfg.enable && local.cfg.openFirewall
  allowedTCPPorts = [local.cfg.port]
}

config "systemd.services.%[1]s" {
  when        = local.cfg.enable
  description = "Generated service %[1]s"
  wantedBy    = ["multi-user.target"]
  after       = ["network.target"]
  serviceConfig = {
    ExecStart = join(" ", concat(["/usr/bin/%[1]s", "--config", "/etc/%[1]s/%[1]s.conf"], local.cfg.extraFlags))
    User      = local.cfg.user
    Restart   = "on-failure"
  }
}
`, name)
	return b.String()
}

// libraryOptions counts the options the library declares (eval's
// Declarations of the whole tree), so that the benchmark can say how
// much larger its library is.
func libraryOptions(tb testing.TB, lib fs.FS) int {
	tb.Helper()
	ev, diags := eval.New(eval.Config{Library: lib, Files: []string{filepath.Join("..", "fixtures", "minimal", "host.hcl")}})
	if diags.HasErrors() {
		tb.Fatal(diags.Error())
	}
	return len(ev.Declarations())
}

// BenchmarkLibraryTenfold evaluates fixtures/k8s-single with the
// built-in library and with a library of ten times its options (the
// built-in one and generated service modules that no host reads), in turn
// in every iteration, so that both run side by side on the same machine,
// two ways:
//
//   - profile: what nodegen eval and nodegen build do (eval.New, then
//     evalprofile.Build: environment.etc, the binaries, the assertions);
//   - config: eval.New, Check and Config, every option's value, those of
//     the generated modules too;
//   - profile-once: profile as a process that evaluates the host once
//     does (nodegen eval): a tree of its own, every module split.
//
// It reports each one's time per evaluation and their ratio
// ("tenfold/base", issue 40's target: at most 1.10), and the options each
// library declares. Both libraries are evaluated twice before the timing,
// as a process that evaluates again (the language server, nodegen build,
// nodegen test) has: their declared trees are kept and their inert
// modules known (see eval's inert.go), but for profile-once.
func BenchmarkLibraryTenfold(b *testing.B) {
	host := filepath.Join("..", "fixtures", "k8s-single", "host.hcl")
	base := modules.FS()
	baseOptions := libraryOptions(b, base)
	// Each generated module declares 20 options: enough of them for nine
	// times the built-in library's options more.
	large := newLargeLibrary(b, 9*baseOptions/20)
	largeOptions := libraryOptions(b, large)
	profile := func(b *testing.B, ev *eval.Evaluator) {
		if _, diags := evalprofile.Build(ev); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
	modes := []struct {
		name string
		run  func(*testing.B, *eval.Evaluator)
		// reads are the options run reads (eval.Config.Reads), as
		// nodegen eval says when it writes a profile
		reads []options.Path
		once  bool
	}{
		{"profile", profile, evalprofile.Reads(), false},
		{"config", func(b *testing.B, ev *eval.Evaluator) { evaluateAll(b, ev) }, nil, false},
		{"profile-once", profile, evalprofile.Reads(), true},
	}
	for _, mode := range modes {
		b.Run(mode.name, func(b *testing.B) {
			evaluate := func(lib fs.FS) time.Duration {
				start := time.Now()
				cfg := eval.Config{Library: lib, Files: []string{host}, Reads: mode.reads}
				if mode.once {
					// a Fleet of its own keeps nothing from its first
					// evaluation: the tree declared, every module split
					cfg.Fleet = eval.NewFleet()
				}
				ev, diags := eval.New(cfg)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				mode.run(b, ev)
				return time.Since(start)
			}
			for range 2 {
				evaluate(base)
				evaluate(large)
			}
			var baseTimes, largeTimes []float64
			for b.Loop() {
				runtime.GC()
				baseTimes = append(baseTimes, float64(evaluate(base)))
				runtime.GC()
				largeTimes = append(largeTimes, float64(evaluate(large)))
			}
			ratios := make([]float64, len(baseTimes))
			for i := range baseTimes {
				ratios[i] = largeTimes[i] / baseTimes[i]
			}
			b.ReportMetric(median(baseTimes)/1e6, "base-ms")
			b.ReportMetric(median(largeTimes)/1e6, "tenfold-ms")
			b.ReportMetric(median(ratios), "tenfold/base")
			b.ReportMetric(float64(baseOptions), "base-options")
			b.ReportMetric(float64(largeOptions), "tenfold-options")
		})
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
