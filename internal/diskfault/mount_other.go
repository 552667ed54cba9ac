//go:build !linux

package diskfault

import "testing"

// Small skips the test: tmpfs is Linux's.
func Small(t testing.TB, _ int64) string {
	t.Helper()
	t.Skip("a small tmpfs needs Linux")
	return ""
}

// ReadOnly skips the test: tmpfs is Linux's.
func ReadOnly(t testing.TB) string {
	t.Helper()
	t.Skip("a read-only tmpfs needs Linux")
	return ""
}
