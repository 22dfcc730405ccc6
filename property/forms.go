package property

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Form is one special form: a call that makes a Property rather than a
// value. Its arguments are evaluated lazily by the evaluator.
type Form struct {
	// Name is what a module calls: "mkIf", "mkForce", ...
	Name string
	// Kind is the kind of property the form makes.
	Kind Kind
	// Args is the number of arguments the form takes.
	Args int
	// Number is true when the first argument is the priority (mkOverride)
	// or the order (mkOrder), a whole number.
	Number bool
	// Priority is the priority a short form of mkOverride gives; Order the
	// order a short form of mkOrder gives.
	Priority int
	Order    int
}

// Forms lists every special form, in the order the documentation gives
// them.
var Forms = []Form{
	{Name: "mkIf", Kind: KindIf, Args: 2},
	{Name: "mkMerge", Kind: KindMerge, Args: 1},
	{Name: "mkOverride", Kind: KindOverride, Args: 2, Number: true},
	{Name: "mkForce", Kind: KindOverride, Args: 1, Priority: PriorityForce},
	{Name: "mkDefault", Kind: KindOverride, Args: 1, Priority: PriorityDefault},
	{Name: "mkOptionDefault", Kind: KindOverride, Args: 1, Priority: PriorityOptionDefault},
	{Name: "mkOrder", Kind: KindOrder, Args: 2, Number: true},
	{Name: "mkBefore", Kind: KindOrder, Args: 1, Order: OrderBefore},
	{Name: "mkAfter", Kind: KindOrder, Args: 1, Order: OrderAfter},
}

// formIndex finds the forms by name.
var formIndex = func() map[string]*Form {
	m := make(map[string]*Form, len(Forms))
	for i := range Forms {
		m[Forms[i].Name] = &Forms[i]
	}
	return m
}()

// FormNamed returns the special form called name, if there is one.
func FormNamed(name string) (*Form, bool) {
	if len(name) < 4 || name[:2] != "mk" {
		return nil, false
	}
	f, ok := formIndex[name]
	return f, ok
}

// Make builds the property the form makes. args are the form's arguments
// after the number (the condition and the content of mkIf; the list of
// mkMerge; the content of the others), usually thunks; n is the number of
// a Number form; condRange is where mkIf's condition is written, rng the
// whole call.
func (f *Form) Make(n int, args []cty.Value, condRange, rng hcl.Range) Property {
	p := Property{Kind: f.Kind, Priority: f.Priority, Order: f.Order, Range: rng}
	switch f.Kind {
	case KindIf:
		p.Cond, p.CondRange, p.Content = args[0], condRange, args[1]
	case KindMerge:
		p.Contents = args[0]
	case KindOverride:
		p.Content = args[0]
		if f.Number {
			p.Priority = n
		}
	case KindOrder:
		p.Content = args[0]
		if f.Number {
			p.Order = n
		}
	}
	return p
}
