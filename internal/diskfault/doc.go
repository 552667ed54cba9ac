// Package diskfault makes directories that refuse writes, for tests that
// prove a full disk or a read-only directory is coded for what a retry can
// do about it: [Small] mounts a tmpfs of a few bytes (a real ENOSPC), and
// [ReadOnly] answers a directory no write may enter (a read-only tmpfs,
// EROFS, when the test runs as root — root ignores file modes — and a
// directory of mode 0555, EACCES, otherwise).
//
// Mounting needs root and CAP_SYS_ADMIN; where the mount is refused, or
// off Linux, [Small] skips the test. Every mount is detached when the test
// ends.
package diskfault
