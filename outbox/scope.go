package outbox

// scope is what a fault holds back: the whole stream (ByStream) or the
// keys it names (ByKey).
type scope struct {
	ordering Ordering
	all      bool
	keys     map[string]bool
}

func newScope(o Ordering) *scope { return &scope{ordering: o, keys: map[string]bool{}} }

// add holds back key's rows: all of the stream's under ByStream.
func (s *scope) add(key string) {
	if s.ordering == ByStream {
		s.all = true
		return
	}
	s.keys[key] = true
}

// holds answers whether a row of key is held back.
func (s *scope) holds(key string) bool { return s.all || s.keys[key] }
