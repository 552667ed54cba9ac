package blob

import (
	"context"
	"net/url"
	"sync"

	gcblob "gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
)

// memBuckets holds the named in-memory buckets. A name opens the same
// bucket for the life of the process, so that what one Open writes another
// can read. This registry is the package's only global state.
var memBuckets = struct {
	sync.Mutex
	byName map[string]*gcblob.Bucket
}{byName: map[string]*gcblob.Bucket{}}

func openMem(ctx context.Context, u *url.URL, shown string) (*Bucket, error) {
	memBuckets.Lock()
	defer memBuckets.Unlock()
	if b, ok := memBuckets.byName[u.Host]; ok {
		return &Bucket{b: b, url: shown, scheme: SchemeMem, shared: true}, nil
	}
	b, err := gcblob.OpenBucket(ctx, (&url.URL{Scheme: memblob.Scheme, RawQuery: u.RawQuery}).String())
	if err != nil {
		return nil, openFailed(err)
	}
	memBuckets.byName[u.Host] = b
	return &Bucket{b: b, url: shown, scheme: SchemeMem, shared: true}, nil
}
