//go:build !unix

package importrows

// newPageBuffer answers a page buffer on the heap where anonymous mappings
// are not available.
func newPageBuffer(n int) (buf []byte, free func()) {
	return make([]byte, n), func() {}
}
