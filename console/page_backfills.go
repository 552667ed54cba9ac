package console

import (
	"context"
	"net/http"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
)

// maxBackfillRows is the most passes the backfills page shows.
const maxBackfillRows = 200

func (c *Console) backfillsPage(w http.ResponseWriter, r *http.Request) {
	if c.opts.DB == nil {
		http.NotFound(w, r)
		return
	}
	passes, err := backfill.List(r.Context(), c.opts.DB, r.URL.Query().Get("name"), maxBackfillRows)
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	c.render(w, r, http.StatusOK, "backfills", "Backfills", passes)
}

// backfillAction pauses, resumes or cancels one pass by its run id.
func (c *Console) backfillAction(w http.ResponseWriter, r *http.Request) {
	if !c.opts.AllowActions {
		c.fail(w, r, http.StatusForbidden, readOnly())
		return
	}
	if c.opts.DB == nil {
		http.NotFound(w, r)
		return
	}
	acts := map[string]func(ctx context.Context, ref string) error{
		"pause": func(ctx context.Context, ref string) error { _, err := backfill.Pause(ctx, c.opts.DB, ref); return err },
		"resume": func(ctx context.Context, ref string) error {
			_, err := backfill.Resume(ctx, c.opts.DB, ref)
			return err
		},
		"cancel": func(ctx context.Context, ref string) error {
			_, err := backfill.Cancel(ctx, c.opts.DB, ref, "cancelled from the console")
			return err
		},
	}
	act, ok := acts[r.PathValue("action")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if err := act(r.Context(), segmentName(r, "run")); err != nil {
		status := statusOf(err)
		if errcode.CodeOf(err) == errcode.BackfillNotFound {
			status = http.StatusNotFound
		}
		c.fail(w, r, status, err)
		return
	}
	done(w, r, c.path("backfills"), r.PathValue("action"))
}
