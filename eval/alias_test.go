package eval_test

import "github.com/zclconf/go-cty/cty"

type ctyValue = cty.Value
