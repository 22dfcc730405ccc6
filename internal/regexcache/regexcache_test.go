package regexcache

import (
	"fmt"
	"testing"
)

func TestCompile(t *testing.T) {
	a, err := Compile(`^a+(b)$`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compile(`^a+(b)$`)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same pattern compiled twice: want the one kept")
	}
	if !a.MatchString("aab") || a.MatchString("b") {
		t.Error("the kept pattern does not match as compiled")
	}
	if _, err := Compile(`a(`); err == nil {
		t.Error("Compile(`a(`): want the error of regexp.Compile")
	}
	if _, ok := compiled.Load(`a(`); ok {
		t.Error("a pattern that does not compile was kept")
	}
}

func TestCompileBounded(t *testing.T) {
	for i := range Max + 10 {
		if _, err := Compile(fmt.Sprintf("^x%d$", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := kept.Load(); n > Max {
		t.Errorf("kept %d patterns, want at most %d", n, Max)
	}
	re, err := Compile("^past the bound$")
	if err != nil || !re.MatchString("past the bound") {
		t.Errorf("a pattern past the bound: %v, %v", re, err)
	}
}
