// Package lib is the HCL function library of nodegen: what module
// expressions may call. It holds the go-cty stdlib functions Terraform
// users know, under their Terraform names, plus the functions that nodegen
// adds (throw, yamlencode, tomlencode, iniencode, the systemd unit
// renderers). Functions returns that set; FileFunc makes the file
// function, which is confined to one module's directory and so is added
// per module by the evaluator.
//
// The functions expect plain values: force an argument completely
// (property.Deep) before a call, and call through Call, which converts the
// arguments to the parameter types as HCL does.
//
// Sibling packages: property holds the lazy values and the definition
// properties (mkIf & co.) that the evaluator passes around; eval evaluates
// modules and calls these functions.
package lib
