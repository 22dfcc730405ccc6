// Package property is the property engine of nodegen: the lazy values the
// evaluator passes around, the references to configuration namespaces, and
// the definition properties of the NixOS module system (mkIf, mkMerge,
// mkOverride and its short forms, mkOrder and its short forms).
//
// # Lazy values and references
//
// A Lazy is a thunk, forced once and memoised; a Ref is a lazy view of a
// configuration namespace. Both travel inside cty values as capsules
// (LazyVal, RefVal). Shallow forces a value to its top, Deep completely.
//
// # Properties
//
// Forms is the one table of the special forms: the name a module calls,
// the Property it makes, and its arguments. Discharger is the one function
// that takes a definition apart: it expands mkMerge, decides or pushes down
// mkIf and says what becomes of each part of the definition (a Part: won
// at a priority, disabled by a false condition and which, or waiting to be
// forced; Override then marks the parts that lose on priority), with the
// same Problem for the same ill-formed property whoever asks: merging an
// option (sibling package options, which renders problems with
// options.PropertyErrors), splitting a definition over a namespace,
// options.X.isDefined and `nodegen option` (package eval).
//
// This package depends on go-cty and hcl only; lib, options and eval build
// on it.
package property
