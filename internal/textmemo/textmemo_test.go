package textmemo

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// words is the function the tests memoize: it keeps parts of its text.
func words(s string) []string { return strings.Fields(s) }

func TestMemoGivesWhatTheFunctionGives(t *testing.T) {
	texts := []string{"", "a", "a b c", "  x\ty\n", "a", "a b c", strings.Repeat("w ", 40)}
	m := New(words, 1<<10)
	for i, text := range texts {
		for _, got := range [][]string{m.Get(text), m.GetBytes([]byte(text))} {
			if diff := cmp.Diff(words(text), got); diff != "" {
				t.Errorf("text %d %q (-want +got):\n%s", i, text, diff)
			}
		}
	}
	if got, want := m.Len(), 5; got != want {
		t.Errorf("the memo holds %d texts, want %d (the distinct ones)", got, want)
	}
}

// TestMemoHoldsTextsAskedAgain checks that the memo computes a text it is
// asked for once, and holds it from the second time on.
func TestMemoHoldsTextsAskedAgain(t *testing.T) {
	calls := map[string]int{}
	m := New(func(s string) int { calls[s]++; return len(s) }, 1<<10)
	m.Get("once")
	for range 3 {
		for _, text := range []string{"one", "two", "three"} {
			if got := m.GetBytes([]byte(text)); got != len(text) {
				t.Errorf("GetBytes(%q) = %d, want %d", text, got, len(text))
			}
			m.Get(text)
		}
	}
	if diff := cmp.Diff(map[string]int{"once": 1, "one": 2, "two": 2, "three": 2}, calls); diff != "" {
		t.Errorf("calls of the function by text (-want +got):\n%s", diff)
	}
	if got, want := m.Len(), 3; got != want {
		t.Errorf("the memo holds %d texts, want %d (those asked for more than once)", got, want)
	}
}

// TestMemoOwnsItsTexts checks that a text given as bytes and changed
// afterwards changes neither the key nor the result the memo holds.
func TestMemoOwnsItsTexts(t *testing.T) {
	m := New(words, 1<<10)
	b := []byte("kept words")
	m.GetBytes(b)
	m.GetBytes(b)
	copy(b, "XXXX")
	if diff := cmp.Diff([]string{"kept", "words"}, m.Get("kept words")); diff != "" {
		t.Errorf("after the caller's bytes changed (-want +got):\n%s", diff)
	}
	if got := m.Len(); got != 1 {
		t.Errorf("the memo holds %d texts, want 1", got)
	}
}

func TestMemoIsBounded(t *testing.T) {
	tests := []struct {
		name    string
		limit   int
		texts   []string
		wantLen int
	}{
		{"under the bound", 10, []string{"aaa", "bbb", "ccc"}, 3},
		{"at the bound", 9, []string{"aaa", "bbb", "ccc"}, 3},
		{"past the bound: starts anew", 8, []string{"aaa", "bbb", "ccc"}, 1},
		{"a text over the bound alone is not kept", 2, []string{"aaa"}, 0},
		{"one over the bound among others", 4, []string{"aa", "bbbbb", "cc"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(func(s string) int { return len(s) }, tt.limit)
			for _, text := range tt.texts {
				for range 2 {
					if got := m.Get(text); got != len(text) {
						t.Errorf("Get(%q) = %d, want %d", text, got, len(text))
					}
				}
			}
			if got := m.Len(); got != tt.wantLen {
				t.Errorf("the memo holds %d texts, want %d", got, tt.wantLen)
			}
		})
	}
}

// TestMemoConcurrentUse runs goroutines asking for overlapping texts, a
// bound small enough that the memo starts anew while they run; run with
// -race. Every answer is the function's.
func TestMemoConcurrentUse(t *testing.T) {
	var calls atomic.Int64
	m := New(func(s string) []string { calls.Add(1); return words(s) }, 200)
	texts := make([]string, 40)
	for i := range texts {
		texts[i] = fmt.Sprintf("text %d of the fleet", i%25)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for round := range 50 {
				text := texts[(g*7+round)%len(texts)]
				var got []string
				if round%2 == 0 {
					got = m.Get(text)
				} else {
					got = m.GetBytes([]byte(text))
				}
				if diff := cmp.Diff(words(text), got); diff != "" {
					t.Errorf("goroutine %d, %q (-want +got):\n%s", g, text, diff)
				}
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n >= 8*50 {
		t.Errorf("the function ran %d times for %d questions: the memo kept nothing", n, 8*50)
	}
}
