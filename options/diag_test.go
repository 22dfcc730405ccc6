package options

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/property"
)

func TestEnumSuggestion(t *testing.T) {
	effects := Enum{Values: []cty.Value{cty.StringVal("NoSchedule"), cty.StringVal("PreferNoSchedule"), cty.StringVal("NoExecute")}}
	tests := []struct {
		name string
		t    Type
		v    cty.Value
		want string
	}{
		{"misspelt", effects, cty.StringVal("NoSchedul"), ` Did you mean "NoSchedule"?`},
		{"far from every value", effects, cty.StringVal("Evict"), ""},
		{"not a string", effects, cty.NumberIntVal(1), ""},
		{"not an enum", Str{}, cty.StringVal("NoSchedul"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := enumSuggestion(tt.t, tt.v); got != tt.want {
				t.Errorf("enumSuggestion = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPriorityAdvice(t *testing.T) {
	tests := []struct {
		prio int
		want string
	}{
		{property.PriorityPlain, prioritySuggestion},
		{property.PriorityForce, "They are all mkForce (priority 50): give the one that should win a lower number with mkOverride(40, value), or remove all but one."},
		{property.PriorityDefault, "They are all mkDefault: define the one that should win without mkDefault, or remove all but one."},
		{10, "They all have priority 10: give the one that should win a lower number with mkOverride(5, value), or remove all but one."},
		{0, "They all have priority 0, the lowest: remove all but one."},
	}
	for _, tt := range tests {
		if got := priorityAdvice(tt.prio); got != tt.want {
			t.Errorf("priorityAdvice(%d) = %q, want %q", tt.prio, got, tt.want)
		}
	}
}
