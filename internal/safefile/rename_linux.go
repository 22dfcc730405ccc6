package safefile

import "golang.org/x/sys/unix"

// renameat2 renames from in the directory fromDir to to in toDir, with
// flags (RENAME_NOREPLACE, RENAME_EXCHANGE).
func renameat2(fromDir int, from string, toDir int, to string, flags uint) error {
	return ignoringEINTR(func() error { return unix.Renameat2(fromDir, from, toDir, to, flags) })
}

const (
	renameNoReplace = unix.RENAME_NOREPLACE
	renameExchange  = unix.RENAME_EXCHANGE
)
