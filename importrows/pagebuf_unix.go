//go:build unix

package importrows

import "syscall"

// newPageBuffer answers a read buffer of n bytes mapped outside the Go
// heap: it is the largest thing an import holds, and kept on the heap it
// would double the garbage collector's goal (the heap may grow to twice
// what is live), so off the heap it costs its own size and no more. free
// unmaps it.
func newPageBuffer(n int) (buf []byte, free func()) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n), func() {}
	}
	return b, func() { _ = syscall.Munmap(b) }
}
