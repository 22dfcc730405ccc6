// Package profilecheck holds the rules about a built profile: what
// systemd and the programs that read a profile's files would refuse. It
// is the one home of those rules, so that `nodegen eval` and `nodegen
// build`, which check a profile as it is built (package evalprofile), and
// `nodegen switch`, which checks it again on the target before anything
// changes (package activate), refuse the same profiles with the same
// messages:
//
//   - unit names systemd accepts (UnitNames, UnitPathProblem);
//   - sysusers.d lines systemd-sysusers accepts (Sysusers);
//   - tmpfiles.d lines systemd-tmpfiles accepts, and, on the target, that
//     their owners exist or are created (Tmpfiles);
//   - the checks of generated files by the programs that read them
//     (ProgramCheck, Programs), which the --checks mode (Mode) only
//     decides the meaning of when their program is missing;
//   - the executables check: every executable the units run and the
//     scripts call is provided (Executables), and the programs left to
//     the image (ImagePrograms), which switch finds on the target;
//   - the startup check: every unit can reach its target, its wait loops
//     waiting for what an enabled unit provides and the units it requires
//     existing (Startup, with what the evaluation says of the units:
//     Facts).
//
// The executables and startup checks find warnings (the profile is
// written, and its manifest keeps them); the other rules, errors.
// Each rule returns Problems, each tied to the file it is about and to the
// option that made the file (Problem.Option), which the caller locates:
// evalprofile at the definitions of that option (file:line:col), activate
// at the file of the profile.
//
// docs/profile-checks.md lists every rule, when it runs and why.
//
// The package knows neither the evaluator nor the profile format: it
// depends on the standard library, the shared rules of generated fields
// (internal/wordrule), the unit-file reader (internal/unitfile) and a
// shell parser alone, and the profile format (package profile) records
// its ProgramChecks in the manifest and reads scripts through it
// (ScriptExecutables).
package profilecheck
