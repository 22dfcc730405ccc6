// Package options holds nodegen's option types and the merging of an
// option's definitions, after the NixOS module system (nixpkgs
// lib/types.nix, lib/modules.nix mergeDefinitions, lib/options.nix).
//
// # Paths
//
// Path is an option path, rendered and parsed in the dotted form of
// language.md: environment.etc."a/b.json".text.
//
// # Types
//
// Type (api.go) checks and merges definitions. ParseType reads the type
// expressions of option declarations (str, listOf(str), submodule.NAME,
// ...) into the types of this package: Bool, Int, Float, Number, Str,
// PathType, Port, IntBetween, Unsigned, Positive, Enum, StrMatching,
// NonEmptyStr, SingleLineStr, SeparatedString (lines, commas), ListOf,
// AttrsOf, NullOr, Either, OneOf, Submodule, Anything, Attrs, Uniq and
// Package. Types check and never convert. Each describes itself in NixOS's
// words ("list of string", "attribute set of (submodule)"). Submodule
// leaves the instance to an Instantiator, which the evaluator provides;
// MergeTypes merges two declarations of one submodule option.
//
// # Merging
//
// MergeDefinitions applies the properties of sibling package property
// (mkIf, mkMerge, mkOverride, mkOrder) to an option's definitions through
// property.Discharger, keeps those with the winning priority, sorts them by
// order and merges them with the option's type, reporting what became of
// each definition. PropertyError is the one message of an ill-formed
// mkIf or mkMerge, for the evaluator too.
//
// # Messages
//
// Errors are hcl.Diagnostics whose Summary holds the fixed phrase of
// language.md (`definition of option "a.b" is not of type "list of
// string"`, `conflicting definitions for option "a.b"`, `option "a.b" is
// defined multiple times`), whose Detail is full sentences, and whose
// Extra is a DiagExtra with an ErrorCode. ShowValue renders values for
// messages, DidYouMean finds a close name.
//
// The evaluator (sibling package eval) calls this package; this package
// knows nothing of modules or expressions beyond type expressions.
package options
