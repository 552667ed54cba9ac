package storebench

import (
	"sync"

	"github.com/google/uuid"
)

// pickTarget is about how many of each kind of value the fill keeps for
// the reads to ask for.
const pickTarget = 1000

// picks are values the fill drew at random from the rows it wrote: the
// ids, idempotency keys and concurrency keys the reads look up, so that
// each sample asks for a different run that exists.
type picks struct {
	finishedIDs, openIDs []uuid.UUID
	keys, concKeys       []string
}

// merge adds other's values to p.
func (p *picks) merge(other *picks) {
	p.finishedIDs = append(p.finishedIDs, other.finishedIDs...)
	p.openIDs = append(p.openIDs, other.openIDs...)
	p.keys = append(p.keys, other.keys...)
	p.concKeys = append(p.concKeys, other.concKeys...)
}

// pickRate answers the share of n rows to keep to have about pickTarget.
func pickRate(n int) float64 {
	if n <= pickTarget {
		return 1
	}
	return float64(pickTarget) / float64(n)
}

// pickSet gathers the picks of the chunks the fill's streams write at once.
type pickSet struct {
	mu sync.Mutex
	p  picks
}

func (s *pickSet) add(p *picks) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.p.merge(p)
}
