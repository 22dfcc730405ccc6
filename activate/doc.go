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
//	  backups/etc/...         files moved aside: by --backup, and stock
//	                          files taken over (see StockFile)
//	  taken-over/DATE[.N]/etc/... files replaced by switch --take-over
//	  assets/KEY/             a verified download, its members, verified.json
//	  lock                    taken by every command that changes anything
//	etc/static -> /var/lib/nodegen/generations/N/etc
//	etc/PATH -> /etc/static/PATH   a profile file with mode 0644, root:root
//	etc/PATH                 a copy, for a file with any other mode or owner
//	etc/PATH -> TARGET       a profile symlink, as it is
//
// An activation goes from the generation in state.json to another one (or
// to none, for Deactivate) in stages:
//
//  0. a switch copies the profile into a new generation first, and reads
//     only the copy from then on; its assets are downloaded (or verified in
//     the cache) and its packages installed before the final check, which
//     so sees the files they brought;
//  1. check: every path the target generation places, and every path the
//     current one managed, is inspected; a file the OS installer or a
//     package put there unchanged (a StockFile) is taken over with a
//     backup; any other path nodegen does not manage (an admin's file, an
//     edited conffile) or one changed since nodegen installed it is a
//     conflict, and all conflicts are reported before anything changes
//     (with Backup they are moved aside instead, and restored when nodegen
//     stops managing the path; TakeOver replaces named ones on purpose);
//     what a later stage would fail on is an *InvalidError (checkProfile:
//     modes, sysusers.d lines, tmpfiles.d owners, unit names, tools);
//  2. the journal is written: from, to, and the directories to be created;
//  3. units that are removed, or changed and stop-if-changed, are stopped
//     while their old files are still in place;
//  4. backups, systemd-sysusers, then /etc: etc/static flipped, every entry
//     placed (each one atomically, after its path is inspected again),
//     entries of the old generation removed (only when still nodegen's),
//     backups of paths no longer managed restored, empty directories that
//     nodegen created removed;
//  5. the current link and state.json (atomically, after a sync);
//  6. systemd-tmpfiles --create, daemon-reload, then reload, restart and
//     start, following NixOS's switch-to-configuration (see UnitPlan);
//  7. the journal is removed, and units that are not up are reported
//     (with those failed before and failed still).
//
// A stage that fails (a *StepError, not a crash) is rolled back at once to
// the generation active before, the units it stopped started again, and
// the activation ends with a *FailedError recorded in state.json. When
// even that fails, the journal stays marked failed: it is never completed
// again, and the next command plans its own activation around it.
//
// Every stage is idempotent, so a crash at any point is healed by running
// the same activation again: the next command that takes the lock finds the
// journal and completes the interrupted activation before doing its own,
// after removing the temporary files a killed nodegen left.
// Under a root other than "/" (or where systemd is not running), units are
// not acted on, only planned and reported.
package activate
