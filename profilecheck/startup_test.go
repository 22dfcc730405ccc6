package profilecheck

import (
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nodegen/nodegen/internal/unitfile"
)

// service returns a unit file and its link from multi-user.target.wants.
func service(name, text string) []File {
	return []File{
		{Path: "systemd/system/" + name, Content: []byte(text), Option: "systemd.services." + strings.TrimSuffix(name, path.Ext(name))},
		{Path: "systemd/system/multi-user.target.wants/" + name, Link: "/etc/systemd/system/" + name},
	}
}

// script returns a job script of the profile.
func script(name, text string) File {
	return File{Path: "nodegen/scripts/" + name, Content: []byte("#!/bin/sh -e\n" + text), Option: "systemd.services.x.script"}
}

func files(groups ...[]File) []File {
	var out []File
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

const waiter = "[Service]\nType=oneshot\nExecStart=/etc/nodegen/scripts/waiter-start\n"

// startupInput is what Startup is given: a profile's files and the facts
// of its units.
type startupInput struct {
	Files     []File
	Provides  map[string]Provides
	HostNames []string
}

// startupTests are profiles and the problems Startup finds in them.
var startupTests = []struct {
	name string
	p    startupInput
	want []string
}{
	{
		name: "a file an enabled unit creates",
		p: startupInput{
			Files:    files(service("waiter.service", waiter), service("maker.service", "[Service]\nExecStart=/bin/true\n"), []File{script("waiter-start", "while ! test -f /run/ready ; do sleep 1 ; done\n")}),
			Provides: map[string]Provides{"maker.service": {Files: []string{"/run/ready"}}},
		},
	},
	{
		name: "a file nothing creates",
		p: startupInput{
			Files: files(service("waiter.service", waiter), []File{script("waiter-start", "while ! test -f /run/ready ; do sleep 1 ; done\n")}),
		},
		want: []string{`/etc/systemd/system/waiter.service: the loop "while ! test -f /run/ready" in /etc/nodegen/scripts/waiter-start (systemd.services.x.script) waits for /run/ready, which no enabled unit of this profile creates (a unit declares the files it creates in its provides.files) (from systemd.services.waiter)`},
	},
	{
		name: "a file only a unit nothing starts creates",
		p: startupInput{
			Files: files(service("waiter.service", waiter), []File{
				script("waiter-start", "until [ -s /run/ready ]; do sleep 1; done\n"),
				{Path: "systemd/system/maker.service", Content: []byte("[Service]\nExecStart=/bin/true\n")},
			}),
			Provides: map[string]Provides{"maker.service": {Files: []string{"/run/ready"}}},
		},
		want: []string{`/etc/systemd/system/waiter.service: the loop "until [ -s /run/ready ]" in /etc/nodegen/scripts/waiter-start (systemd.services.x.script) waits for /run/ready, which no enabled unit of this profile creates (maker.service would, but nothing starts it) (from systemd.services.waiter)`},
	},
	{
		name: "a unit started through a target and a path unit of the profile",
		p: startupInput{
			Files: files(service("waiter.service", waiter), service("app.target", ""), []File{
				script("waiter-start", "while [ ! -f /run/ready ]; do sleep 1; done\n"),
				{Path: "systemd/system/maker.path", Content: []byte("[Path]\nPathExists=/run/x\n")},
				{Path: "systemd/system/app.target.wants/maker.path", Link: "/etc/systemd/system/maker.path"},
				{Path: "systemd/system/maker.service", Content: []byte("[Service]\nExecStart=/bin/true\n")},
			}),
			Provides: map[string]Provides{"maker.service": {Files: []string{"/run/ready"}}},
		},
	},
	{
		name: "a file of the profile",
		p: startupInput{
			Files: files(service("waiter.service", "[Service]\nExecStartPre=-/bin/sh -c 'while ! test -e /etc/hostname; do sleep 1; done'\nExecStart=/bin/true\n"), []File{{Path: "hostname", Content: []byte("h\n")}}),
		},
	},
	{
		name: "an inline loop for a missing file",
		p: startupInput{
			Files: service("waiter.service", "[Service]\nExecStartPre=/bin/sh -c 'while ! test -e /run/x; do sleep 1; done'\nExecStart=/bin/true\n"),
		},
		want: []string{`/etc/systemd/system/waiter.service: the loop "while ! test -e /run/x" in ExecStartPre= of waiter.service waits for /run/x, which no enabled unit of this profile creates (a unit declares the files it creates in its provides.files) (from systemd.services.waiter)`},
	},
	{
		name: "loops that do not wait for something to appear",
		p: startupInput{
			Files: files(service("waiter.service", waiter), []File{script("waiter-start", "while test -f /run/lock; do sleep 1; done\nwhile ! test -f \"$F\"; do sleep 1; done\nwhile ! grep x /etc/resolv.conf; do sleep 1; done\n")}),
		},
	},
	{
		name: "a URL of this host that an enabled unit answers at",
		p: startupInput{
			Files: files(service("waiter.service", waiter), service("api.service", "[Service]\nExecStart=/bin/api\n"), []File{
				script("waiter-start", "while ! curl -fs --cacert /ca.pem https://h1.example.com:6443/healthz -o - | grep ok; do sleep 2; done\nwhile ! curl -fs https://10.0.0.1:6443/api; do sleep 2; done\nuntil nc -z localhost 6443; do sleep 1; done\n"),
			}),
			Provides:  map[string]Provides{"api.service": {URLs: []string{"https://0.0.0.0:6443", "https://10.0.0.1:6443"}}},
			HostNames: []string{"h1", "h1.example.com"},
		},
	},
	{
		name: "a URL of this host that nothing answers at",
		p: startupInput{
			Files: files(service("waiter.service", waiter), service("api.service", "[Service]\nExecStart=/bin/api\n"), []File{
				script("waiter-start", "while ! curl -fs http://h1:6443/healthz; do sleep 2; done\nuntil nc -z 127.0.0.1 8080; do sleep 1; done\n"),
			}),
			Provides:  map[string]Provides{"api.service": {URLs: []string{"https://0.0.0.0:6443"}}},
			HostNames: []string{"h1"},
		},
		want: []string{
			`/etc/systemd/system/waiter.service: the loop "while ! curl -fs http://h1:6443/healthz" in /etc/nodegen/scripts/waiter-start (systemd.services.x.script) waits for http://h1:6443/healthz, on this host, where no enabled unit of this profile answers (a unit declares where it answers in its provides.urls) (from systemd.services.waiter)`,
			`/etc/systemd/system/waiter.service: the loop "until nc -z 127.0.0.1 8080" in /etc/nodegen/scripts/waiter-start (systemd.services.x.script) waits for port 127.0.0.1:8080 of this host, where no enabled unit of this profile listens (a unit declares where it answers in its provides.urls) (from systemd.services.waiter)`,
		},
	},
	{
		name: "a URL of another machine",
		p: startupInput{
			Files:     files(service("waiter.service", waiter), []File{script("waiter-start", "while ! curl -fs https://master01:6443/healthz; do sleep 2; done\n")}),
			HostNames: []string{"worker01"},
		},
	},
	{
		name: "a unit wanted only by a unit that is nowhere",
		p: startupInput{
			Files: []File{
				{Path: "systemd/system/waiter.service", Content: []byte(waiter), Option: "systemd.services.waiter"},
				{Path: "systemd/system/multi-user.target.wants/waiter.service", Link: "/etc/systemd/system/waiter.service"},
				script("waiter-start", "while ! test -f /run/ready ; do sleep 1 ; done\n"),
				{Path: "systemd/system/maker.service", Content: []byte("[Service]\nExecStart=/bin/true\n")},
				{Path: "systemd/system/multi-usr.target.wants/maker.service", Link: "/etc/systemd/system/maker.service", Option: "systemd.services.maker.wantedBy"},
			},
			Provides: map[string]Provides{"maker.service": {Files: []string{"/run/ready"}}},
		},
		want: []string{
			"/etc/systemd/system/multi-usr.target.wants/maker.service: it links maker.service into multi-usr.target.wants/, but multi-usr.target is neither in this profile nor a stock unit of Debian or Flatcar: the link starts nothing (from systemd.services.maker.wantedBy)",
			`/etc/systemd/system/waiter.service: the loop "while ! test -f /run/ready" in /etc/nodegen/scripts/waiter-start (systemd.services.x.script) waits for /run/ready, which no enabled unit of this profile creates (maker.service would, but nothing starts it) (from systemd.services.waiter)`,
		},
	},
	{
		name: "requirements",
		p: startupInput{
			Files: files(
				service("a.service", "[Unit]\nRequires=b.service network-online.target\nBindsTo=getty@tty1.service\nRequisite=gone.service\nRequisite=\n[Service]\nExecStart=/bin/true\n"),
				service("b.service", "[Unit]\nDescription=three settings: a parse with room to append to\nRequires=c@x.service nosuch.service\n[Service]\nExecStart=/bin/true\n"),
				service("c@.service", "[Service]\nExecStart=/bin/true\n"),
				[]File{
					{Path: "systemd/system/b.service.d/10-more.conf", Content: []byte("[Unit]\nBindsTo=missing.target\n")},
				},
			),
		},
		want: []string{
			"/etc/systemd/system/b.service: Requires=nosuch.service names a unit that is neither in this profile nor a stock unit of Debian or Flatcar (from systemd.services.b)",
			"/etc/systemd/system/b.service: BindsTo=missing.target names a unit that is neither in this profile nor a stock unit of Debian or Flatcar (from systemd.services.b)",
		},
	},
	{
		name: "timers, paths and sockets that start nothing",
		p: startupInput{
			Files: files(
				service("backups.timer", "[Timer]\nOnCalendar=daily\n"),
				service("backup.service", "[Service]\nExecStart=/bin/true\n"),
				service("watch.path", "[Path]\nPathChanged=/etc/x\nUnit=nosuch.service\n"),
				service("tidy.timer", "[Timer]\nOnCalendar=daily\nUnit=backup.service\n"),
				service("echo.socket", "[Socket]\nListenStream=7\nAccept=yes\n"),
				service("echo@.service", "[Service]\nExecStart=/bin/cat\n"),
				service("apt.timer", "[Timer]\nOnCalendar=daily\nUnit=apt-daily.service\n"),
			),
		},
		want: []string{
			"/etc/systemd/system/backups.timer: it starts backups.service (the unit of its own name, as it sets no Unit=), which is neither in this profile nor a stock unit of Debian or Flatcar: it starts nothing (set its unit, or name the service as the timer) (from systemd.services.backups)",
			"/etc/systemd/system/watch.path: Unit=nosuch.service names a unit that is neither in this profile nor a stock unit of Debian or Flatcar: it starts nothing (set its unit, or name the service as the path) (from systemd.services.watch)",
		},
	},
}

func TestStartup(t *testing.T) {
	for _, tt := range startupTests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, startupProblems(tt.p)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// startupProblems are the problems Startup finds in p, as eval and
// switch print them.
func startupProblems(p startupInput) []string {
	var out []string
	for _, problem := range Startup(p.Files, Facts{Provides: p.Provides, HostNames: p.HostNames}) {
		out = append(out, problem.String())
	}
	return out
}

// TestStartupShared checks the profiles of TestStartup from goroutines at
// once, as nodegen build does, each many times, so that most parses come
// from the memos (run with -race); the answers are those of TestStartup.
// Then every text the memos were asked about still gives what parsing it
// anew gives: nothing modified a shared parse, and a unit's parse, to
// which loadUnits appends its drop-ins, has no room to be appended to in
// place.
func TestStartupShared(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 5 {
				for i := range startupTests {
					tt := startupTests[(i+g+round)%len(startupTests)]
					if diff := cmp.Diff(tt.want, startupProblems(tt.p)); diff != "" {
						t.Errorf("goroutine %d, round %d, %s: problems (-want +got):\n%s", g, round, tt.name, diff)
					}
				}
			}
		})
	}
	wg.Wait()
	var texts []string
	for _, tt := range startupTests {
		for _, f := range tt.p.Files {
			texts = append(texts, string(f.Content))
			for _, s := range unitfile.Parse(string(f.Content)) {
				texts = append(texts, s.Value, strings.TrimLeft(s.Value, "-@:+!|"))
				for _, words := range commands(strings.TrimLeft(s.Value, "-@:+!|")) {
					texts = append(texts, words...)
				}
			}
		}
	}
	for _, text := range texts {
		held := unitSettings.Get(text)
		if diff := cmp.Diff(unitfile.Parse(text), held); diff != "" {
			t.Errorf("the unit %q (-parsed anew +held):\n%s", text, diff)
		}
		if len(held) != cap(held) {
			t.Errorf("the unit %q: the held parse has room for %d more settings: a unit's drop-ins appended to it would change it", text, cap(held)-len(held))
		}
		if diff := cmp.Diff(shellWaits(text), scriptWaits.Get(text), cmp.AllowUnexported(wait{})); diff != "" {
			t.Errorf("the script %q (-parsed anew +held):\n%s", text, diff)
		}
		if diff := cmp.Diff(commands(text), lineCommands.Get(text)); diff != "" {
			t.Errorf("the command line %q (-parsed anew +held):\n%s", text, diff)
		}
	}
}

func TestShellWaits(t *testing.T) {
	tests := []struct {
		script string
		want   []wait
	}{
		{"while ! test -f /run/a ; do sleep 1 ; done", []wait{{loop: "while ! test -f /run/a", kind: waitFile, file: "/run/a"}}},
		{"until test -s /run//b; do sleep 1; done", []wait{{loop: "until test -s /run//b", kind: waitFile, file: "/run/b"}}},
		{"while [ ! -d '/run/c' ]; do sleep 1; done", []wait{{loop: "while [ ! -d '/run/c' ]", kind: waitFile, file: "/run/c"}}},
		{"while test -f /run/lock; do sleep 1; done", nil},
		{"until [ ! -f /run/lock ]; do sleep 1; done", nil},
		{"while ! test -f relative; do sleep 1; done", nil},
		{"while ! test -f $X; do sleep 1; done", nil},
		{"while ! curl -fs https://h:6443/healthz -o /dev/null; do sleep 2; done", []wait{{loop: "while ! curl -fs https://h:6443/healthz -o /dev/null", kind: waitURL, url: "https://h:6443/healthz", scheme: "https", host: "h", port: "6443"}}},
		{"until wget -q http://[::1]/x | grep y; do sleep 2; done", []wait{{loop: "until wget -q http://[::1]/x | grep y", kind: waitURL, url: "http://[::1]/x", scheme: "http", host: "::1", port: "80"}}},
		{"while ! nc -z -w 1 h 2379; do sleep 1; done", []wait{{loop: "while ! nc -z -w 1 h 2379", kind: waitPort, host: "h", port: "2379"}}},
		{"if true; then\n  while ! test -e /run/n; do sleep 1; done\nfi", []wait{{loop: "while ! test -e /run/n", kind: waitFile, file: "/run/n"}}},
		{"while ! test -f /run/a; do", nil},
	}
	for _, tt := range tests {
		got := shellWaits(tt.script)
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(wait{})); diff != "" {
			t.Errorf("shellWaits(%q) (-want +got):\n%s", tt.script, diff)
		}
	}
}
