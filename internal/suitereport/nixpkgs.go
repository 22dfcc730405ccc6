package suitereport

import "testing"

// NixpkgsLib returns nixpkgs' lib directory (the one holding default.nix
// and modules.nix), for the suites that run NixOS's module system with
// nix-instantiate: $NODEGEN_NIXPKGS_LIB, else nixpkgs-lib/lib in
// ReferenceDir. Without it, t stops as Skip says.
func NixpkgsLib(t testing.TB, suite string) string {
	t.Helper()
	return Reference(t, suite, "NODEGEN_NIXPKGS_LIB", "nixpkgs-lib/lib")
}

// NixOS returns a snapshot of nixpkgs' nixos directory (lib/ and the
// modules the byte-for-byte comparisons run): $NODEGEN_NIXOS, else
// nixpkgs-nixos in ReferenceDir. Without it, t stops as Skip says.
func NixOS(t testing.TB, suite string) string {
	t.Helper()
	return Reference(t, suite, "NODEGEN_NIXOS", "nixpkgs-nixos")
}
