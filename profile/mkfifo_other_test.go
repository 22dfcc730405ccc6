//go:build !unix

package profile

import "errors"

func mkfifo(p string) error { return errors.New("no FIFOs") }
