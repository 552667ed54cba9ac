package backfillbench

import (
	"fmt"

	"github.com/pipekit/pipe/pipeline"
)

func errFailed(d *pipeline.RunDetail) error {
	if d.LastError != nil {
		return fmt.Errorf("backfill bench: the pass is %s: %s", d.State, d.LastError.Code)
	}
	return fmt.Errorf("backfill bench: the pass is %s", d.State)
}
