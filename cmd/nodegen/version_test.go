package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "nodegen (devel)"},
		{"no version", &debug.BuildInfo{}, "nodegen (devel)"},
		{"devel", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "nodegen (devel)"},
		{"tagged", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.1"}}, "nodegen v0.4.1"},
		{"revision", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "false"}},
		}, "nodegen (devel) revision 0123456789abcdef"},
		{"dirty", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.4.2-0.20261123201500-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}},
		}, "nodegen v0.4.2-0.20261123201500-0123456789ab+dirty revision 0123456789abcdef+dirty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionLine(tt.bi); got != tt.want {
				t.Errorf("versionLine = %q, want %q", got, tt.want)
			}
		})
	}
}
