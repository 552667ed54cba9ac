package webhook

import (
	"sync"
	"time"
)

// endpointTTL is how long a Store answers an endpoint it read without
// reading it again. A rotated secret, a disable or an enable made anywhere
// else (another process, `pipe webhooks endpoints`, SQL) reaches this
// process's deliveries within it; one made through this Store, at once.
// At any rate of deliveries a Store reads each endpoint at most once a
// second.
const endpointTTL = time.Second

// endpointCache is a Store's endpoints as it last read them.
type endpointCache struct {
	mu      sync.RWMutex
	entries map[string]cachedEndpoint
	now     func() time.Time
}

type cachedEndpoint struct {
	e    StoredEndpoint
	read time.Time
}

func newEndpointCache() *endpointCache {
	return &endpointCache{entries: map[string]cachedEndpoint{}, now: time.Now}
}

// get answers endpoint id as read within endpointTTL, if it was.
func (c *endpointCache) get(id string) (StoredEndpoint, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	ce, ok := c.entries[id]
	if !ok || c.now().Sub(ce.read) >= endpointTTL {
		return StoredEndpoint{}, false
	}
	return ce.e, true
}

// put keeps e as read at read, a time taken before the read was sent (so
// that a change committed while it was in flight is not held a full TTL
// past it).
func (c *endpointCache) put(e StoredEndpoint, read time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedEndpoints {
		clear(c.entries)
	}
	c.entries[e.ID] = cachedEndpoint{e: e, read: read}
}

// forget drops endpoint id, changed through this Store.
func (c *endpointCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, id)
}

// maxCachedEndpoints bounds a Store's memory whatever the endpoints it
// reads: past it the cache starts again empty.
const maxCachedEndpoints = 100_000
