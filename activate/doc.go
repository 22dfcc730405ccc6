// Package activate installs nodegen profiles on a system: generations,
// /etc, and the systemd units that changed.
//
// Everything lives below a root directory, "/" on a live machine or any
// directory tree for image builders and tests:
//
//	var/lib/nodegen/
//	  generations/N/          an immutable copy of a profile (etc/, manifest)
//	                          and generation.json (number, date, host, hash)
//	  current -> generations/N
//	  state.json              what nodegen manages now (written last)
//	  journal.json            an activation under way (removed when done)
//	  backups/etc/...         admin files moved aside by --backup
//	  lock                    taken by every command that changes anything
//	etc/static -> /var/lib/nodegen/generations/N/etc
//	etc/PATH -> /etc/static/PATH   a profile file with mode 0644, root:root
//	etc/PATH                 a copy, for a file with any other mode or owner
//	etc/PATH -> TARGET       a profile symlink, as it is
//
// An activation goes from the generation in state.json to another one (or
// to none, for Deactivate) in stages:
//
//  1. check: every path the target generation places, and every path the
//     current one managed, is inspected; a path nodegen does not manage (an
//     admin's file) or one changed since nodegen installed it is a
//     conflict, and all conflicts are reported before anything changes
//     (with Backup they are moved aside instead, and restored when nodegen
//     stops managing the path); the assets and packages are provided;
//     then, for a new profile, every check of its files by the programs
//     that read them (sshd -t, nft -c, ...: profile.ProgramCheck) runs on
//     the profile's copy, and one that fails or cannot run is a
//     *CheckError;
//  2. the journal is written: from, to, and the directories to be created;
//  3. units that are removed, or changed and stop-if-changed, are stopped
//     while their old files are still in place;
//  4. backups, systemd-sysusers, then /etc: etc/static flipped, every entry
//     placed (each one atomically), entries of the old generation removed,
//     backups of paths no longer managed restored, empty directories that
//     nodegen created removed;
//  5. the current link and state.json (atomically, after a sync);
//  6. systemd-tmpfiles --create, daemon-reload, then reload, restart and
//     start, following NixOS's switch-to-configuration (see UnitPlan);
//  7. the journal is removed, and units that failed are reported.
//
// Every stage is idempotent, so a crash at any point is healed by running
// the same activation again: the next command that takes the lock finds the
// journal and completes the interrupted activation before doing its own.
// Under a root other than "/" (or where systemd is not running), units are
// not acted on, only planned and reported.
package activate
