package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"
	"oras.land/oras-go/v2/registry/remote"

	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/ociprofile"
)

func init() {
	commands = append(commands, &command{
		name:    "publish",
		summary: "Evaluate hosts and push each profile, signed, to an OCI registry for the hosts to pull.",
		usage:   "nodegen publish --registry REF --key FILE [--channel NAME] [--serial N] [--expires DUR] [--plain-http] HOST.hcl...",
		help: `Evaluates the hosts as nodegen deploy does, then pushes each profile to
the repository REF (HOST[:PORT]/NAME) as an OCI artifact: every file
content a blob named by its sha256, pushed once whatever the number of
hosts that share it (and not at all when the registry has it), the
profile's manifest as the config blob, and one OCI manifest per host,
tagged HOST_CHANNEL. Each manifest carries an ed25519 signature (the key
in FILE, PEM PKCS #8, as "openssl genpkey -algorithm ed25519" writes it)
over the host's name, its serial, its expiry and the profile, which
hosts verify with the public key alone (nodegen pull).

The serial of each host is --serial, or the current Unix time, or one
more than its tag's, whichever is greater; a --serial not greater than
the tag's is refused, as hosts would. Nothing is published unless every
host evaluates. docs/pulling.md explains it all.`,
		example: "nodegen publish --registry registry.example.org/fleet --key publish.pem --channel canary hosts/*.hcl",
		args:    argsModules,
		flags:   publishCommand,
		gc:      runtimetune.ManyEvaluations,
	})
	commands = append(commands, &command{
		name:    "promote",
		summary: "Move hosts from one channel to another: tag each host's manifest in FROM with its tag in TO.",
		usage:   "nodegen promote --registry REF --from CHANNEL --to CHANNEL [--plain-http] [HOST...]",
		help: `Each host's manifest tagged HOST_FROM is tagged HOST_TO too, unchanged:
its signature, serial and expiry are the ones publish gave it. Without
HOST, every host that has a tag in FROM is promoted. A host whose tag in
TO has a greater serial already is left alone (its hosts would refuse
the older one).`,
		example: "nodegen promote --registry registry.example.org/fleet --from canary --to stable",
		flags:   promoteCommand,
	})
}

func publishCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	var ef evalFlags
	registry := fs.String("registry", "", "the fleet's repository, `HOST[:PORT]/NAME`")
	channel := fs.String("channel", "stable", "the channel whose tags are set, `NAME`")
	keyFile := fs.String("key", "", "the ed25519 private key to sign with, in `FILE` (PEM, PKCS #8)")
	serial := fs.Uint64("serial", 0, "the serial of every manifest, `N` (default: the Unix time, or one more than the tag's)")
	expires := fs.Duration("expires", 30*24*time.Hour, "how long after now the manifests expire, `DUR`")
	plainHTTP := fs.Bool("plain-http", false, "talk to the registry over HTTP, not HTTPS")
	ef.add(fs)
	return func(args []string, stdout, stderr io.Writer) int {
		c := findCommand("publish")
		if len(args) == 0 {
			for _, h := range ef.fleetHosts {
				args = append(args, h.File)
			}
		}
		switch {
		case len(args) == 0:
			return usageError(stderr, c, "no host given")
		case *registry == "":
			return usageError(stderr, c, "--registry is required")
		case *keyFile == "":
			return usageError(stderr, c, "--key is required")
		case *expires <= 0:
			return usageError(stderr, c, "--expires %s: want a positive duration", *expires)
		}
		if err := ociprofile.CheckChannel(*channel); err != nil {
			return usageError(stderr, c, "--channel: %s", err)
		}
		key, err := ociprofile.ReadPrivateKey(*keyFile)
		if err != nil {
			return usageError(stderr, c, "--key: %s", err)
		}
		repo, err := remote.NewRepository(*registry)
		if err != nil {
			return usageError(stderr, c, "--registry %q: %s", *registry, err)
		}
		repo.PlainHTTP = *plainHTTP
		files, err := buildHosts(args)
		if err != nil {
			return usageError(stderr, c, "%s", err)
		}
		tmp, err := os.MkdirTemp("", "nodegen-publish-")
		if err != nil {
			fmt.Fprintf(stderr, "nodegen publish: %s\n", err)
			return exitError
		}
		defer os.RemoveAll(tmp)
		hosts, code := evalDeployHosts("publish", files, &ef, tmp, stderr)
		if code != exitOK {
			return code
		}
		profiles := make([]ociprofile.HostProfile, len(hosts))
		for i, h := range hosts {
			profiles[i] = ociprofile.HostProfile{Host: h.Name, Dir: filepath.Clean(h.Profile)}
		}
		start := time.Now()
		published, st, err := ociprofile.Publish(context.Background(), repo, profiles, ociprofile.PublishOptions{
			Channel: *channel, Key: key, Serial: *serial, Expires: start.Add(*expires),
		})
		for _, p := range published {
			fmt.Fprintf(stdout, "%s: %s:%s serial %d (%s)\n", p.Host, *registry, p.Tag, p.Serial, p.Manifest)
		}
		if err != nil {
			fmt.Fprintf(stderr, "nodegen publish: %s\n", err)
			return exitError
		}
		fmt.Fprintf(stdout, "published %d host(s) to %s (channel %s, key %s): %d blob(s) pushed (%d bytes), %d already there (%d bytes), %d manifest(s) (%d bytes) [%.1f s]\n",
			len(published), *registry, *channel, ociprofile.KeyID(key.Public().(ed25519.PublicKey)), st.Blobs, st.Bytes, st.Skipped, st.SkippedBytes, st.Manifests, st.ManifestBytes, time.Since(start).Seconds())
		return exitOK
	}
}

func promoteCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	registry := fs.String("registry", "", "the fleet's repository, `HOST[:PORT]/NAME`")
	from := fs.String("from", "", "the channel to promote from, `NAME`")
	to := fs.String("to", "", "the channel to promote to, `NAME`")
	plainHTTP := fs.Bool("plain-http", false, "talk to the registry over HTTP, not HTTPS")
	return func(args []string, stdout, stderr io.Writer) int {
		c := findCommand("promote")
		if *registry == "" {
			return usageError(stderr, c, "--registry is required")
		}
		for _, ch := range []struct{ flag, v string }{{"--from", *from}, {"--to", *to}} {
			if err := ociprofile.CheckChannel(ch.v); err != nil {
				return usageError(stderr, c, "%s: %s", ch.flag, err)
			}
		}
		if *from == *to {
			return usageError(stderr, c, "--from and --to are the same channel")
		}
		repo, err := remote.NewRepository(*registry)
		if err != nil {
			return usageError(stderr, c, "--registry %q: %s", *registry, err)
		}
		repo.PlainHTTP = *plainHTTP
		ctx := context.Background()
		hosts := args
		if len(hosts) == 0 {
			if hosts, err = ociprofile.ChannelHosts(ctx, repo, *from); err != nil {
				fmt.Fprintf(stderr, "nodegen promote: listing the tags of %s: %s\n", *registry, err)
				return exitError
			}
			if len(hosts) == 0 {
				fmt.Fprintf(stderr, "nodegen promote: no host has a tag in channel %s of %s\n", *from, *registry)
				return exitError
			}
		}
		code := exitOK
		for _, h := range hosts {
			p, err := ociprofile.Promote(ctx, repo, h, *from, *to)
			if err != nil {
				fmt.Fprintf(stderr, "nodegen promote: %s: %s\n", h, err)
				code = exitError
				continue
			}
			fmt.Fprintf(stdout, "%s: %s:%s serial %d (%s)\n", h, *registry, p.Tag, p.Serial, p.Manifest)
		}
		return code
	}
}
