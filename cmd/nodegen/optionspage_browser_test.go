package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/optionsite"
)

// The page under test is written for this host: its overlay is checked.
const pageHost = "../../fixtures/k8s-single/host.hcl"

// optionsPage writes the options page of the library with k8s-single's
// values into a directory of the test, and starts Chromium headless on it
// (one browser; each case opens its own tab with tab).
type optionsPage struct {
	dir       string
	artifacts string
	browser   context.Context
}

func newOptionsPage(t *testing.T) *optionsPage {
	t.Helper()
	chromium := suitereport.Program(t, "options page in Chromium (cmd/nodegen TestOptionsPage)", "chromium", "apt-get install chromium")
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"options", "--format", "html", "-o", dir, pageHost}, &stdout, &stderr); code != exitOK {
		t.Fatalf("nodegen options --format html: exit %d\n%s", code, stderr.String())
	}
	artifacts := os.Getenv("NODEGEN_ARTIFACTS")
	if artifacts == "" {
		artifacts = filepath.Join(os.TempDir(), "nodegen-artifacts")
	}
	artifacts = filepath.Join(artifacts, "optionspage")
	if err := os.RemoveAll(artifacts); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots of each case: %s", artifacts)
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(chromium),
		chromedp.WindowSize(1280, 900),
		chromedp.DisableGPU,
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root inside its sandbox.
		opts = append(opts, chromedp.NoSandbox)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %s", chromium, err)
	}
	return &optionsPage{dir: dir, artifacts: artifacts, browser: browser}
}

// tab opens a new tab, bounded in time, closed at the end of the test.
func (p *optionsPage) tab(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(p.browser)
	t.Cleanup(cancel)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTime)
	return ctx
}

// url is the page's file:// address with the query q (?q=) and the
// fragment frag (#PATH).
func (p *optionsPage) url(q, frag string) string {
	u := url.URL{Scheme: "file", Path: filepath.Join(p.dir, optionsite.PageFile)}
	if q != "" {
		u.RawQuery = url.Values{"q": {q}}.Encode()
	}
	u.Fragment = frag
	return u.String()
}

// open loads address and waits for the page to have read its index.
func open(address string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Navigate(address),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	)
}

// jsValue evaluates a JavaScript expression in the tab; a failure ends the
// test.
func jsValue[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %s", expr, err)
	}
	return v
}

// do runs the steps in the tab; a failure ends the test.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// screenshot keeps a picture of the tab's window as an artifact, NAME.png
// (the whole page, thousands of pixels high, takes minutes to encode on a
// loaded machine).
func (p *optionsPage) screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %s", name, err)
		return
	}
	name = strings.NewReplacer("/", "_", " ", "_").Replace(name) + ".png"
	if err := os.WriteFile(filepath.Join(p.artifacts, name), png, 0o644); err != nil {
		t.Error(err)
	}
}

const firstResult = `(document.querySelector("#results .opt") || {dataset: {}}).dataset.path || ""`

// TestOptionsPage drives the options page (nodegen options --format html)
// in Chromium: search as a user types it, the tree, the HCL copied (which
// nodegen eval must accept), k8s-single's values and their definitions,
// and stable links, each case with a screenshot.
func TestOptionsPage(t *testing.T) {
	p := newOptionsPage(t)

	typed := []struct {
		query, first string
	}{
		{"openssh enable", "services.openssh.enable"},
		{"kubelet taints", "services.kubernetes.kubelet.taints"},
	}
	for _, tc := range typed {
		t.Run("type "+tc.query, func(t *testing.T) {
			ctx := p.tab(t)
			do(t, ctx,
				open(p.url("", "")),
				chromedp.SendKeys(chromedp.ID("q"), tc.query),
				chromedp.WaitVisible(chromedp.CSS(`#results .opt`)),
			)
			first := jsValue[string](t, ctx, firstResult)
			p.screenshot(t, ctx, "type "+tc.query)
			if first != tc.first {
				t.Errorf("typing %q: the first result is %q, want %q", tc.query, first, tc.first)
			}
			// Enter opens the first result, with its own link.
			do(t, ctx,
				chromedp.SendKeys(chromedp.ID("q"), kb.Enter),
				chromedp.WaitVisible(chromedp.CSS(`#detail .opt`)),
			)
			opened := jsValue[string](t, ctx, `document.querySelector("#detail .opt").dataset.path + " " + location.hash`)
			if want := tc.first + " #" + tc.first; opened != want {
				t.Errorf("Enter after %q opened %q, want %q", tc.query, opened, want)
			}
		})
	}

	t.Run("tree", func(t *testing.T) {
		ctx := p.tab(t)
		do(t, ctx,
			open(p.url("", "")),
			chromedp.Click(chromedp.CSS(`details[data-ns="services"] > summary`)),
			chromedp.Click(chromedp.CSS(`details[data-ns="services.kubernetes"] > summary`)),
			chromedp.WaitVisible(chromedp.CSS(`details[data-ns="services.kubernetes.kubelet"]`)),
		)
		children := jsValue[[]string](t, ctx, `[...document.querySelector('details[data-ns="services.kubernetes"] > ul').children].map(li => {
			const ns = (li.querySelector("[data-ns]") || li).dataset.ns; return ns.split(".").pop(); })`)
		p.screenshot(t, ctx, "tree services.kubernetes")
		for _, want := range []string{"apiserver", "kubelet", "masterAddress", "roles"} {
			if !slices.Contains(children, want) {
				t.Errorf("services.kubernetes opened in the tree lists %q, not %q", children, want)
			}
		}
		if !sort.StringsAreSorted(children) {
			t.Errorf("the children of services.kubernetes are not sorted: %q", children)
		}
	})

	t.Run("copy HCL", func(t *testing.T) {
		ctx := p.tab(t)
		do(t, ctx,
			open(p.url("", "services.openssh.enable")),
			chromedp.Click(chromedp.CSS(`#detail .copy-hcl`)),
			chromedp.WaitVisible(chromedp.ID("copied")),
		)
		copied := jsValue[string](t, ctx, `window.nodegenLastCopied`)
		shown := jsValue[string](t, ctx, `document.getElementById("copied").textContent`)
		p.screenshot(t, ctx, "copy HCL services.openssh.enable")
		want := "config \"services.openssh\" {\n  enable = true\n}\n"
		if copied != want {
			t.Errorf("Copy HCL copied %q, want %q", copied, want)
		}
		if !strings.Contains(shown, "enable = true") {
			t.Errorf("the page says %q after copying", shown)
		}
		// The copied text is a host nodegen eval accepts.
		dir := t.TempDir()
		host := filepath.Join(dir, "host.hcl")
		if err := os.WriteFile(host, []byte(copied), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"eval", "--checks", "off", "-o", filepath.Join(dir, "result"), host}, &stdout, &stderr); code != exitOK {
			t.Fatalf("nodegen eval of the copied HCL: exit %d\n%s", code, stderr.String())
		}
		if _, err := os.Stat(filepath.Join(dir, "result", "etc", "systemd", "system", "sshd.service")); err != nil {
			t.Errorf("the copied HCL did not enable sshd: %s", err)
		}
	})

	t.Run("host overlay", func(t *testing.T) {
		ctx := p.tab(t)
		sel := `#detail .host[data-host="` + pageHost + `"]`
		do(t, ctx,
			open(p.url("kubernetes roles", "services.kubernetes.roles")),
			chromedp.WaitVisible(chromedp.CSS(sel)),
		)
		value := jsValue[string](t, ctx, `document.querySelector('`+sel+` pre.value').textContent`)
		at := jsValue[string](t, ctx, `[...document.querySelectorAll('`+sel+` tr.def')].map(r => r.children[2].textContent).join("\n")`)
		state := jsValue[string](t, ctx, `[...document.querySelectorAll('`+sel+` tr.def')].map(r => r.children[0].textContent).join(" ")`)
		set := jsValue[bool](t, ctx, `!!document.querySelector('#detail .badge.set')`)
		p.screenshot(t, ctx, "host overlay services.kubernetes.roles")
		if value != `["master", "node"]` {
			t.Errorf("k8s-single's services.kubernetes.roles shows %q", value)
		}
		// The host sets it at line 10, column 19 (nodegen names a file
		// outside the working directory by its absolute path); the
		// library's default lost.
		abs, err := filepath.Abs(pageHost)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(at, abs+":10:19") || state != "overridden won" {
			t.Errorf("the definitions shown are at %q with states %q; want the default overridden and %s:10:19 won", at, state, abs)
		}
		if !set {
			t.Error("services.kubernetes.roles is not marked as set by the host")
		}
	})

	t.Run("stable link ?q=", func(t *testing.T) {
		ctx := p.tab(t)
		do(t, ctx, open(p.url("kubelet taints", "")))
		q := jsValue[string](t, ctx, `document.getElementById("q").value`)
		first := jsValue[string](t, ctx, firstResult)
		p.screenshot(t, ctx, "link q=kubelet taints")
		if q != "kubelet taints" || first != "services.kubernetes.kubelet.taints" {
			t.Errorf("?q=kubelet+taints: the search box has %q and the first result is %q", q, first)
		}
	})

	t.Run("served over HTTP, from the JSON index", func(t *testing.T) {
		// Without options-index.js the page fetches options-index.json.
		files := http.FileServer(http.Dir(p.dir))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, optionsite.IndexJSFile) {
				http.NotFound(w, r)
				return
			}
			files.ServeHTTP(w, r)
		}))
		defer srv.Close()
		ctx := p.tab(t)
		do(t, ctx, open(srv.URL+"/"+optionsite.PageFile+"?q=openssh+enable"))
		first := jsValue[string](t, ctx, firstResult)
		p.screenshot(t, ctx, "http json index")
		if first != "services.openssh.enable" {
			t.Errorf("over HTTP: the first result of openssh enable is %q", first)
		}
	})

	// Held out: what users type, and the option they came for.
	heldOut := []struct {
		query, first string
	}{
		{"ssh port", "services.openssh.ports"},
		{"hostname", "networking.hostName"},
		{"firewall tcp ports", "networking.firewall.allowedTCPPorts"},
		{"nginx", "services.nginx.enable"},
		{"permit root login", "services.openssh.settings.PermitRootLogin"},
		{"sysctl", "boot.kernel.sysctl"},
		{"nameservers", "networking.nameservers"},
		{"kubernetes roles", "services.kubernetes.roles"},
		{"etcd enable", "services.etcd.enable"},
		{"password authentication", "services.openssh.settings.PasswordAuthentication"},
		{"services.kubernetes.masterAddress", "services.kubernetes.masterAddress"},
		{"systemd services", "systemd.services"},
		{"prometheus scrape", "services.prometheus.scrapeConfigs"},
		{"node exporter", "services.prometheus.exporters.node.enable"},
		{"kubelet", "services.kubernetes.kubelet.enable"},
		{"containerd", "services.containerd.enable"},
		{"etc files", "environment.etc"},
	}
	t.Run("held-out searches", func(t *testing.T) {
		ctx := p.tab(t)
		do(t, ctx, open(p.url("", "")))
		for _, tc := range heldOut {
			got := jsValue[[]string](t, ctx, fmt.Sprintf(`window.nodegenSearch(%q).slice(0, 5)`, tc.query))
			if len(got) == 0 || got[0] != tc.first {
				t.Errorf("%q: the first five are %q, want %q first", tc.query, got, tc.first)
			}
		}
	})

	t.Run("keystroke time", func(t *testing.T) {
		// Reported, not asserted (BENCHMARKS.md): the time from one
		// keystroke to the results drawn, by the page's Performance API
		// measure, over words typed a letter at a time.
		ctx := p.tab(t)
		do(t, ctx,
			open(p.url("", "")),
			chromedp.SendKeys(chromedp.ID("q"), "services kubelet"),
		)
		st, err := os.Stat(filepath.Join(p.dir, optionsite.IndexJSONFile))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("index: %d bytes (options-index.json)", st.Size())
		for _, measure := range []string{"nodegen-search", "nodegen-keystroke"} {
			times := jsValue[[]float64](t, ctx, `performance.getEntriesByName("`+measure+`").map(e => e.duration)`)
			if len(times) < 2 {
				t.Fatalf("the page measured %d of %s", len(times), measure)
			}
			first, typed := times[0], slices.Clone(times[1:])
			sort.Float64s(typed)
			t.Logf("%s: first draw %.1f ms; per keystroke: median %.1f ms, max %.1f ms over %d keystrokes",
				measure, first, typed[len(typed)/2], typed[len(typed)-1], len(typed))
		}
	})
}
