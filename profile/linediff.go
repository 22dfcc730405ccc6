package profile

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxTextSize is the largest file Diff shows a line diff of.
const maxTextSize = 4 << 20

// maxEditDistance bounds the work of the line diff: past this many inserted
// and deleted lines the changed region is shown as deleted and inserted
// whole.
const maxEditDistance = 2000

// contextLines is the number of unchanged lines around each change.
const contextLines = 3

// isText reports whether content is shown as text: valid UTF-8 without NUL
// bytes, and not too large.
func isText(content []byte) bool {
	return len(content) <= maxTextSize && utf8.Valid(content) && bytes.IndexByte(content, 0) < 0
}

// splitLines splits text into lines that keep their "\n"; a last line
// without one stays without.
func splitLines(text []byte) []string {
	s := string(text)
	var lines []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// diffOp is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
type diffOp struct {
	kind byte
	line string
}

// editScript returns the edits that turn a into b: the common prefix and
// suffix, and Myers's shortest edit script between them.
func editScript(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// myers computes a shortest edit script with Myers's O(ND) algorithm,
// deletions before insertions within a change; past maxEditDistance it
// gives up and replaces a with b whole.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	replace := func() []diffOp {
		ops := make([]diffOp, 0, n+m)
		for _, l := range a {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{'+', l})
		}
		return ops
	}
	if n == 0 || m == 0 {
		return replace()
	}
	max := n + m
	off := max + 1
	v := make([]int, 2*max+3)
	// trace[d] holds v[-d..d] as it was before step d.
	var trace [][]int
	for d := 0; d <= max; d++ {
		if d > maxEditDistance {
			return replace()
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insertion
			} else {
				x = v[off+k-1] + 1 // right: deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, d)
			}
		}
	}
	return replace()
}

// backtrack walks the trace back from (len(a), len(b)) at distance d.
func backtrack(a, b []string, trace [][]int, d int) []diffOp {
	x, y := len(a), len(b)
	var rev []diffOp
	for ; d > 0; d-- {
		prev := trace[d] // v[-d..d] before step d
		at := func(k int) int { return prev[k+d] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			rev = append(rev, diffOp{' ', a[x-1]})
			x--
			y--
		}
		if x == px {
			rev = append(rev, diffOp{'+', b[y-1]})
			y--
		} else {
			rev = append(rev, diffOp{'-', a[x-1]})
			x--
		}
	}
	for x > 0 && y > 0 {
		rev = append(rev, diffOp{' ', a[x-1]})
		x--
		y--
	}
	ops := make([]diffOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}

// unifiedDiff returns a unified diff of two texts with contextLines of
// context, labelled oldName and newName, or "" when they are equal.
func unifiedDiff(oldName, newName string, oldText, newText []byte) string {
	ops := editScript(splitLines(oldText), splitLines(newText))
	changed := false
	for _, op := range ops {
		if op.kind != ' ' {
			changed = true
			break
		}
	}
	if !changed {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)

	// Line numbers (1-based) of each op in the old and new text.
	oldNo := make([]int, len(ops)+1)
	newNo := make([]int, len(ops)+1)
	o, n := 1, 1
	for i, op := range ops {
		oldNo[i], newNo[i] = o, n
		if op.kind != '+' {
			o++
		}
		if op.kind != '-' {
			n++
		}
	}
	oldNo[len(ops)], newNo[len(ops)] = o, n

	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from contextLines before this change to contextLines
		// after the last change that is at most 2*contextLines away.
		start := max(i-contextLines, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*contextLines {
				break
			}
		}
		stop := min(end+contextLines, len(ops))
		oldLen, newLen := 0, 0
		for _, op := range ops[start:stop] {
			if op.kind != '+' {
				oldLen++
			}
			if op.kind != '-' {
				newLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldNo[start], oldLen), hunkRange(newNo[start], newLen))
		for _, op := range ops[start:stop] {
			out.WriteByte(op.kind)
			out.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

// hunkRange formats a hunk's range the way diff -u does.
func hunkRange(start, length int) string {
	switch length {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, length)
}
