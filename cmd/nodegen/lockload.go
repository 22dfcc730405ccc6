package main

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/assetlock"
)

// newEvaluator evaluates host files as eval.New does, with the lock file
// beside them (see assetlock.AddTo).
func newEvaluator(cfg eval.Config) (*eval.Evaluator, hcl.Diagnostics) {
	cfg, diags := assetlock.AddTo(cfg)
	ev, d := eval.New(cfg)
	return ev, append(diags, d...)
}
