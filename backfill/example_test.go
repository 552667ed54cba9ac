package backfill_test

import (
	"fmt"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
)

// A pass's statement works over its batch's range, $1 to $2; one that
// names no range is refused before anything runs.
func ExampleNew() {
	o := backfill.Options[backfill.Request]{
		Table: pg.Relation{Name: "orders"},
		SQL:   `update orders set total_cents = round(total * 100) where id between $1 and $2`,
	}
	job, err := backfill.New("fill-cents", backfill.PassKey, o)
	fmt.Println(job.Name(), err)

	o.SQL = `update orders set total_cents = round(total * 100)`
	_, err = backfill.New("fill-cents", backfill.PassKey, o)
	fmt.Println(errcode.CodeOf(err))
	// Output:
	// fill-cents <nil>
	// X_BACKFILL_INVALID
}
