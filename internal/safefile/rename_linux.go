package safefile

import "golang.org/x/sys/unix"

// renameat2 renames within dir with flags (RENAME_NOREPLACE,
// RENAME_EXCHANGE).
func renameat2(dir int, from, to string, flags uint) error {
	return ignoringEINTR(func() error { return unix.Renameat2(dir, from, dir, to, flags) })
}

const (
	renameNoReplace = unix.RENAME_NOREPLACE
	renameExchange  = unix.RENAME_EXCHANGE
)
