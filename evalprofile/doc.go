// Package evalprofile builds a host's profile from an evaluation: the
// environment.etc files (FromEvaluation), the assets and packages, the
// assertions' warnings, the executables and startup checks (Build), and
// the checks of generated files by the programs that read them
// (RunChecks).
//
// Every rule about the built profile is package profilecheck's, which
// nodegen switch applies too: FromEvaluation applies those that need no
// program (errors), Build the executables and startup checks (warnings),
// RunChecks the program checks, and each problem becomes a diagnostic
// located by one query of the definitions of the option that made the
// file (eval.Definitions, the user's first: problemDiag).
//
// It is the one place where the evaluator (package eval) meets the
// profile format (package profile): profile writes, reads and compares
// profiles and knows nothing of evaluation, so that the packages that
// install or render a profile (activate, ignition) do not depend on the
// evaluator.
package evalprofile
