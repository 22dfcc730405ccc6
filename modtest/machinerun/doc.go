// Package machinerun is the driver of machine tests: the runs of
// `*.test.hcl` files that set machines (modtest's Machine, Configuration
// and Step). For each run it
//
//   - evaluates every machine block as a host file is evaluated (its
//     imports, disabled_modules and config blocks, with the library),
//     plus what the driver adds as a cloud provider's network would: the
//     machine's host name (mkDefault) and networking.hosts naming every
//     machine of the run, and writes its profile, running the checks of
//     the files (sshd -t, ...); each configuration block a switch step
//     names is built the same way, its errors kept for that step;
//   - boots each machine with systemd as PID 1 in systemd-nspawn
//     (internal/machine) from the cached stock Debian root (a provider's
//     image: none of the profiles' packages in it), on a disk of its own (an
//     overlay of the root that survives a reboot step), attached to a
//     private bridge (10.89.0.0/24, in a network namespace of the run's
//     own, so parallel runs never collide) at 10.89.0.10, .11, ...;
//   - serves a package proxy on the bridge (internal/aptproxy at
//     10.89.0.1:3142, caching in a directory shared by runs, as a
//     provider's mirror; environment.packageProxy is mkDefault to it);
//   - copies the static nodegen executable and the profile in and runs
//     `nodegen switch` there, which installs the profile's packages
//     through the proxy, as on an operator's machine;
//   - runs the steps in order; the first that fails ends the run with a
//     diagnostic at the step, with the command's output and the last
//     journal lines of the machine;
//   - powers every machine off and removes its disk, also when the
//     driver's context is cancelled (Ctrl-C), unless Keep is set: then
//     the machines stay up, recorded in a state file, and a later run of
//     the same test switches them instead of booting.
package machinerun
