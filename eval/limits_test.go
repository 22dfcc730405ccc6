package eval

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLimitsSet(t *testing.T) {
	for _, c := range []struct {
		name, value string
		want        Limits // the fields set, on a zero Limits
		err         string
	}{
		{"depth", "20000", Limits{Depth: 20000}, ""},
		{"depth", "60000", Limits{}, "depth 60000 is more than 50000"},
		{"elements", "5", Limits{Elements: 5}, ""},
		{"elements", "0", Limits{}, "want a positive whole number"},
		{"string", "256M", Limits{StringBytes: 256 << 20}, ""},
		{"string", "4G", Limits{}, "is more than the largest such limit"},
		{"allocation", "2G", Limits{Allocation: 2 << 30}, ""},
		{"file", "1000", Limits{FileBytes: 1000}, ""},
		{"file", "-1", Limits{}, "want a positive size"},
		{"files", "20000", Limits{Files: 20000}, ""},
		{"time", "5m", Limits{Time: 5 * time.Minute}, ""},
		{"time", "0s", Limits{}, "want a positive duration"},
		{"size", "1", Limits{}, `no limit is called "size" (there are allocation, depth, elements, file, files, string, time)`},
	} {
		t.Run(c.name+"="+c.value, func(t *testing.T) {
			var l Limits
			err := l.Set(c.name, c.value)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Set: %v, want an error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, l); diff != "" {
				t.Errorf("Limits (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLimitsTable: every limit Set knows is in the table with its default,
// which a zero Limits takes.
func TestLimitsTable(t *testing.T) {
	table := LimitsTable()
	for _, s := range limitSpecs {
		d := DefaultLimits
		row := s.name + " "
		if !strings.Contains(table, row) || !strings.Contains(table, s.get(&d)) {
			t.Errorf("the table has no row %q with %q:\n%s", s.name, s.get(&d), table)
		}
	}
	if got := (Limits{}).withDefaults(); got != DefaultLimits {
		t.Errorf("zero Limits with defaults = %+v, want %+v", got, DefaultLimits)
	}
}
