// Package regexcache compiles regular expressions once a process.
//
// The library's functions regex, regexall and replace take their pattern
// as a string, and a fleet's hosts (or one host's services) call them with
// the same few patterns again and again: compiling each time cost a
// generated worker's evaluation some 7% of the memory it allocated. A
// *regexp.Regexp is safe for concurrent use, so every evaluation of a
// process shares one.
package regexcache

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// Max is how many patterns a process keeps. Patterns past it (computed
// ones in a long-running language server, say) are compiled at each call,
// as without a cache: the cache never grows without bound.
const Max = 4096

var (
	compiled sync.Map // pattern string -> *regexp.Regexp
	kept     atomic.Int64
)

// Compile returns regexp.Compile(pattern), compiled once a process while
// fewer than Max patterns are kept. A pattern that does not compile is
// not kept: its error is made anew.
func Compile(pattern string) (*regexp.Regexp, error) {
	if re, ok := compiled.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil || kept.Load() >= Max {
		return re, err
	}
	if actual, loaded := compiled.LoadOrStore(pattern, re); loaded {
		return actual.(*regexp.Regexp), nil
	}
	kept.Add(1)
	return re, nil
}
