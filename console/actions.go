package console

import (
	"context"
	"net/http"
	"net/url"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// readOnly answers the refusal of an action on a read-only console.
func readOnly() error {
	return errcode.New(errcode.ConsoleForbidden, "console: this console is read-only").
		WithFix("serve it with --allow-actions (Options.AllowActions) to act from it")
}

// done redirects to page (a path under the base) after an action, naming
// it for the notice.
func done(w http.ResponseWriter, r *http.Request, page, action string) {
	http.Redirect(w, r, page+"?done="+url.QueryEscape(action), http.StatusSeeOther)
}

func (c *Console) jobAction(w http.ResponseWriter, r *http.Request) {
	if !c.opts.AllowActions {
		c.fail(w, r, http.StatusForbidden, readOnly())
		return
	}
	ctx, id, action := r.Context(), segmentName(r, "id"), r.PathValue("action")
	var err error
	switch action {
	case "retry":
		err = c.admin.Requeue(ctx, id, pipeline.RequeueOptions{FromStep: r.PostFormValue("from_step")})
	case "cancel":
		err = c.admin.Cancel(ctx, id, "cancelled from the console")
	case "promote":
		err = c.admin.Promote(ctx, id)
	case "remove":
		if err = c.admin.Remove(ctx, id); err == nil {
			done(w, r, c.path("jobs"), action)
			return
		}
	default:
		http.NotFound(w, r)
		return
	}
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	done(w, r, c.path("jobs", id), action)
}

func (c *Console) queueAction(w http.ResponseWriter, r *http.Request) {
	c.pauseAction(w, r, c.path(), segmentName(r, "queue"), c.admin.PauseQueue, c.admin.ResumeQueue)
}

func (c *Console) taskAction(w http.ResponseWriter, r *http.Request) {
	c.pauseAction(w, r, c.path("tasks"), segmentName(r, "task"), c.admin.PauseTask, c.admin.ResumeTask)
}

// pauseAction pauses or resumes name, then shows page.
func (c *Console) pauseAction(w http.ResponseWriter, r *http.Request, page, name string, pause, resume func(ctx context.Context, name string) error) {
	if !c.opts.AllowActions {
		c.fail(w, r, http.StatusForbidden, readOnly())
		return
	}
	act := map[string]func(ctx context.Context, name string) error{"pause": pause, "resume": resume}[r.PathValue("action")]
	if act == nil {
		http.NotFound(w, r)
		return
	}
	if err := act(r.Context(), name); err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	done(w, r, page, r.PathValue("action"))
}
