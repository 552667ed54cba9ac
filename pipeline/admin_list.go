package pipeline

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/pipekit/pipe/errcode"
)

// MaxJobPage is the most rows one List page holds.
const MaxJobPage = 200

// ListFilter selects and pages jobs, newest first. After is the Next cursor of
// the previous page; Before is the Prev cursor of the next one.
type ListFilter struct {
	Queue, Name      string
	State            State
	Tenant, IDPrefix string
	// Key is a run's idempotency key; ConcurrencyKey the key its job's
	// concurrency limit counts it under.
	Key, ConcurrencyKey string
	// CreatedFrom and CreatedTo bound created_at. The ids made within
	// five minutes of the range bound it too (ids carry their time), so a
	// run whose created_at lies further from its id's time than that (a
	// database clock set apart from the enqueuing process's) is not found.
	CreatedFrom, CreatedTo time.Time
	// Limit is the page size, 1 to 200. Default 50.
	Limit         int
	After, Before string
}

// Page is one page of a listing with the cursors around it ("" at an end).
type Page struct {
	Jobs []JobRow `json:"jobs"`
	Next string   `json:"next,omitempty"`
	Prev string   `json:"prev,omitempty"`
}

const cursorPrefix = "c1."

var idPrefixPattern = regexp.MustCompile(`^[0-9a-f-]{1,36}$`)

// pageInvalid refuses a listing's filter or page, with the fix for it.
func pageInvalid(why, fix string) error {
	return errcode.New(errcode.JobPageInvalid, "list: %s", why).WithFix(fix)
}

func (f ListFilter) validate() (ListFilter, *uuid.UUID, bool, error) {
	if f.Limit == 0 {
		f.Limit = 50
	}
	if f.Limit < 0 || f.Limit > MaxJobPage {
		return f, nil, false, pageInvalid("the page size is outside 1 to 200", "ask for 1 to 200 rows")
	}
	if f.After != "" && f.Before != "" {
		return f, nil, false, errcode.New(errcode.Invariant, "list: After and Before together").WithFix("pass one cursor")
	}
	if f.State != "" && !f.State.Valid() {
		return f, nil, false, pageInvalid("the state is not one of "+stateNames(), "pass one of those states")
	}
	if f.IDPrefix != "" && !idPrefixPattern.MatchString(f.IDPrefix) {
		return f, nil, false, pageInvalid("the id prefix is not lowercase hex", "pass the start of an id as `pipe jobs list` prints it")
	}
	cur := f.After + f.Before
	if cur == "" {
		return f, nil, false, nil
	}
	id, err := uuid.Parse(strings.TrimPrefix(cur, cursorPrefix))
	if !strings.HasPrefix(cur, cursorPrefix) || err != nil {
		return f, nil, false, pageInvalid("the cursor was not made by a page", "pass back only a cursor a page answered (its next or prev)")
	}
	return f, &id, f.Before != "", nil
}

// List answers one page of jobs, newest first.
func (a *Admin) List(ctx context.Context, f ListFilter) (Page, error) {
	f, cursor, backward, err := f.validate()
	if err != nil {
		return Page{}, err
	}
	sql, args := buildList(f, cursor, backward)
	rows, err := a.db.Query(ctx, sql, args...)
	if err != nil {
		return Page{}, adminErr("list", err)
	}
	defer rows.Close()
	var out []JobRow
	for rows.Next() {
		var r JobRow
		var id, runID uuid.UUID
		if err := rows.Scan(&id, &runID, &r.Name, &r.Queue, &r.Tenant, &r.IdempotencyKey, &r.State,
			&r.Attempt, &r.MaxAttempts, &r.RunAt, &r.CreatedAt, &r.FinishedAt); err != nil {
			return Page{}, adminErr("list", err)
		}
		r.ID, r.RunID = id.String(), runID.String()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return Page{}, adminErr("list", err)
	}
	return buildPage(out, f.Limit, cursor != nil, backward), nil
}

// buildPage trims the look-ahead row and sets the cursors. Rows arrive newest
// first going forward, oldest first going backward.
func buildPage(rows []JobRow, limit int, hasCursor, backward bool) Page {
	more := len(rows) > limit
	if more {
		rows = rows[:limit]
	}
	if backward {
		slices.Reverse(rows)
	}
	p := Page{Jobs: rows}
	if len(rows) == 0 {
		return p
	}
	first, last := cursorPrefix+rows[0].ID, cursorPrefix+rows[len(rows)-1].ID
	if backward {
		p.Next = last
		if more {
			p.Prev = first
		}
	} else {
		if more {
			p.Next = last
		}
		if hasCursor {
			p.Prev = first
		}
	}
	return p
}
