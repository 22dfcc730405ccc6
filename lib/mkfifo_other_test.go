//go:build !unix

package lib

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
