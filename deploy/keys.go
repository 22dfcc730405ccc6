package deploy

import (
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nodegen/nodegen/internal/keyset"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/internal/safefile"
	"github.com/nodegen/nodegen/internal/wordrule"
	"github.com/nodegen/nodegen/lib"
)

// MaxKeySize bounds a key: what the deployer reads of a keyFile, and what
// the host reads from the deployer.
const MaxKeySize = 1 << 20

// keyToSend is a key read on the deploying machine, to be sent.
type keyToSend struct {
	Key
	option string // its attribute name in deployment.keys
	data   []byte
}

// readKeys reads the content of every key, in the order of their names:
// a keyFile must be a regular file of at most MaxKeySize bytes (never a
// device or a FIFO, which would make the deployer run out of memory or
// wait for ever).
func readKeys(keys map[string]Key) ([]keyToSend, error) {
	var out []keyToSend
	for _, name := range slices.Sorted(maps.Keys(keys)) {
		k := keys[name]
		var data []byte
		switch {
		case k.Text != nil:
			data = []byte(*k.Text)
		case k.KeyFile != nil:
			var err error
			data, err = regularfile.Read(os.DirFS(filepath.Dir(*k.KeyFile)), filepath.Base(*k.KeyFile), MaxKeySize)
			if err != nil {
				return nil, fmt.Errorf("deployment.keys.%s: keyFile %s: %v", name, *k.KeyFile, lib.FileErrorCause(err))
			}
		default:
			return nil, fmt.Errorf("deployment.keys.%s: neither text nor keyFile is set", name)
		}
		if len(data) > MaxKeySize {
			return nil, fmt.Errorf("deployment.keys.%s: it has %d bytes, more than %d", name, len(data), MaxKeySize)
		}
		out = append(out, keyToSend{Key: k, option: name, data: data})
	}
	return out, nil
}

// PutKey is the host's side of a key: it writes the content on r (at most
// MaxKeySize bytes) as k.DestDir/k.Name, owned by k.User and k.Group with
// mode k.Permissions, through package safefile: no component of DestDir
// may be a symbolic link, a missing one is created (DestDir itself owned by
// root, mode 0751), and the file is created under a temporary name, given
// its owner and mode while empty, filled and renamed into place, all
// through descriptors. Its name must be a file name, not a path.
func PutKey(k Key, r io.Reader) error {
	if p := wordrule.FileNameProblem(k.Name); p != "" {
		return fmt.Errorf("the key's name %s is refused: %s; the rule of a file name: %s", quoteShort(k.Name), p, fileNameRule())
	}
	if p := wordrule.PathWordProblem(k.DestDir); p != "" {
		return fmt.Errorf("the key's directory %s is refused: %s", quoteShort(k.DestDir), p)
	}
	mode, err := parseKeyMode(k.Permissions)
	if err != nil {
		return err
	}
	owner, err := lookupOwner(k.User, k.Group)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxKeySize+1))
	if err != nil {
		return fmt.Errorf("reading the key: %w", err)
	}
	if len(data) > MaxKeySize {
		return fmt.Errorf("the key has more than %d bytes", MaxKeySize)
	}
	d, err := safefile.MkdirAll(k.DestDir, 0o751)
	if err != nil {
		return fmt.Errorf("the key's directory: %w", err)
	}
	defer d.Close()
	return d.WriteFile(k.Name, data, owner, mode)
}

// fileNameRule is the rule of the fileName option type, for messages.
func fileNameRule() string {
	for _, r := range wordrule.Rules {
		if r.Name == "fileName" {
			return r.Rule
		}
	}
	return ""
}

// parseKeyMode reads a key's permissions: three or four octal digits, the
// permission bits alone.
func parseKeyMode(s string) (fs.FileMode, error) {
	m, err := strconv.ParseUint(s, 8, 32)
	if err != nil || len(s) < 3 || len(s) > 4 || m > 0o777 {
		return 0, fmt.Errorf("the key's mode %s is refused: want octal permission bits, as 0400", quoteShort(s))
	}
	return fs.FileMode(m), nil
}

// lookupOwner finds the user and group of a key on this host by name.
func lookupOwner(userName, groupName string) (safefile.Owner, error) {
	for _, n := range []string{userName, groupName} {
		if p := wordrule.UserNameProblem(n); p != "" {
			return safefile.Owner{}, fmt.Errorf("the key's owner %s is refused: %s", quoteShort(n), p)
		}
	}
	u, err := user.Lookup(userName)
	if err != nil {
		return safefile.Owner{}, fmt.Errorf("the key's user: %w", err)
	}
	g, err := user.LookupGroup(groupName)
	if err != nil {
		return safefile.Owner{}, fmt.Errorf("the key's group: %w", err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(g.Gid)
	if err1 != nil || err2 != nil {
		return safefile.Owner{}, fmt.Errorf("the key's owner %s:%s has no numeric ids here", userName, groupName)
	}
	return safefile.Owner{UID: uid, GID: gid}, nil
}

// receiveStagedKeyArgs is the command line (after the host's nodegen)
// that stages k there for the deploy attempt id, its content on stdin:
// nodegen receive --key --stage.
func receiveStagedKeyArgs(k Key, id string) string {
	return strings.Join([]string{"receive", "--key", shellQuote(k.Name), "--stage", shellQuote(id), "--user", shellQuote(k.User),
		"--group", shellQuote(k.Group), "--mode", shellQuote(k.Permissions), "--", shellQuote(k.DestDir)}, " ")
}

// StageKey is the host's side of a staged key: it reads the content on r
// (at most MaxKeySize bytes) and stages it with k in the stage directory
// dir (see keyset.Stage), for nodegen switch --keys. The owner is not
// looked up here: the new generation may create it (sysusers), and its
// activation resolves it.
func StageKey(dir string, k keyset.Key, r io.Reader) error {
	if err := k.Check(); err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxKeySize+1))
	if err != nil {
		return fmt.Errorf("reading the key: %w", err)
	}
	if len(data) > MaxKeySize {
		return fmt.Errorf("the key has more than %d bytes", MaxKeySize)
	}
	return keyset.Stage(dir, k, data)
}
