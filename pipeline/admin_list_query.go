package pipeline

import (
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// listColumns are the columns of a page's rows, in the order List scans.
const listColumns = `id, run_id, name, queue, tenant, idem_key, state, attempt, max_attempts, run_at, created_at, finished_at`

// listQuery is the statement of one page, built from the filters given: its
// WHERE clause holds only those, each a fixed column compared with a
// parameter, so that the planner sees predicates the finished partitions'
// indexes answer. (One static statement that tests each filter for being
// empty matches none of them, and reads every finished run.) It reads
// pipe.jobs, the view: while an earlier layout's runs are being moved it
// reads them too; after, the planner reads the partitions through it.
type listQuery struct {
	conds []string
	args  []any
}

// buildList answers the statement and arguments of the page f asks for,
// from cursor (nil: the first page), going backward or forward.
func buildList(f ListFilter, cursor *uuid.UUID, backward bool) (string, []any) {
	var q listQuery
	q.equal("queue", f.Queue)
	q.equal("name", f.Name)
	q.equal("state", string(f.State))
	if f.State == StateRunning {
		// The running runs are not in runs_open_state; they hold a lease.
		q.where("lease_until is not null")
	}
	if f.Tenant != "" {
		// The tenant indexes hold only rows with a tenant.
		q.equal("tenant", f.Tenant)
		q.where("tenant <> ''")
	}
	q.equal("idem_key", f.Key)
	q.equal("concurrency_key", f.ConcurrencyKey)
	q.idPrefix(f.IDPrefix)
	q.created(f)
	op, order := "<", "desc"
	if backward {
		op, order = ">", "asc"
	}
	if cursor != nil {
		q.where("id " + op + " " + q.param(*cursor) + "::uuid")
	}
	return q.sql(order, f.Limit+1), q.args
}

// param adds v to the arguments and answers its placeholder.
func (q *listQuery) param(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

func (q *listQuery) where(cond string) { q.conds = append(q.conds, cond) }

// equal adds column = v, when v is given.
func (q *listQuery) equal(column, v string) {
	if v != "" {
		q.where(column + " = " + q.param(v))
	}
}

// idPrefix adds the id range an id prefix stands for: the same ids as
// id::text like prefix || '%', read through an id index.
func (q *listQuery) idPrefix(prefix string) {
	if prefix == "" {
		return
	}
	lower, upper, ok := prefixRange(prefix)
	if !ok {
		q.where("false")
		return
	}
	q.where("id >= " + q.param(lower) + "::uuid")
	if upper != nil {
		q.where("id < " + q.param(*upper) + "::uuid")
	}
}

// created adds the created range, and the ids made within idTimeMargin of
// it, so that an id index bounds the rows read (created_at has none).
func (q *listQuery) created(f ListFilter) {
	if !f.CreatedFrom.IsZero() {
		q.where("created_at >= " + q.param(f.CreatedFrom) + "::timestamptz")
		lower, _ := idAt(f.CreatedFrom.Add(-idTimeMargin))
		q.where("id >= " + q.param(lower) + "::uuid")
	}
	if !f.CreatedTo.IsZero() {
		q.where("created_at < " + q.param(f.CreatedTo) + "::timestamptz")
		if upper, ok := idAt(f.CreatedTo.Add(idTimeMargin + time.Millisecond)); ok {
			q.where("id < " + q.param(upper) + "::uuid")
		}
	}
}

// sql answers the statement: the rows in id order (newest first going
// forward, oldest first going backward), limit of them.
func (q *listQuery) sql(order string, limit int) string {
	var b strings.Builder
	b.WriteString("select " + listColumns + " from pipe.jobs")
	for i, c := range q.conds {
		if i == 0 {
			b.WriteString(" where ")
		} else {
			b.WriteString(" and ")
		}
		b.WriteString(c)
	}
	b.WriteString(" order by id " + order + " limit " + q.param(limit))
	return b.String()
}
