package pipecli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) jobsListCommand() *cobra.Command {
	var f pipeline.ListFilter
	var from, to string
	c := &cobra.Command{
		Use:   "list",
		Short: "List jobs, newest first, one page at a time",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if f.CreatedFrom, err = parseInstant(c, "created-from", from); err != nil {
				return err
			}
			if f.CreatedTo, err = parseInstant(c, "created-to", to); err != nil {
				return err
			}
			return a.withAdminDB(c.Context(), func(adm *pipeline.Admin, db pipeline.DB) error {
				page, err := adm.List(c.Context(), f)
				if err != nil {
					return err
				}
				if page.Jobs == nil {
					page.Jobs = []pipeline.JobRow{}
				}
				passes, err := inFlight(c.Context(), db, f.Limit)
				if err != nil {
					return err
				}
				if a.json {
					return printJSON(a.stdout, pageJSON{Page: page, Backfills: passes})
				}
				if err := a.renderPage(page); err != nil {
					return err
				}
				return renderPasses(a.stdout, passes)
			})
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.Queue, "queue", "", "only jobs in this queue")
	fl.StringVar(&f.Name, "name", "", "only jobs with this name")
	fl.StringVar((*string)(&f.State), "state", "", "only jobs in this state (ready, delayed, running, suspended, done, failed, dead, cancelled)")
	fl.StringVar(&f.Tenant, "tenant", "", "only jobs of this tenant")
	fl.StringVar(&f.IDPrefix, "id-prefix", "", "only jobs whose id starts with this (lowercase hex)")
	fl.StringVar(&f.Key, "key", "", "only jobs with this idempotency key")
	fl.StringVar(&f.ConcurrencyKey, "concurrency-key", "", "only jobs with this concurrency key")
	fl.StringVar(&from, "created-from", "", "only jobs created at or after this RFC 3339 instant")
	fl.StringVar(&to, "created-to", "", "only jobs created before this RFC 3339 instant")
	fl.IntVar(&f.Limit, "limit", 50, "rows per page, 1 to "+strconv.Itoa(pipeline.MaxJobPage))
	fl.StringVar(&f.After, "after", "", "the page after this cursor (a page's next)")
	fl.StringVar(&f.Before, "before", "", "the page before this cursor (a page's prev)")
	c.MarkFlagsMutuallyExclusive("after", "before")
	return c
}

// parseInstant parses an optional RFC 3339 flag value.
func parseInstant(c *cobra.Command, flag, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, usageError(c, "--%s is not an RFC 3339 instant such as 2025-01-31T09:00:00Z", flag)
	}
	return t, nil
}

func (a *app) renderPage(p pipeline.Page) error {
	if len(p.Jobs) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no jobs")
		return err
	}
	t := newTable(a.stdout, "ID", "NAME", "QUEUE", "STATE", "ATTEMPT", "TENANT", "CREATED", "RUN AT")
	for _, j := range p.Jobs {
		t.row(j.ID, j.Name, j.Queue, string(j.State), fmt.Sprintf("%d/%d", j.Attempt, j.MaxAttempts), orDash(j.Tenant),
			stamp(j.CreatedAt), stamp(j.RunAt))
	}
	if err := t.flush(); err != nil {
		return err
	}
	if p.Next != "" {
		fmt.Fprintf(a.stdout, "next page: --after %s\n", p.Next)
	}
	if p.Prev != "" {
		fmt.Fprintf(a.stdout, "previous page: --before %s\n", p.Prev)
	}
	return nil
}
