package console

import (
	"crypto/rand"
	"crypto/subtle"
	"net/http"
	"sync"
	"time"
)

// sessionCookie carries a browser's console session: a random id the
// CSRF token is bound to.
const sessionCookie = "pipe_console_session"

// sessionLife is how long a session lasts from its start; a page served
// after it starts a fresh one.
const sessionLife = 8 * time.Hour

// maxSessions bounds the sessions held: past it, the one that ends first
// is forgotten (its next form post is refused, and the page reloads it).
const maxSessions = 4096

// sessions are the live sessions and each one's current CSRF token.
type sessions struct {
	mu   sync.Mutex
	byID map[string]*session
}

type session struct {
	token string
	ends  time.Time
}

func newSessions() *sessions { return &sessions{byID: map[string]*session{}} }

// csrfToken answers the CSRF token r's session holds now, starting a
// session (and setting its cookie) when r carries none that is live.
func (c *Console) csrfToken(w http.ResponseWriter, r *http.Request) string {
	now := c.opts.Now()
	if ck, err := r.Cookie(sessionCookie); err == nil {
		if tok, ok := c.sessions.current(ck.Value, now); ok {
			return tok
		}
	}
	id, tok := c.sessions.start(now)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: c.cookiePath(), MaxAge: int(sessionLife / time.Second),
		HttpOnly: true, Secure: overTLS(r), SameSite: http.SameSiteStrictMode})
	return tok
}

// spend reports whether token is r's session's current CSRF token, and
// rotates it: each token serves one post.
func (c *Console) spend(r *http.Request, token string) bool {
	ck, err := r.Cookie(sessionCookie)
	if err != nil || token == "" {
		return false
	}
	return c.sessions.spend(ck.Value, token, c.opts.Now())
}

func (s *sessions) current(id string, now time.Time) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	se, ok := s.byID[id]
	if !ok || !now.Before(se.ends) {
		return "", false
	}
	return se.token, true
}

func (s *sessions) start(now time.Time) (id, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.byID) >= maxSessions {
		s.forget(now)
	}
	id, token = rand.Text(), rand.Text()
	s.byID[id] = &session{token: token, ends: now.Add(sessionLife)}
	return id, token
}

// forget drops the ended sessions, and the one that ends first if none
// had.
func (s *sessions) forget(now time.Time) {
	first := ""
	for id, se := range s.byID {
		if !now.Before(se.ends) {
			delete(s.byID, id)
		} else if first == "" || se.ends.Before(s.byID[first].ends) {
			first = id
		}
	}
	if len(s.byID) >= maxSessions {
		delete(s.byID, first)
	}
}

func (s *sessions) spend(id, token string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	se, ok := s.byID[id]
	if !ok || !now.Before(se.ends) || subtle.ConstantTimeCompare([]byte(token), []byte(se.token)) != 1 {
		return false
	}
	se.token = rand.Text()
	return true
}

// overTLS reports whether the browser reached the console over TLS: its
// own, or a proxy's that says so.
func overTLS(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}
