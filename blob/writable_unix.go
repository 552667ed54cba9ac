//go:build unix

package blob

import "golang.org/x/sys/unix"

// writable asks the file system whether dir takes new entries; it answers
// for the process's user, read-only mounts and immutable directories
// included.
func writable(dir string) error { return unix.Access(dir, unix.W_OK|unix.X_OK) }
