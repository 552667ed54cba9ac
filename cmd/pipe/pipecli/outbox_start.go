package pipecli

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/project"
)

// armOutbox starts the runners of the project file's outbox relay, if it
// declares one, so that they run from the worker's start rather than from
// the supervisor's first rearm.
func armOutbox(ctx context.Context, p *project.Project, pool *pgxpool.Pool) error {
	if p == nil || p.Relay == nil {
		return nil
	}
	_, err := p.Relay.Arm(ctx, pool)
	return err
}
