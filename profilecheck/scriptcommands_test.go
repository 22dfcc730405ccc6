package profilecheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScriptCommands(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"builtins are no programs", "#!/bin/sh -e\necho Ok\nprintf '%s\\n' x; test -f /a && [ -d /b ] || exit 1\n", nil},
		{"a loop", "while ! curl --fail-early -fs https://x -o /dev/null; do\n  sleep 2\n  echo Waiting\ndone\n", []string{"curl", "sleep"}},
		{"pipes and lists", "head -c 16 /dev/urandom | od -An -t x | tr -d ' ' >\"/x\"\nchown cfssl /x && chmod 400 /x\n", []string{"head", "od", "tr", "chown", "chmod"}},
		{"assignments and substitutions", "token=$(cat \"/x\")\nA=1 B=\"$(dirname \"$0\")\" env x\nmkdir -p \"$(dirname \"/y\")\"\n", []string{"cat", "dirname", "env", "dirname", "mkdir"}},
		{"quoted and expanded words are not read", "\"$CMD\" x\n${X}/bin/y\n$(z) a\n'quoted' b\n*glob c\n", []string{"z"}},
		{"absolute paths are commands, relative ones are not", "/opt/bin/app -c x\n./local.sh\nbin/tool\n", []string{"/opt/bin/app"}},
		{"redirections", "2>/dev/null cmd1 a\ncmd2 2>&1 >/dev/null\n>out cmd3\ncmd4 &>/dev/null\ncmd5 > out\n", []string{"cmd1", "cmd2", "cmd3", "cmd4", "cmd5"}},
		{"exec and command", "exec /usr/bin/app\ncommand -v curl >/dev/null || echo no\ncommand ls\n", []string{"/usr/bin/app", "ls"}},
		{"here-documents are text", "cat >>/etc/hosts <<'HOSTS'\n10.0.0.1 kube\nnot a command\nHOSTS\ngrep x <<EOF\nfoo\nEOF\nsed -e x <<-END\n\tbar\n\tEND\ntrue\n", []string{"cat", "grep", "sed"}},
		{"comments", "# curl x\nls # wget y\n", []string{"ls"}},
		{"if, for, case", "if ip link show k0 >/dev/null 2>&1; then ip link add k0; fi\nfor d in /a /b; do mount -o x \"$d\"; done\ncase \"$x\" in\n  a|b) wget y ;;\n  *'${z}'*)\n    ip addr\n    ;;\nesac\n", []string{"ip", "ip", "mount", "wget", "ip"}},
		{"functions are not programs", "f() {\n  rm -f x\n}\nfunction g {\n  ln -s a b\n}\nf\ng\n", []string{"rm", "ln"}},
		{"arithmetic and backquotes", "n=$((1 + 2))\nx=`hostname -f`\n", []string{"hostname"}},
		{"a continued line", "until kubectl apply \\\n  -f x; do sleep 2; done\n", []string{"kubectl", "sleep"}},
		{"a quote over lines", "printf 'a\nls b\n' >x\nnproc\n", []string{"nproc"}},
		{"subshells and groups", "(cd /x && make) || { logger fail; }\n", []string{"make", "logger"}},
		{"e2e's sysctl loop", "for kv in vm/a=1 kernel/b=10; do\n  k=${kv%%=*}; v=${kv#*=}\n  [ \"$(cat /proc/sys/$k)\" = \"$v\" ] && continue\n  f=/run/x/$(echo $k | tr / _)\n  echo $v > $f\n  mount --bind $f /proc/sys/$k\ndone\n", []string{"cat", "tr", "mount"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range scriptCommands(tc.script) {
				got = append(got, c.Name)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%q (-want +got):\n%s", tc.script, d)
			}
		})
	}
}
