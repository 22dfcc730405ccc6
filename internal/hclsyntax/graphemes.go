// Copyright IBM Corp. 2014, 2026
// SPDX-License-Identifier: MPL-2.0

package hclsyntax

import (
	"bufio"
	"bytes"

	"github.com/apparentlymart/go-textseg/v15/textseg"
)

// scanGraphemeClusters and graphemeCount replace upstream's
// internal/unicodeutil, which an outside module cannot import.
func scanGraphemeClusters(data []byte, atEOF bool) (int, []byte, error) {
	return textseg.ScanGraphemeClusters(data, atEOF)
}

func graphemeCount(buf []byte) (int, error) {
	scanner := bufio.NewScanner(bytes.NewReader(buf))
	scanner.Split(scanGraphemeClusters)
	var ret int
	for scanner.Scan() {
		ret++
	}
	return ret, scanner.Err()
}
