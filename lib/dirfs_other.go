//go:build !unix

package lib

// oNonblock is nothing where the system has no O_NONBLOCK (nor FIFOs a
// path opens).
const oNonblock = 0
