package activate

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"

	"github.com/nodegen/nodegen/profilecheck"
)

// owners resolves user and group names to ids from the system's
// etc/passwd and etc/group (below the root, so that an image's own users
// count, not the host's).
type owners struct {
	users, groups map[string]int
	// declared are names a sysusers.d file of the target generation
	// creates; they may not exist yet when the switch is checked.
	declaredUsers, declaredGroups map[string]bool
}

// readOwners reads the root's user and group databases.
func (s *System) readOwners() *owners {
	o := &owners{users: map[string]int{}, groups: map[string]int{}, declaredUsers: map[string]bool{}, declaredGroups: map[string]bool{}}
	for _, db := range []struct {
		file string
		into map[string]int
	}{{"etc/passwd", o.users}, {"etc/group", o.groups}} {
		data, err := s.r.ReadFile(db.file)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Split(sc.Text(), ":")
			if len(f) < 3 || f[0] == "" {
				continue
			}
			if id, err := strconv.Atoi(f[2]); err == nil {
				if _, seen := db.into[f[0]]; !seen {
					db.into[f[0]] = id
				}
			}
		}
	}
	// root is root, even on a root without an etc/passwd.
	if _, ok := o.users["root"]; !ok {
		o.users["root"] = 0
	}
	if _, ok := o.groups["root"]; !ok {
		o.groups["root"] = 0
	}
	return o
}

// declare notes the users and groups a sysusers.d file creates
// (profilecheck.SysusersCreates).
func (o *owners) declare(conf []byte) {
	users, groups := profilecheck.SysusersCreates(conf)
	for _, u := range users {
		o.declaredUsers[u] = true
	}
	for _, g := range groups {
		o.declaredGroups[g] = true
	}
}

// uid and gid resolve a name or a number; ok is false when the name is
// unknown.
func (o *owners) uid(name string) (int, bool) { return lookup(o.users, name) }
func (o *owners) gid(name string) (int, bool) { return lookup(o.groups, name) }

func lookup(db map[string]int, name string) (int, bool) {
	if id, err := strconv.Atoi(name); err == nil && id >= 0 {
		return id, true
	}
	id, ok := db[name]
	return id, ok
}

// KnownUser and KnownGroup report whether a name exists or will be created
// by the target generation's sysusers.d.
func (o *owners) KnownUser(name string) bool {
	_, ok := o.uid(name)
	return ok || o.declaredUsers[name]
}

func (o *owners) KnownGroup(name string) bool {
	_, ok := o.gid(name)
	return ok || o.declaredGroups[name]
}
