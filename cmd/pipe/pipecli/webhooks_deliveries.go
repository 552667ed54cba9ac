package pipecli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/webhook"
)

func (a *app) webhookDeliveriesCommand() *cobra.Command {
	var f webhook.Filter
	c := &cobra.Command{
		Use:   "deliveries [--endpoint ID] [--event ID] [--limit N]",
		Short: "List the newest delivery attempts from the stock ledger (pipe.webhook_deliveries)",
		Long: "deliveries lists delivery attempts, newest first: endpoint, event, attempt, status, outcome\n" +
			"(delivered, throttled, rejected, failed, refused), bytes sent, duration and code. Bodies are\n" +
			"never recorded. Attempt 0 is a staged delivery's attempt through the outbox (webhook.NewStaged),\n" +
			"under its outbox message id; attempts 1 and on are its run's, when it was not delivered then.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if f.Limit < 1 || f.Limit > maxDeliveriesListed {
				return errcode.New(errcode.ConfigInvalid, "webhooks deliveries: --limit is outside 1 to %d", maxDeliveriesListed).
					WithFix(fmt.Sprintf("ask for 1 to %d rows", maxDeliveriesListed))
			}
			return a.withWebhookStore(c.Context(), func(_ *webhook.Store, l *webhook.PGLedger) error {
				rows, err := l.List(c.Context(), f)
				if err != nil {
					return err
				}
				if a.json {
					if rows == nil {
						rows = []webhook.Attempt{}
					}
					return printJSON(a.stdout, rows)
				}
				if len(rows) == 0 {
					_, err := fmt.Fprintln(a.stdout, "no deliveries")
					return err
				}
				t := newTable(a.stdout, "AT", "ENDPOINT", "EVENT", "ATTEMPT", "STATUS", "OUTCOME", "BYTES", "MS", "CODE")
				for _, r := range rows {
					t.row(stamp(r.At), truncate(r.EndpointID, 30), truncate(r.EventID, 30), strconv.Itoa(r.Attempt), strconv.Itoa(r.Status),
						string(r.Outcome), strconv.FormatInt(r.Bytes, 10), strconv.FormatInt(r.DurationMs, 10), orDash(string(r.Code)))
				}
				return t.flush()
			})
		},
	}
	c.Flags().StringVar(&f.EndpointID, "endpoint", "", "only this endpoint's attempts")
	c.Flags().StringVar(&f.EventID, "event", "", "only this event's attempts")
	c.Flags().IntVar(&f.Limit, "limit", 100, fmt.Sprintf("at most this many rows (1 to %d)", maxDeliveriesListed))
	return c
}

// maxDeliveriesListed is the most rows pipe webhooks deliveries lists.
const maxDeliveriesListed = 10_000
