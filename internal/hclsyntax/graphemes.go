// Copyright IBM Corp. 2014, 2026
// SPDX-License-Identifier: MPL-2.0

package hclsyntax

import (
	"github.com/apparentlymart/go-textseg/v15/textseg"
)

// scanGraphemeClusters and graphemeCount replace upstream's
// internal/unicodeutil, which an outside module cannot import.
func scanGraphemeClusters(data []byte, atEOF bool) (int, []byte, error) {
	return textseg.ScanGraphemeClusters(data, atEOF)
}

// graphemeCount counts the grapheme clusters of buf.
//
// nodegen: upstream ran a bufio.Scanner over buf, which allocates a 4 KiB
// buffer per call; flushHeredocTemplateParts calls it once per line of an
// indented heredoc. ASCII text is one cluster per byte (as in emitToken);
// other text is scanned in place.
func graphemeCount(buf []byte) (int, error) {
	if isASCII(buf) {
		return len(buf), nil
	}
	var ret int
	for len(buf) > 0 {
		adv, _, err := textseg.ScanGraphemeClusters(buf, true)
		if err != nil {
			return ret, err
		}
		if adv == 0 {
			break
		}
		buf = buf[adv:]
		ret++
	}
	return ret, nil
}
