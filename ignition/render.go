package ignition

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/coreos/ignition/v2/config/v3_4/types"
	translate35 "github.com/coreos/ignition/v2/config/v3_5/translate"
	"github.com/vincent-petithory/dataurl"

	"github.com/nodegen/nodegen/profile"
)

// Versions lists the config versions Render writes, oldest first: 3.4.0,
// which Flatcar reads, and 3.5.0, which Fedora CoreOS reads.
var Versions = []string{"3.4.0", "3.5.0"}

// DefaultVersion is the version Render writes when none is asked for.
const DefaultVersion = "3.4.0"

// Config is a rendered Ignition config.
type Config struct {
	// Version is the config's spec version, one of Versions.
	Version string
	// JSON is the config: indented, with a trailing newline.
	JSON []byte
	// Warnings say what the config leaves out of the profile, or what
	// means nothing under Ignition, each naming the entry and the option
	// it comes from. Sorted, each once.
	Warnings []string
}

// unitDir is where units live, below /etc.
const unitDir = "systemd/system/"

// origin is the profile entry a part of the config comes from.
type origin struct {
	target string // below etc/, with ":LINE" for a line of a sysusers.d file
	option string
}

func (o origin) String() string {
	if o.target == "" {
		return o.option
	}
	if o.option == "" {
		return "etc/" + o.target
	}
	return fmt.Sprintf("etc/%s (from %s)", o.target, o.option)
}

// renderer builds one config.
type renderer struct {
	cfg types.Config
	// origins maps a config path ("storage.files.3", "systemd.units.2.dropins.0")
	// to the entry it comes from.
	origins  map[string]origin
	warnings []string
}

func (r *renderer) warn(o origin, format string, args ...any) {
	r.warnings = append(r.warnings, o.String()+": "+fmt.Sprintf(format, args...))
}

// Render renders a profile's entries as an Ignition config of the given
// version (one of Versions). The entries are checked as profile.Write
// checks them; the config is validated by the ignition module before it is
// returned, and an invalid one is an *InvalidError.
func Render(entries []profile.Entry, version string) (Config, error) {
	return RenderProfile(profile.Profile{Entries: entries}, version)
}

// RenderProfile is Render for a whole profile: its entries, and its
// binaries. An asset that is a program (a download installed as it is)
// becomes a file that Ignition downloads from the asset's URL and checks
// against its hash; what Ignition cannot do is a warning that says it was
// left out: unpacking an archive asset, installing a package.
func RenderProfile(p profile.Profile, version string) (Config, error) {
	entries := p.Entries
	if !slices.Contains(Versions, version) {
		return Config{}, fmt.Errorf("unsupported Ignition config version %q: want one of %s", version, strings.Join(Versions, ", "))
	}
	entries, err := profile.Validate(entries)
	if err != nil {
		return Config{}, err
	}
	r := &renderer{origins: map[string]origin{}}
	r.cfg.Ignition.Version = Versions[0]
	users, groups := r.passwd(entries)
	r.storage(entries)
	r.checkOwners(entries, users, groups)
	r.binaries(p.Assets, p.Packages)

	var v any = r.cfg
	if version == "3.5.0" {
		v = translate35.Translate(r.cfg)
	}
	out, err := encode(v)
	if err != nil {
		return Config{}, err
	}
	warns, err := r.validate(out, version)
	if err != nil {
		return Config{}, err
	}
	r.warnings = append(r.warnings, warns...)
	sort.Strings(r.warnings)
	return Config{Version: version, JSON: out, Warnings: slices.Compact(r.warnings)}, nil
}

// storage fills in storage and systemd from the entries, sorted by target.
func (r *renderer) storage(entries []profile.Entry) {
	units := map[string]*types.Unit{}
	unitOrigins := map[string]origin{}
	dropinOrigins := map[string]origin{} // unit + "/" + drop-in
	unit := func(name string, o origin) *types.Unit {
		if u, ok := units[name]; ok {
			return u
		}
		units[name] = &types.Unit{Name: name}
		unitOrigins[name] = o
		return units[name]
	}
	wanted := map[string][]profile.Entry{} // unit -> its .wants links
	var plain []profile.Entry
	dirs := map[string]origin{}
	for _, e := range entries {
		o := origin{target: e.Target, option: e.Option}
		for d := path.Dir(e.Target); d != "."; d = path.Dir(d) {
			if _, ok := dirs[d]; !ok {
				dirs[d] = o
			}
		}
		kind, name := classify(e)
		switch kind {
		case unitMask:
			unit(name, o).Mask = ptr(true)
		case unitFile:
			u := unit(name, o)
			u.Contents = ptr(string(e.Content))
			unitOrigins[name] = o
			r.checkSwitchSettings(*u.Contents, o)
		case unitDropin:
			u := unit(name, o)
			dropin := path.Base(e.Target)
			u.Dropins = append(u.Dropins, types.Dropin{Name: dropin, Contents: ptr(string(e.Content))})
			dropinOrigins[name+"/"+dropin] = o
		case wantsLink:
			wanted[name] = append(wanted[name], e)
		default:
			plain = append(plain, e)
		}
	}
	for name, links := range wanted {
		if u := units[name]; u != nil && u.Contents != nil && installMakes(name, *u.Contents, links) {
			u.Enabled = ptr(true)
			continue
		}
		plain = append(plain, links...)
	}
	sort.Slice(plain, func(i, j int) bool { return plain[i].Target < plain[j].Target })

	st := &r.cfg.Storage
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		r.origins[fmt.Sprintf("storage.directories.%d", len(st.Directories))] = dirs[d]
		st.Directories = append(st.Directories, types.Directory{
			Node:               types.Node{Path: "/etc/" + d, User: types.NodeUser{Name: ptr("root")}, Group: types.NodeGroup{Name: ptr("root")}},
			DirectoryEmbedded1: types.DirectoryEmbedded1{Mode: ptr(0o755)},
		})
	}
	for _, e := range plain {
		o := origin{target: e.Target, option: e.Option}
		node := types.Node{Path: "/etc/" + e.Target, Overwrite: ptr(true)}
		if e.Mode == profile.TypeSymlink {
			r.origins[fmt.Sprintf("storage.links.%d", len(st.Links))] = o
			st.Links = append(st.Links, types.Link{Node: node, LinkEmbedded1: types.LinkEmbedded1{Target: ptr(e.Link)}})
			continue
		}
		mode, _ := strconv.ParseUint(e.Mode, 8, 32)
		node.User.Name, node.Group.Name = ptr(e.User), ptr(e.Group)
		source, compression := dataURL(e.Content)
		r.origins[fmt.Sprintf("storage.files.%d", len(st.Files))] = o
		st.Files = append(st.Files, types.File{Node: node, FileEmbedded1: types.FileEmbedded1{
			Mode:     ptr(int(mode)),
			Contents: types.Resource{Source: &source, Compression: compression},
		}})
	}
	for i, name := range slices.Sorted(maps.Keys(units)) {
		u := units[name]
		sort.Slice(u.Dropins, func(i, j int) bool { return u.Dropins[i].Name < u.Dropins[j].Name })
		r.origins[fmt.Sprintf("systemd.units.%d", i)] = unitOrigins[name]
		for j, d := range u.Dropins {
			r.origins[fmt.Sprintf("systemd.units.%d.dropins.%d", i, j)] = dropinOrigins[name+"/"+d.Name]
		}
		r.cfg.Systemd.Units = append(r.cfg.Systemd.Units, *u)
	}
}

// binaries adds the profile's program assets as remote files, and warns
// about the assets and packages Ignition cannot install.
func (r *renderer) binaries(assets []profile.Asset, packages []profile.Package) {
	st := &r.cfg.Storage
	for _, a := range assets {
		o := origin{target: "", option: a.Option}
		if a.Archive != "" {
			r.warn(o, "left out: Ignition cannot unpack the %s archive %s; provide its files in the image, or as assets that are programs", a.Archive, a.URL)
			continue
		}
		hash := "sha256-" + a.SHA256
		if a.SHA512 != "" {
			hash = "sha512-" + a.SHA512
		}
		for _, f := range a.Files {
			r.origins[fmt.Sprintf("storage.files.%d", len(st.Files))] = o
			st.Files = append(st.Files, types.File{
				Node: types.Node{Path: f.Path, Overwrite: ptr(true), User: types.NodeUser{Name: ptr("root")}, Group: types.NodeGroup{Name: ptr("root")}},
				FileEmbedded1: types.FileEmbedded1{
					Mode:     ptr(0o755),
					Contents: types.Resource{Source: ptr(a.URL), Verification: types.Verification{Hash: ptr(hash)}},
				},
			})
		}
	}
	for _, p := range packages {
		r.warn(origin{option: p.Option}, "left out: Ignition installs no packages; on Flatcar or Fedora CoreOS provide %s in the image, or as an asset", p.Name)
	}
}

// checkOwners warns about files owned by a user or group that neither
// root nor the profile's sysusers.d files provide: Ignition looks owners
// up when it writes a file and fails the boot when one is missing.
func (r *renderer) checkOwners(entries []profile.Entry, users, groups map[string]bool) {
	for _, e := range entries {
		if e.Mode == profile.TypeSymlink {
			continue
		}
		if kind, _ := classify(e); kind == unitFile || kind == unitDropin {
			continue
		}
		o := origin{target: e.Target, option: e.Option}
		if e.User != "root" && !users[e.User] {
			r.warn(o, "owned by user %q, which no sysusers.d file of the profile declares: Ignition fails the boot unless the image has that user", e.User)
		}
		if e.Group != "root" && !groups[e.Group] {
			r.warn(o, "owned by group %q, which no sysusers.d file of the profile declares: Ignition fails the boot unless the image has that group", e.Group)
		}
	}
}

// dataURL encodes contents as the shortest of a percent-escaped data URL,
// a base64 one and a base64 one of the gzip-compressed contents (with the
// compression to declare), as Butane does.
func dataURL(contents []byte) (string, *string) {
	opaque := "," + dataurl.Escape(contents)
	if b64 := ";base64," + base64.StdEncoding.EncodeToString(contents); len(b64) < len(opaque) {
		opaque = b64
	}
	var compression *string
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(contents)
	zw.Close()
	// "compression": "gzip" costs 25 bytes more.
	if gz := ";base64," + base64.StdEncoding.EncodeToString(buf.Bytes()); len(gz)+25 < len(opaque) {
		opaque = gz
		compression = ptr("gzip")
	}
	return (&url.URL{Scheme: "data", Opaque: opaque}).String(), compression
}

func ptr[T any](v T) *T { return &v }
