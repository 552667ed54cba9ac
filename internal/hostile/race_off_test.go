//go:build !race

package hostile_test

// raced: the race detector's shadow memory multiplies a process's
// resident memory, so peaks are not asserted.
const raced = false
