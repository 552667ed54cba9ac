package console

import (
	"testing"
	"time"
)

// The sessions held stay bounded: past maxSessions the ended ones go, and
// then the one that ends first, never a later one.
func TestTheSessionsHeldStayBounded(t *testing.T) {
	s := newSessions()
	t0 := time.Now()
	first, _ := s.start(t0)
	for i := 1; i < maxSessions; i++ {
		s.start(t0.Add(time.Duration(i) * time.Millisecond))
	}
	last, _ := s.start(t0.Add(time.Hour))
	if len(s.byID) != maxSessions {
		t.Fatalf("%d sessions held, want %d", len(s.byID), maxSessions)
	}
	if _, ok := s.current(first, t0.Add(time.Hour)); ok {
		t.Fatal("the session that ends first was kept past the bound")
	}
	if _, ok := s.current(last, t0.Add(time.Hour)); !ok {
		t.Fatal("the newest session was dropped")
	}
	s.start(t0.Add(sessionLife + 30*time.Minute)) // every one but the newest has ended
	if len(s.byID) != 2 {
		t.Fatalf("%d sessions held after the others ended, want 2", len(s.byID))
	}
}
