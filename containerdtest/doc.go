// Package containerdtest tests the services.containerd library module
// (modules/virtualisation/containerd.hcl): every fixtures/containerd-* config.toml is loaded
// by the real containerd (`containerd --config FILE config dump`) and the
// settings the fixture set are read back from the dump; option-tree tests
// through the eval package check merging across modules, priorities, the
// version check and the variants of the seed (kops' nodeup
// ContainerdBuilder). The golden profiles themselves are compared by the
// fixtures package.
package containerdtest
