//go:build !unix

package regularfile

// oNonblock and oNofollow are nothing where the system has neither (nor
// FIFOs a path opens): Open's look before it opens, with os.Lstat under
// RefuseLinks, and its check after are what refuse a link there.
const (
	oNonblock = 0
	oNofollow = 0
)
