package lsp

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestLocate: what the cursor (the | in each source) is on.
func TestLocate(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want site
	}{
		{"config label, first segment", `config "netw|orking" {}`,
			site{kind: siteKey, path: p("networking"), prefix: p(), word: "netw", wordStart: 8, label: true}},
		{"config label, second segment", `config "services.ope|nssh.settings" {}`,
			site{kind: siteKey, path: p("services", "openssh"), prefix: p("services"), word: "ope", wordStart: 17, label: true}},
		{"config label, after a dot", `config "services.|" {}`,
			site{kind: siteKey, path: nil, prefix: p("services"), word: "", wordStart: 17, label: true}},
		{"attribute name", "config \"networking\" {\n  host|Name = \"a\"\n}",
			site{kind: siteKey, path: p("networking", "hostName"), prefix: p("networking"), word: "host", wordStart: 24}},
		{"a name being typed", "config \"networking\" {\n  dom|\n}",
			site{kind: siteKey, path: p("networking", "dom"), prefix: p("networking"), word: "dom", wordStart: 24}},
		{"object key inside an instance", "config \"services.kubernetes.kubelet\" {\n  settings = {\n    fail|SwapOn = false\n  }\n}",
			site{kind: siteKey, path: p("services", "kubernetes", "kubelet", "settings", "failSwapOn"), prefix: p("services", "kubernetes", "kubelet", "settings"), word: "fail", wordStart: 58}},
		{"a value", "config \"networking\" {\n  hostName = \"a|b\"\n}",
			site{kind: siteValue, path: p("networking", "hostName"), word: "a", wordStart: 35, wordEnd: 39}},
		{"inside mkForce", "config {\n  networking = { hostName = mkForce(\"a|\") }\n}",
			site{kind: siteValue, path: p("networking", "hostName"), word: "a", wordStart: 45, wordEnd: 48}},
		{"mkIf's condition is an expression", "config {\n  networking = mkIf(tr|ue, { hostName = \"a\" })\n}",
			site{inExpr: true, word: "tr", wordStart: 29}},
		{"a config reference", "locals {\n  a = config.networking.host|Name\n}",
			site{kind: siteKey, path: p("networking", "hostName"), prefix: p("networking"), word: "host", wordStart: 33, inExpr: true}},
		{"a function being typed", "locals {\n  a = upp|\n}",
			site{inExpr: true, word: "upp", wordStart: 15}},
		{"an option declaration's label", "options \"services.web\" {\n  option \"po|rt\" { type = port }\n}",
			site{kind: siteDecl, path: p("services", "web", "port"), prefix: p("services", "web"), word: "po", wordStart: 35, label: true}},
		{"the when of a config block", "config \"a\" {\n  when = config.b|\n}",
			site{kind: siteKey, path: p("b"), prefix: p(), word: "b", wordStart: 29, inExpr: true}},
		{"a reference ending in a dot", "locals {\n  a = config.networking.|\n}",
			site{kind: siteKey, path: p("networking"), prefix: p("networking"), word: "", wordStart: 33, inExpr: true}},
		{"an option of a submodule, by its block", "submodule \"web\" {\n  options \"tls\" {\n    option \"ce|rt\" { type = str }\n  }\n}",
			site{kind: siteSubDecl, declAt: 40}},
		{"outside everything", "\n|\nconfig {}", site{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := strings.Index(tt.src, "|")
			src := []byte(strings.Replace(tt.src, "|", "", 1))
			f, _ := hclsyntax.ParseConfig(src, "t.hcl", hcl.InitialPos)
			got := locate(f.Body.(*hclsyntax.Body), src, off)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(site{})); diff != "" {
				t.Errorf("locate (-want +got):\n%s", diff)
			}
		})
	}
}

func p(segs ...string) []string {
	if segs == nil {
		return nil
	}
	return segs
}
