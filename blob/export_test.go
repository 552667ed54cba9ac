package blob

// Unlink makes this test binary act as one built without scheme's cloud
// store, until the answered restore is called.
func Unlink(scheme string) (restore func()) {
	was := linked[scheme]
	delete(linked, scheme)
	return func() { linked[scheme] = was }
}
