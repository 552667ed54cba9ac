package webhook

import "time"

// SetStoreClock sets the clock s's endpoint cache reads (see endpointTTL).
func SetStoreClock(s *Store, now func() time.Time) { s.cache.now = now }

// EndpointTTL is endpointTTL, for the tests.
const EndpointTTL = endpointTTL

// SetStagedTimeout shortens s's StagedTimeout for a test.
func SetStagedTimeout[In any](s *Staged[In], d time.Duration) { s.stagedTimeout = d }
