package optiontext

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/property"
)

func rng(file string, line, col, start, end int) hcl.Range {
	return hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: col, Byte: start}, End: hcl.Pos{Line: line, Column: col + end - start, Byte: end}}
}

// TestWrite: every section, a lazy definition shown by its source, a
// disabled one with its false condition, in columns.
func TestWrite(t *testing.T) {
	src := []byte("port = mkIf(local.legacy, 80)\nold = local.legacy\n")
	files := map[string]*hcl.File{"host.hcl": {Bytes: src}}
	x := &eval.Explanation{
		Path:        []string{"services", "web", "port"},
		Type:        "16 bit unsigned integer",
		Description: "The port.\n",
		Declared:    rng("web.hcl", 1, 1, 0, 10),
		Default:     "8080",
		HasDefault:  true,
		ReadOnly:    true,
		Value:       cty.NumberIntVal(9000),
		Defined:     true,
		Definitions: []eval.DefinitionInfo{
			{Range: rng("web.hcl", 3, 17, 40, 44), Value: "8080", Priority: 1500, State: property.Overridden, IsDefault: true},
			{Range: rng("host.hcl", 1, 8, 7, 29), Value: "<lazy>", State: property.Disabled, Condition: rng("host.hcl", 2, 7, 36, 48)},
			{Range: rng("host.hcl", 9, 10, 60, 64), Value: "9000", Priority: 100, State: property.Won},
		},
	}
	var b strings.Builder
	Write(&b, files, x)
	want := `services.web.port

Value:
  9000

Type:
  16 bit unsigned integer

Default:
  8080

Read-only:
  yes: more than one definition (the default counts) is an error

Description:
  The port.

Declared in:
  web.hcl:1:1

Definitions (the lowest priority number wins):
  overridden  priority 1500  web.hcl:3:17   8080  (the default)
  disabled                   host.hcl:1:8   mkIf(local.legacy, 80)
                                            condition is false: local.legacy  (host.hcl:2:7)
  won         priority 100   host.hcl:9:10  9000
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Write (-want +got):\n%s", diff)
	}
}

// TestWriteNoValue: an option without a value, a default or definitions.
func TestWriteNoValue(t *testing.T) {
	var b strings.Builder
	Write(&b, nil, &eval.Explanation{Path: []string{"a"}, Type: "string", Declared: rng("m.hcl", 1, 1, 0, 1)})
	want := "a\n\nValue:\n  (none: no definition and no default)\n\nType:\n  string\n\nDefault:\n  (none)\n\nDeclared in:\n  m.hcl:1:1\n\nDefinitions: none\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Write (-want +got):\n%s", diff)
	}
}
