//go:build linux

package machine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBindArgs(t *testing.T) {
	got, err := bindArgs([]Bind{
		{Host: "/a", Container: "/b", ReadOnly: true},
		{Host: `/with:colon\`, Container: "/c"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--bind-ro=/a:/b", `--bind=/with\:colon\\:/c`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := bindArgs([]Bind{{Host: "relative", Container: "/c"}}); err == nil {
		t.Error("a relative host path was accepted")
	}
}
