package activate

import (
	"path"
	"strconv"
)

// Paths below the root, slash-separated and relative to it.
const (
	stateDir       = "var/lib/nodegen"
	generationsDir = stateDir + "/generations"
	currentLink    = stateDir + "/current"
	stateFile      = stateDir + "/state.json"
	journalFile    = stateDir + "/journal.json"
	backupDir      = stateDir + "/backups"
	takenOverDir   = stateDir + "/taken-over"
	lockFile       = stateDir + "/lock"
	staticLink     = "etc/static"
)

// generationDir is the directory of generation n, relative to the root.
func generationDir(n int) string { return path.Join(generationsDir, strconv.Itoa(n)) }

// staticTarget is where etc/static points for generation n, as seen from
// inside the root.
func staticTarget(n int) string { return "/" + generationDir(n) + "/etc" }

// backupPath is where the admin's file at p ("etc/...") is kept while
// nodegen manages p.
func backupPath(p string) string { return path.Join(backupDir, p) }
