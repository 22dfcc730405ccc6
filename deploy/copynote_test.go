package deploy

import (
	"os"
	"strings"
	"sync"
	"testing"
)

// TestDeployShowsDamagedCopies: what the host's receive says of the
// damaged copies it found reaches the deployer's events, escaped (issue
// 36, N7: a damaged copy is named).
func TestDeployShowsDamagedCopies(t *testing.T) {
	f := newHostile(t, nil)
	f.write("answer", sha256Hex("hello\n")+"\n")
	// The stand-in's receive prints what the real one prints of a
	// damaged copy, with an escape sequence a hostile host might add.
	script, err := os.ReadFile(f.cfg.SSH)
	if err != nil {
		t.Fatal(err)
	}
	const plain = `*" receive "*) cat > "$W/receive.$n"; exit 0;;`
	if !strings.Contains(string(script), plain) {
		t.Fatalf("the stand-in has no receive line %q", plain)
	}
	f.write("receive.err", "nodegen receive: \"/var/lib/nodegen/deploy/profiles/X/etc/hostname\" is damaged (its content is not its manifest's): not used, replaced by an intact copy\x1b]0;T\x07\n")
	script = []byte(strings.Replace(string(script), plain, `*" receive "*) cat > "$W/receive.$n"; cat "$W/receive.err" >&2; exit 0;;`, 1))
	if err := os.WriteFile(f.cfg.SSH, script, 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notes []string
	f.cfg.Event = func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Step == "copy-profile" {
			notes = append(notes, e.Message)
		}
	}
	if r, _ := f.run(); r.Outcome != Confirmed {
		t.Fatalf("result %+v", r)
	}
	want := `nodegen receive: "/var/lib/nodegen/deploy/profiles/X/etc/hostname" is damaged (its content is not its manifest's): not used, replaced by an intact copy\x1b]0;T\x07`
	if len(notes) != 2 || notes[1] != want {
		t.Errorf("copy-profile events %q, want the host's note as the second: %q", notes, want)
	}
}
