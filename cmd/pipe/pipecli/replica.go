package pipecli

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
)

// fromReplica names the --replica-url flag in errors.
const fromReplica source = "--replica-url"

// replicaFlag adds --replica-url to a command that runs exports.
func (a *app) replicaFlag(c *cobra.Command) {
	c.Flags().StringVar(&a.replicaURL, "replica-url", "",
		"read the exports' rows on this hot standby of the database (runs, checkpoints and manifests stay on the primary); default none")
}

// openReplica opens the --replica-url pool, when one is given (nil
// otherwise): the caller closes it.
func (a *app) openReplica(ctx context.Context) (*pgxpool.Pool, error) {
	if a.replicaURL == "" {
		return nil, nil
	}
	return open(ctx, a.replicaURL, fromReplica, a.appName())
}

// replicaNeedsWait refuses --replica-url on an export that is only
// enqueued: the fleet's workers read where their own --replica-url says.
func replicaNeedsWait(replicaURL string, wait bool) error {
	if replicaURL == "" || wait {
		return nil
	}
	return errcode.New(errcode.ConfigInvalid, "--replica-url applies to the process that runs the export, and without --wait a worker runs it").
		WithFix("add --wait to read the replica from this process, or start `pipe worker --replica-url URL` for the runs it works")
}
