package importrows

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// lineColumn is the staging table's last column: each row's line, the file
// order the merge keeps.
const lineColumn = "pipe_import_line"

// stageName answers range i's staging table: beside the table, named by
// the parent's run id and the range.
func (a *attempt[In]) stageName(i int) string {
	rel := a.im.o.Into(a.run.Input).Relation
	name := fmt.Sprintf("pipe_import_%s_%05d", strings.ReplaceAll(a.run.RunID, "-", ""), i)
	return pg.Relation{Schema: rel.Schema, Name: name}.Quoted()
}

// createStage makes a staging table: unlogged, the table's columns as the
// file holds them, and the line.
func (a *attempt[In]) createStage(ctx context.Context, tx pgx.Tx, stage string) error {
	cols := pgcatalog.QuoteList(a.plan.Columns)
	stmt := fmt.Sprintf("create unlogged table %s as select %s from %s with no data", stage, cols, a.plan.Table)
	if _, err := tx.Exec(ctx, stmt); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, fmt.Sprintf("alter table %s add column %s bigint not null", stage, pgcatalog.Quote(lineColumn)))
	return err
}

// mergeRanges upserts the staging tables into the table in file order, a
// range a step: of the rows of one key in a range the last (the highest
// line) is upserted, after the ranges before it, so the last occurrence in
// the file wins as in the sequential import. Each step drops its range's
// table. Without a key there is nothing to merge: the ranges wrote the
// table.
func (a *attempt[In]) mergeRanges(ctx context.Context, n int) error {
	if len(a.plan.Key) == 0 {
		return nil
	}
	for i := range n {
		_, err := pipeline.StepTx(ctx, fmt.Sprintf("ranges-merge-%05d", i), func(ctx context.Context, tx pgx.Tx) (int64, error) {
			n, err := a.mergeRange(ctx, tx, a.stageName(i))
			if err == nil {
				err = checkDeferred(ctx, tx)
			}
			return n, errcode.Redact(ctx, err, "import: merge range "+fmt.Sprint(i))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (a *attempt[In]) mergeRange(ctx context.Context, tx pgx.Tx, stage string) (int64, error) {
	w := a.tableWriter()
	key := w.quoted(w.key)
	stmt := fmt.Sprintf("insert into %s (%s) select distinct on (%s) %s from %s order by %s, %s desc on conflict (%s) %s",
		w.table, w.list(), key, w.list(), stage, key, pgcatalog.Quote(lineColumn), key, w.onConflict())
	tag, err := tx.Exec(ctx, stmt)
	if err != nil {
		return 0, refusedWrite(ctx, err)
	}
	if _, err := tx.Exec(ctx, "drop table "+stage); err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// dropStages drops the staging tables of a parallel import that failed, as
// far as it can: they hold nothing the table needs.
func (a *attempt[In]) dropStages(ctx context.Context, n int) {
	if len(a.plan.Key) == 0 {
		return
	}
	pool := pipeline.Pool(ctx)
	for i := range n {
		_, _ = pool.Exec(ctx, "drop table if exists "+a.stageName(i))
	}
}
