//go:build linux

package machine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// requireNspawn skips t (fails it under CI) unless this process can boot
// a machine.
func requireNspawn(t testing.TB) {
	t.Helper()
	var ue *UnavailableError
	if err := Available(); errors.As(err, &ue) {
		unavailable(t, "%s", ue.Reason)
	}
	suitereport.Ran(t, Suite)
}

// unavailable skips t with the formatted reason, or fails it when the
// environment variable CI is set (suitereport.Skip).
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	suitereport.Skip(t, Suite, fmt.Sprintf(format, args...))
}
