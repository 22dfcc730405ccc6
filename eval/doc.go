// Package eval evaluates nodegen modules: it loads them, builds their
// option tree and computes the value of an option when something asks for
// it, as the NixOS module system does (lib/modules.nix evalModules).
//
// # The pipeline
//
// An evaluation goes through these phases, each in its own file; the
// first three each make a value the next takes:
//
//  1. Load (load.go, paths.go): read and parse the module files, the
//     library's (embedded) and the user's; inline modules (a test's run
//     blocks) come parsed.
//  2. Collect modules (load.go, imports.go): follow imports, in module
//     order (computed imports are evaluated over the module's locals,
//     never config), and register the submodule types and formats, which
//     are global to an evaluation. Loading and collecting make the
//     loaded value: the modules, the parsed files and the registries.
//  3. Declare (declare.go): build the option tree from the option blocks
//     (with those dynamic blocks make from a table, dynamic.go, read over
//     the module's locals as computed imports are), the renames and
//     removals, with each option's type (sibling package options parses
//     type expressions): the declared value, which depends on the
//     declaring modules alone and which evaluations never change. The
//     types that name a submodule or path are bound to each evaluation
//     where they merge. A Fleet (fleet.go) shares one declared value
//     between the evaluations whose declaring modules are the same, the
//     hosts of nodegen build, which run in parallel.
//  4. Define (define.go): make the top-level instance of the declared tree
//     and split every config block's definition over it, pushing mkIf,
//     mkMerge and mkOverride down through namespaces (property.PushDown)
//     without evaluating anything; a definition whose shape needs
//     evaluating waits at its namespace.
//
// New runs these four phases and evaluates nothing. The Evaluator then
// holds what evaluating needs: the instances, the state of every node,
// the thunks, the stacks, the limits and statistics. Then:
//
//  5. Force on demand (force.go, and for expressions expressions.go,
//     which dispatches to scopes.go, traversal.go, calls.go, templates.go,
//     forexpr.go, objects.go and operators.go): an option is merged
//     (options.MergeDefinitions) the first time something reads it, and an
//     expression is evaluated (a thunk) the first time its value is
//     needed; reading an option that is being computed is an infinite
//     recursion, reported with the whole chain. Submodule instances are
//     made when first read (define.go).
//  6. Check (checks.go): Check and Assertions evaluate the assertions and
//     warnings, and the definitions of renamed and removed options.
//  7. Query and render (query.go, explain.go, optionsref.go, modfiles.go):
//     Get, Config and EvalExpr read values; Explain tells where an
//     option's value comes from (`nodegen option`); Declarations lists the
//     options for documentation; ReadModuleFile reads a file next to a
//     module for the profile, through the one confined reader of module
//     files that file() uses too (moduleFiles), which fails rather than
//     read outside the module's directory. The type path resolves a path
//     written relative to a module the same way (ResolvePath), and file()
//     in any module reads such a value through the module that wrote it.
//
// Hosts (hosts.go) evaluates the hosts of a fleet together: an
// expression reads another host's option as hosts.NAME.config.PATH, which
// forces that option in a view of the other host (an Evaluator of its
// own, sharing the declared tree through the Fleet), made on demand and
// kept among a few; the values read are kept by host and path, and a read
// that depends on itself through other hosts is a cycle, reported at each
// read that forms it. Assertions note what they read of other hosts.
//
// Limits (limits.go) bound every phase: the size and number of the files
// loaded, and while forcing, the evaluation chain's depth, the size of
// each value made, the bytes of values made in all and the time, so that
// any input ends in a located error (`value too large`, `evaluation too
// deep`) rather than exhausting the machine.
//
// The lazy values and properties this package passes around are those of
// sibling package property; the functions modules call are lib's.
package eval
