package words

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, test := range []struct {
		line string
		want []string
	}{
		{"", nil},
		{"  a\tb  ", []string{"a", "b"}},
		{`--a="10 s" '--b=x "y"' c\ d e\\`, []string{"--a=10 s", `--b=x "y"`, "c d", `e\`}},
		{`"" x`, []string{"", "x"}},
	} {
		got, err := Split(test.line)
		if err != nil || !slices.Equal(got, test.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", test.line, got, err, test.want)
		}
	}
	for _, line := range []string{`a "b`, `a 'b`, `a\`} {
		if _, err := Split(line); err != ErrUnterminated {
			t.Errorf("Split(%q): %v, want ErrUnterminated", line, err)
		}
	}
}
