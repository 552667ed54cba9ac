package pipecli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/webhook"
)

func (a *app) webhooksCommand() *cobra.Command {
	return group("webhooks", "Manage the stock webhook endpoints and read the delivery ledger",
		group("endpoints", "Add, list, enable, disable endpoints and rotate their secrets (pipe.webhook_endpoints)",
			a.webhookAddCommand(), a.webhookListCommand(),
			a.webhookEnableCommand("enable", true), a.webhookEnableCommand("disable", false),
			a.webhookRotateCommand()),
		a.webhookDeliveriesCommand(),
	)
}

// withWebhookStore runs fn over the stock endpoint store of the command's
// database.
func (a *app) withWebhookStore(ctx context.Context, fn func(*webhook.Store, *webhook.PGLedger) error) error {
	pool, err := a.connect(ctx, migrated)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(webhook.NewStore(pool), webhook.PostgresLedger(pool))
}
