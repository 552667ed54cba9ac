package webhook

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/singleflight"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Store is the stock endpoint store, pipe.webhook_endpoints (migrated by
// pipe migrate), for applications without their own: an endpoint's URL,
// its secrets, whether it is enabled and its consecutive failed runs. It
// is a [Health], and its [Store.Endpoint] reads what Options.Endpoint
// answers, each endpoint at most once a second: a change made elsewhere
// reaches its deliveries within a second (see endpointTTL).
type Store struct {
	db    pipeline.DB
	cache *endpointCache
	reads singleflight.Group // one read of an endpoint at a time, shared by every delivery that missed it
}

// NewStore answers the stock endpoint store over db.
func NewStore(db pipeline.DB) *Store { return &Store{db: db, cache: newEndpointCache()} }

// StoredEndpoint is one row of the store.
type StoredEndpoint struct {
	ID                  string    `json:"id"`
	URL                 string    `json:"url"`
	Secrets             []string  `json:"-"` // never printed
	Enabled             bool      `json:"enabled"`
	ConsecutiveFailures int       `json:"consecutiveFailures"`
	CreatedAt           time.Time `json:"createdAt"`
	UpdatedAt           time.Time `json:"updatedAt"`
}

// Endpoint answers the stored endpoint id as a delivery reads it, as read
// within the last second; an id the store does not hold is
// X_WEBHOOK_ENDPOINT_UNKNOWN, terminal.
func (s *Store) Endpoint(ctx context.Context, id string) (Endpoint, error) {
	e, err := s.cached(ctx, id)
	if err != nil {
		return Endpoint{}, err
	}
	return Endpoint{ID: e.ID, URL: e.URL, Secrets: e.Secrets, Disabled: !e.Enabled}, nil
}

// cached answers endpoint id as read within endpointTTL, reading it when
// it was not.
func (s *Store) cached(ctx context.Context, id string) (StoredEndpoint, error) {
	if e, ok := s.cache.get(id); ok {
		return e, nil
	}
	v, err, _ := s.reads.Do(id, func() (any, error) {
		// shared: one caller's cancel must not fail the others' read
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
		defer cancel()
		read := s.cache.now()
		e, err := s.Get(rctx, id)
		if err == nil {
			s.cache.put(e, read)
		}
		return e, err
	})
	e, _ := v.(StoredEndpoint)
	return e, err
}

// Add stores a new endpoint, enabled, with a fresh secret, and answers it.
// The URL is checked as a delivery checks it (https unless allowHTTP; a
// numeric host refused unless allowPrivate). An id taken is
// X_CONFIG_INVALID.
func (s *Store) Add(ctx context.Context, id, url string, allowHTTP, allowPrivate bool) (StoredEndpoint, error) {
	if strings.TrimSpace(id) == "" || len(id) > 200 {
		return StoredEndpoint{}, errcode.New(errcode.ConfigInvalid, "webhook endpoint: the id is blank or longer than 200 characters").
			WithFix("name the endpoint with 1-200 characters")
	}
	if _, err := checkURL(url, allowHTTP, allowPrivate); err != nil {
		return StoredEndpoint{}, err
	}
	var got string
	err := s.db.QueryRow(ctx, sqlEndpointAdd, id, url, NewSecret()).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return StoredEndpoint{}, errcode.New(errcode.ConfigInvalid, "webhook endpoint: the id is taken").
			WithFix("choose another id, or rotate the existing endpoint's secret")
	}
	if err != nil {
		return StoredEndpoint{}, dbErr(ctx, err, "add an endpoint")
	}
	return s.Get(ctx, id)
}

// Get answers one stored endpoint.
func (s *Store) Get(ctx context.Context, id string) (StoredEndpoint, error) {
	rows, err := s.db.Query(ctx, sqlEndpointGet, id)
	if err != nil {
		return StoredEndpoint{}, dbErr(ctx, err, "read an endpoint")
	}
	e, err := pgx.CollectExactlyOneRow(rows, scanEndpoint)
	if errors.Is(err, pgx.ErrNoRows) {
		return StoredEndpoint{}, unknownEndpoint()
	}
	return e, dbErr(ctx, err, "read an endpoint")
}

// List answers every stored endpoint, by id.
func (s *Store) List(ctx context.Context) ([]StoredEndpoint, error) {
	rows, err := s.db.Query(ctx, sqlEndpointList)
	if err != nil {
		return nil, dbErr(ctx, err, "list endpoints")
	}
	out, err := pgx.CollectRows(rows, scanEndpoint)
	return out, dbErr(ctx, err, "list endpoints")
}

// SetEnabled enables or disables an endpoint; enabling resets its count of
// failed runs.
func (s *Store) SetEnabled(ctx context.Context, id string, enabled bool) error {
	return s.update(ctx, "enable an endpoint", id, sqlEndpointEnable, enabled)
}

// RotateSecret puts a fresh secret first, keeps the newest old one beside
// it (deliveries carry both signatures until the next rotation) and
// answers the new one.
func (s *Store) RotateSecret(ctx context.Context, id string) (string, error) {
	secret := NewSecret()
	return secret, s.update(ctx, "rotate a secret", id, sqlEndpointRotate, secret)
}

func (s *Store) update(ctx context.Context, what, id, sql string, arg any) error {
	defer s.cache.forget(id)
	var got string
	err := s.db.QueryRow(ctx, sql, id, arg).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return unknownEndpoint()
	}
	return dbErr(ctx, err, what)
}

// Failed counts one failed run against the endpoint and disables it at
// disableAfter in a row ([Health]).
func (s *Store) Failed(ctx context.Context, id string, disableAfter int) (bool, error) {
	defer s.cache.forget(id)
	var disabled bool
	err := s.db.QueryRow(ctx, sqlEndpointFailed, id, disableAfter).Scan(&disabled)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil // an endpoint removed meanwhile
	}
	return disabled, dbErr(ctx, err, "count a failed run")
}

// Delivered resets the endpoint's count of failed runs ([Health]). It
// writes nothing when the count this Store read within the last second is
// zero: a failed run another process counted in that second is reset by
// the first delivery after this Store reads the endpoint again.
func (s *Store) Delivered(ctx context.Context, id string) error {
	if e, ok := s.cache.get(id); ok && e.ConsecutiveFailures == 0 {
		return nil
	}
	tag, err := s.db.Exec(ctx, sqlEndpointDelivered, id)
	if err != nil {
		return dbErr(ctx, err, "reset an endpoint's failures")
	}
	if tag.RowsAffected() > 0 {
		s.cache.forget(id) // the count it held changed; a reset that matched nothing changed nothing
	}
	return nil
}

func scanEndpoint(r pgx.CollectableRow) (StoredEndpoint, error) {
	var e StoredEndpoint
	err := r.Scan(&e.ID, &e.URL, &e.Secrets, &e.Enabled, &e.ConsecutiveFailures, &e.CreatedAt, &e.UpdatedAt)
	return e, err
}

func unknownEndpoint() error {
	return errcode.New(errcode.WebhookEndpointUnknown, "webhook endpoint: the store holds no endpoint of that id").
		WithFix("add it with pipe webhooks endpoints add, or list the stored ones with pipe webhooks endpoints list")
}
