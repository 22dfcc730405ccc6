// Package ignition renders a nodegen profile as an Ignition config, the
// JSON document that Flatcar Container Linux and Fedora CoreOS read on
// their first boot to provision a machine.
//
// Render maps the profile's entries onto the config of CoreOS's own types
// (github.com/coreos/ignition/v2, spec 3.4.0 or 3.5.0):
//
//   - files below /etc become storage.files: absolute path, mode, user and
//     group by name, contents as a data URL (gzip-compressed where that is
//     shorter), with overwrite set, so that a file the image already ships
//     is replaced as installing the profile replaces it;
//   - the directories holding them become storage.directories (0755,
//     root), and symlinks storage.links;
//   - units in /etc/systemd/system (0644, root) and their *.conf drop-ins
//     become systemd.units with contents and dropins, a unit symlinked to
//     /dev/null a masked unit;
//   - the .wants/, .requires/ and .upholds/ links to a unit become
//     enabled: true when the unit's [Install] section asks for exactly
//     those links, and stay links otherwise (nodegen's units have no
//     [Install] section: their wantedBy is written as links);
//   - the users and groups of the profile's sysusers.d files become passwd
//     entries, so that Ignition can give files to them.
//
// What a config cannot carry is reported as a warning naming the option it
// comes from: settings that only say what switching to a new profile does
// (Ignition provisions once), sysusers.d lines Ignition has no equivalent
// for, and owners that neither the profile nor root provide.
//
// Every config is parsed and validated by the ignition module before Render
// returns it; a config Ignition rejects is an *InvalidError naming the
// options that produced the offending entries. The output is deterministic
// byte for byte: entries are sorted, the JSON is indented and has no empty
// objects.
package ignition
