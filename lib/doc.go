// Package lib is the HCL function library and the definition properties
// (mkIf & co.) of nodegen.
//
// The function library is what module expressions may call: the go-cty
// stdlib functions Terraform users know, under their Terraform names, plus
// the functions that nodegen adds (throw, yamlencode, tomlencode,
// iniencode). Functions returns that set; FileFunc makes the file function,
// which is confined to one module's directory and so is added per module by
// the evaluator.
//
// The definition properties are the values that mkIf, mkMerge, mkOverride
// and mkOrder produce (Property), and the lazy values the evaluator passes
// around (Lazy, Ref). The functions of the library expect plain values:
// force an argument completely (Deep) before a call, and call through Call,
// which converts the arguments to the parameter types as HCL does.
//
// Sibling packages: eval evaluates modules and calls these functions;
// options declares option types, which merge properties.
package lib
