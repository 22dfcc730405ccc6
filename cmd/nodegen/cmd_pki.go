package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/pki"
)

func init() {
	commands = append(commands, &command{
		name:    "pki",
		summary: "Keep a host's certificates issued by a cfssl CA (easyCerts): nodegen pki fetch.",
		usage:   "nodegen pki fetch [--spec-dir DIR] [SPEC.json...]",
		help: `"fetch" reads certificate specs (the JSON files that the library writes
for services.kubernetes.pki.certs, in /etc/kubernetes/pki/specs) and, for
each, keeps its certificate: one that parses, matches its private key,
chains to the CA, says what the spec asks for and is not in the last third
of its validity is left alone; otherwise a new key is made and the CA
(cfssl's /api/v1/cfssl/authsign, with the API token of the spec) signs a
new certificate, which is written with its key atomically, with the owner
and mode of the spec. A missing CA file is fetched from the CA when the
spec trusts it on bootstrap. The actions of the specs whose files changed
run last, each once.

Exit status 0 when every certificate is good, 1 when one could not be
kept (the CA unreachable, a bad token, a refused certificate, an action
that failed: the unit that runs this retries), 2 on a usage error.`,
		example: "nodegen pki fetch --spec-dir /etc/kubernetes/pki/specs\nnodegen pki fetch /etc/kubernetes/pki/specs/kubelet.json",
		args:    argsSpecFiles,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			specDir := fs.String("spec-dir", "", "read every *.json spec file of `DIR`")
			completeWith(fs, "spec-dir", completeDirs)
			return func(args []string, stdout, stderr io.Writer) int {
				return runPKI(args, *specDir, stdout, stderr)
			}
		},
	})
}

func runPKI(args []string, specDir string, stdout, stderr io.Writer) int {
	c := findCommand("pki")
	switch {
	case len(args) == 0:
		return usageError(stderr, c, "want a subcommand: fetch")
	case args[0] != "fetch":
		return usageError(stderr, c, "unknown subcommand %q: want fetch", args[0])
	case specDir == "" && len(args) == 1:
		return usageError(stderr, c, "fetch wants --spec-dir DIR or spec files")
	}
	var specs []*pki.Spec
	var loadErrs []error
	if specDir != "" {
		s, err := pki.LoadDir(specDir)
		specs = append(specs, s...)
		loadErrs = append(loadErrs, err)
	}
	for _, p := range args[1:] {
		s, err := pki.LoadSpec(p)
		if err != nil {
			loadErrs = append(loadErrs, err)
			continue
		}
		specs = append(specs, s)
	}
	code := exitOK
	if err := errors.Join(loadErrs...); err != nil {
		fmt.Fprintf(stderr, "nodegen pki: %s\n", err)
		code = exitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := &pki.Fetcher{Log: stdout}
	outcomes := f.Keep(ctx, specs)
	failed := 0
	for _, o := range outcomes {
		if o.Err != nil {
			failed++
			fmt.Fprintf(stderr, "nodegen pki: %s: %s\n", o.Spec.Name, o.Err)
		} else {
			fmt.Fprintf(stdout, "%s: %s\n", o.Spec.Name, o.Message)
		}
	}
	for _, a := range f.RunActions(ctx, outcomes) {
		if a.Err != nil {
			fmt.Fprintf(stderr, "nodegen pki: action %q failed: %s\n", a.Action, a.Err)
			code = exitError
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "nodegen pki: %d of %d certificates could not be kept\n", failed, len(outcomes))
		code = exitError
	}
	return code
}
