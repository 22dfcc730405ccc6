// Package modtest runs the tests of modules: `*.test.hcl` files, in the
// shape of `terraform test` (language.md section 10).
//
// # Test files
//
// A test file holds `run "NAME"` blocks. Each run is evaluated as one more
// module next to the built-in library: its `imports` (relative to the test
// file), its `disabled_modules` and its own `config` blocks. Then either
// every `assert { condition, error_message }` of the run is checked against
// the result (all of them, reported together), or, with
// `expect_error = "substring"`, evaluation must fail with an error whose
// summary or detail contains the substring. An assert's condition and
// error_message can call the library's functions and file(), which reads a
// file relative to the test file, as a module's file() does.
//
//	run "worker has the gpu taint" {
//	  imports = ["./host.hcl"]
//	  config "services.kubernetes.kubelet" { unschedulable = true }
//	  assert {
//	    condition     = config.services.kubernetes.kubelet.taints.unschedulable.effect == "NoSchedule"
//	    error_message = "unschedulable must add a NoSchedule taint"
//	  }
//	}
//
// A run is evaluated completely, with the assertions of the modules
// (eval.Evaluator.Check), as `nodegen eval` does before it writes a
// profile; a failed module assertion fails the run unless expect_error
// matches it. An assert that fails reports its error_message, its location
// and the values of the configuration paths its condition reads.
//
// # Layout
//
// [Find] lists the test files below some paths, [ParseFile] reads one,
// [Runner] evaluates its runs and [Report] writes the results as text or
// JSON. The evaluation itself is package eval's (sibling package); the
// command line is cmd/nodegen's `nodegen test`.
package modtest
