// Package eval evaluates nodegen modules: it loads them, builds their
// option tree and computes the value of an option when something asks for
// it, as the NixOS module system does (lib/modules.nix evalModules).
//
// # The pipeline
//
// An evaluation goes through these phases, each in its own file; the
// first three each make a value the next takes:
//
//  1. Load (load.go, paths.go, dynamic.go): read and parse the module
//     files, the library's (embedded) and the user's, into the parsed form
//     the later phases read (package syntax, internal/syntax); inline
//     modules (a test's run blocks) come parsed.
//  2. Collect modules (load.go, imports.go): follow imports, in module
//     order (computed imports are evaluated over the module's locals,
//     never config), and register the submodule types and formats, which
//     are global to an evaluation. Loading and collecting make the
//     loaded value: the modules, the parsed files and the registries.
//  3. Declare (package declare, internal/declare, which declaring.go
//     calls): build the option tree from the option blocks (with those
//     dynamic blocks make from a table, read over the module's locals as
//     computed imports are), the renames and removals, with each option's
//     type (sibling package options parses type expressions): the
//     declared value, which depends on the declaring modules alone and
//     which evaluations never change. Declaring is a function of the
//     loaded modules and of a narrow evaluator for the constants, locals
//     and iterators it reads (declare.Consts, which declaring.go
//     implements); it imports nothing of this package, so that the import
//     graph keeps it from the runtime (TestDeclaringDoesNotEvaluate). The
//     types that name a submodule or path are bound to each evaluation
//     where they merge. A Fleet (fleet.go) shares one declared value
//     between the evaluations whose declaring modules are the same, the
//     hosts of nodegen build, which run in parallel. An evaluation that
//     says what its caller reads (Config.Reads: a profile's build) first
//     leaves out the library modules nothing it keeps reads or defines
//     and that do nothing at their defaults (unused.go), so that one
//     `nodegen eval` declares what its host uses.
//  4. Define (define.go): make the top-level instance of the declared tree
//     and split every config block's definition over it, pushing mkIf,
//     mkMerge and mkOverride down through namespaces (property.PushDown)
//     without evaluating anything; a definition whose shape needs
//     evaluating waits at its namespace. An evaluation of a declared tree
//     that others share leaves out the library modules it knows to be
//     inert (inert.go): those whose every definition is under a false
//     `when` and whose options nothing defines, which define nothing and
//     whose checks pass, so that a host's cost follows what it uses.
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
// # Vocabulary
//
// The words this package's names and comments use, as CUE's adt and the
// NixOS manual use theirs:
//
//   - module: one HCL file of option, config, import and type blocks
//     (a library module, built in, or a user's file); *syntax.Module.
//   - declaration: an option block, with its type, default and
//     documentation; a module declares options, and several modules may
//     declare parts of one (its submodule options); *syntax.OptionDecl
//     as parsed, *declare.Option once declared.
//   - definition: a value a config block gives an option, with its
//     priority and condition (mkIf, mkOverride); an option's value is its
//     definitions merged; defn, and options.Def once merged.
//   - declared tree: the options every declaration made, by path, with
//     their types: the declared value, which evaluations share and never
//     change (package declare, Fleet); *declare.Node is one of its
//     nodes.
//   - instance: the declared tree (or a submodule's) made for one
//     evaluation, holding its definitions and the state of each option;
//     the top-level instance and one per submodule value (attrsOf
//     (submodule), ...); *instance.
//   - priority: a definition's mkOverride level (mkDefault 1000, plain
//     100, mkForce 50); the definitions of the lowest number win, as in
//     NixOS.
//   - thunk: an expression evaluated the first time its value is needed,
//     and once; node state: an option's place in forcing (not yet, being
//     forced, done).
//   - phase value: what a phase makes and the next takes (loaded,
//     declare.Declared); the Evaluator holds them and what evaluating
//     needs.
//   - arena: the slabs the many small values of an evaluation are made
//     from (arena.go, over package slabs).
//   - origin: whether a range is in the library or a user's file
//     (origins.go).
//
// # The file map
//
// Every file of the package, by the phase it belongs to (a test checks that
// each .go file is named here):
//
//   - The evaluator and its phases: doc.go; eval.go (New, the Evaluator,
//     Config, Stats); arena.go (its arena, over package slabs); limits.go
//     (Limits, the charges while forcing).
//   - 1-2. Load and collect: load.go, paths.go, imports.go, dynamic.go
//     (reading dynamic blocks).
//   - 3. Declare: declaring.go (what the evaluation gives declaring, and
//     takes of the declared value), fleet.go (sharing the declared tree),
//     unused.go (the library modules left out before declaring),
//     unusedfacts.go (what the parse cache keeps of them, so that a run
//     does not decode them).
//   - 4. Define: define.go; inert.go (the library modules an evaluation
//     leaves out).
//   - 5. Force: force.go; expressions: expressions.go, scopes.go,
//     traversal.go, calls.go, templates.go, forexpr.go, objects.go,
//     operators.go, structure.go (the structural functions: merge,
//     mkIf, ... written as calls), higherorder.go (map, filter, fold and
//     the other functions taking a function).
//   - 6. Check: checks.go.
//   - 7. Query and render: query.go, explain.go, explainkey.go (Explain of
//     one key of an attribute set), definitions.go (an option's
//     definitions, for the language server and errors), origins.go,
//     optionsref.go, modfiles.go, lsp_support.go (what the language server
//     reads of an evaluation).
//   - Fleets: hosts.go (hosts.NAME.config reads across a fleet).
//   - The language extensions, beyond the NixOS module system, each declared
//     by its own block and decoded while collecting: functions.go
//     (function blocks: modules' own functions), namedtypes.go (type
//     blocks: named types), formats.go (format blocks: file formats and
//     their types), freeform.go (freeform submodules: definitions of
//     undeclared keys).
//
// The internal packages, by the phases that make and read them (a test
// checks that each of their .go files is named here too):
//
//   - internal/syntax: the parsed modules, which loading (1-2) makes and
//     every later phase reads: module.go (the module and its blocks, the
//     collected Modules), source.go (where a module file is), binding.go
//     (variables bound around expressions), read.go (the read helpers
//     over expressions that loading and declaring share). It depends on
//     neither eval nor declare.
//   - internal/declare: declaring (3): declare.go (Declare, the declared
//     value, its nodes and options, renames and removals), dynamic.go
//     (expanding dynamic blocks), types.go (option types, named types,
//     formats, freeform types). It depends on syntax, not on eval.
//   - internal/slabs: slabs.go, the slabs the arena and declaring take
//     their small values from.
//
// The lazy values and properties this package passes around are those of
// sibling package property; the functions modules call are lib's.
package eval
