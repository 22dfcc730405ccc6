package eval_test

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// TestDynamicAsWrittenByHand: options declared by dynamic blocks are
// those of the blocks written out by hand: the same configuration, the
// same declarations for the documentation (nodegen options) and the same
// explanation of each option (nodegen option), but for where they are
// declared.
func TestDynamicAsWrittenByHand(t *testing.T) {
	for _, c := range []struct {
		name          string
		dynamic, hand string
	}{
		{
			name: "options from a table",
			dynamic: `
locals {
  components = { scheduler = "Kubernetes scheduler", proxy = "Kubernetes proxy" }
}
dynamic "options" {
  for_each = local.components
  iterator = component
  labels   = ["services.kubernetes.${component.key}"]
  content {
    option "enable" {
      type        = bool
      default     = false
      example     = component.key == "proxy"
      description = "Whether to enable ${component.value}."
    }
    option "extraOpts" {
      type        = str
      default     = "--${component.key}"
      description = "${component.value} extra command line options."
    }
    option "port" {
      type         = int
      default      = length(component.key) + config.base
      default_text = "base + the length of ${component.key}"
      apply        = value * 2
      internal     = component.key == "proxy"
    }
  }
}
option "base" {
  type    = int
  default = 1000
}
config "services.kubernetes.proxy" {
  enable = true
}
`,
			hand: `
options "services.kubernetes.scheduler" {
  option "enable" {
    type        = bool
    default     = false
    example     = false
    description = "Whether to enable Kubernetes scheduler."
  }
  option "extraOpts" {
    type        = str
    default     = "--scheduler"
    description = "Kubernetes scheduler extra command line options."
  }
  option "port" {
    type         = int
    default      = 9 + config.base
    default_text = "base + the length of scheduler"
    apply        = value * 2
    internal     = false
  }
}
options "services.kubernetes.proxy" {
  option "enable" {
    type        = bool
    default     = false
    example     = true
    description = "Whether to enable Kubernetes proxy."
  }
  option "extraOpts" {
    type        = str
    default     = "--proxy"
    description = "Kubernetes proxy extra command line options."
  }
  option "port" {
    type         = int
    default      = 5 + config.base
    default_text = "base + the length of proxy"
    apply        = value * 2
    internal     = true
  }
}
option "base" {
  type    = int
  default = 1000
}
config "services.kubernetes.proxy" {
  enable = true
}
`,
		},
		{
			name: "nested, in a submodule",
			dynamic: `
submodule "exporter" {
  dynamic "options" {
    for_each = ["tls", "auth"]
    iterator = part
    labels   = [part.value]
    content {
      dynamic "option" {
        for_each = { file = "pem", dir = "d" }
        labels   = [option.key]
        content {
          type        = str
          default     = "/etc/${part.value}.${option.value}"
          description = "The ${option.key} of ${part.value} for the ${name} exporter."
        }
      }
    }
  }
}
option "exporters" {
  type    = attrsOf(submodule.exporter)
  default = {}
}
config "exporters" {
  node = { tls = { dir = "/tls" } }
}
`,
			hand: `
submodule "exporter" {
  options "tls" {
    option "dir" {
      type        = str
      default     = "/etc/tls.d"
      description = "The dir of tls for the ${name} exporter."
    }
    option "file" {
      type        = str
      default     = "/etc/tls.pem"
      description = "The file of tls for the ${name} exporter."
    }
  }
  options "auth" {
    option "dir" {
      type        = str
      default     = "/etc/auth.d"
      description = "The dir of auth for the ${name} exporter."
    }
    option "file" {
      type        = str
      default     = "/etc/auth.pem"
      description = "The file of auth for the ${name} exporter."
    }
  }
}
option "exporters" {
  type    = attrsOf(submodule.exporter)
  default = {}
}
config "exporters" {
  node = { tls = { dir = "/tls" } }
}
`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dyn, hand := evalSource(t, c.dynamic), evalSource(t, c.hand)
			ignoreRanges := cmpopts.IgnoreTypes(hcl.Range{})
			if diff := cmp.Diff(hand.decls, dyn.decls, ignoreRanges); diff != "" {
				t.Errorf("declarations (-hand +dynamic):\n%s", diff)
			}
			for _, d := range hand.decls {
				// An option of every instance is explained in one.
				p := slices.Clone(d.Path)
				for i, seg := range p {
					if seg == "<name>" {
						p[i] = "node"
					}
				}
				x, y := hand.explain(t, p), dyn.explain(t, p)
				if diff := cmp.Diff(x, y, ignoreRanges, cmp.Comparer(cty.Value.RawEquals)); diff != "" {
					t.Errorf("nodegen option %s (-hand +dynamic):\n%s", p, diff)
				}
			}
			if !hand.config.RawEquals(dyn.config) {
				t.Errorf("config: hand %#v, dynamic %#v", hand.config, dyn.config)
			}
		})
	}
}

type evaluated struct {
	ev     *eval.Evaluator
	decls  []eval.Declaration
	config cty.Value
}

func evalSource(t *testing.T, src string) evaluated {
	t.Helper()
	ev, diags := eval.New(eval.Config{FS: fstest.MapFS{"main.hcl": {Data: []byte(src)}}, Files: []string{"main.hcl"}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	v, diags := ev.Config()
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return evaluated{ev: ev, decls: ev.Declarations(), config: v}
}

func (e evaluated) explain(t *testing.T, p options.Path) *eval.Explanation {
	t.Helper()
	x, diags := e.ev.Explain(p)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return x
}
