package storebench

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// planNode is one node of an EXPLAIN (FORMAT JSON) plan.
type planNode struct {
	Type            string     `json:"Node Type"`
	Relation        string     `json:"Relation Name"`
	Index           string     `json:"Index Name"`
	Function        string     `json:"Function Name"`
	Direction       string     `json:"Scan Direction"`
	SubplansRemoved int        `json:"Subplans Removed"`
	Plans           []planNode `json:"Plans"`
}

// explainAll answers the scans of the plan of each statement of one call
// that reads: EXPLAIN (FORMAT JSON) of its SQL with its arguments, in one
// transaction (rolled back) where the call's settings (select
// set_config(...), set local) run first as they ran before it. A statement
// that is itself an EXPLAIN (a planner's estimate) is left out.
func explainAll(ctx context.Context, pool *pgxpool.Pool, sent []statement) ([]string, error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	var out []string
	for _, st := range sent {
		head := strings.ToLower(strings.TrimSpace(st.sql))
		switch {
		case strings.HasPrefix(head, "explain"):
		case strings.HasPrefix(head, "set ") || strings.HasPrefix(head, "select set_config("):
			if _, err := tx.Exec(ctx, st.sql, st.args...); err != nil {
				return nil, err
			}
		default:
			plan, err := explain(ctx, tx, st)
			if err != nil {
				return nil, err
			}
			out = append(out, plan)
		}
	}
	return out, nil
}

// explain answers the scans of st's plan: EXPLAIN (FORMAT JSON) of its SQL
// with its arguments, summarized by scans.
func explain(ctx context.Context, tx pgx.Tx, st statement) (string, error) {
	var raw []byte
	if err := tx.QueryRow(ctx, "explain (format json) "+st.sql, st.args...).Scan(&raw); err != nil {
		return "", fmt.Errorf("explain: %w", err)
	}
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", fmt.Errorf("explain: %w", err)
	}
	if len(doc) == 0 {
		return "no plan", nil
	}
	return scans(doc[0].Plan), nil
}

// scanGroup is a run of like scans in a plan: one scan of each of n
// partitions reads as one group.
type scanGroup struct {
	desc string
	n    int
}

// maxGroups is how many scan groups a summary names.
const maxGroups = 4

// scans summarizes the plan's scan nodes in plan order: each node type
// with its relation and index, the partitions' names folded (runs_done_*),
// a count for the like ones, and the partitions pruned at run time.
func scans(root planNode) string {
	var groups []scanGroup
	pruned := 0
	var walk func(n planNode)
	walk = func(n planNode) {
		pruned += n.SubplansRemoved
		if d, ok := scanOf(n); ok {
			for i := range groups {
				if groups[i].desc == d {
					groups[i].n++
					return
				}
			}
			groups = append(groups, scanGroup{desc: d, n: 1})
			return
		}
		for _, c := range n.Plans {
			walk(c)
		}
	}
	walk(root)
	var parts []string
	for i, g := range groups {
		if i == maxGroups {
			parts = append(parts, fmt.Sprintf("+%d more", len(groups)-maxGroups))
			break
		}
		if g.n > 1 {
			parts = append(parts, fmt.Sprintf("%s ×%d", g.desc, g.n))
		} else {
			parts = append(parts, g.desc)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no scan")
	}
	s := strings.Join(parts, "; ")
	if pruned > 0 {
		s += fmt.Sprintf(" (%d pruned at run time)", pruned)
	}
	return s
}

// scanOf describes n when it is a scan of a table, an index or a
// function: a bitmap heap scan names the indexes of the bitmap scans under
// it.
func scanOf(n planNode) (string, bool) {
	if !strings.HasSuffix(n.Type, " Scan") || n.Type == "Subquery Scan" || n.Type == "CTE Scan" || n.Type == "WorkTable Scan" {
		return "", false
	}
	typ := strings.ToLower(n.Type)
	if n.Direction == "Backward" {
		typ += " backward"
	}
	switch {
	case n.Type == "Function Scan":
		return typ + " " + n.Function, true
	case n.Type == "Bitmap Heap Scan":
		var idx []string
		for _, c := range n.Plans {
			idx = append(idx, bitmapIndexes(c)...)
		}
		return fmt.Sprintf("%s on %s using %s", typ, fold(n.Relation), fold(strings.Join(idx, "+"))), true
	case n.Index != "":
		return fmt.Sprintf("%s on %s using %s", typ, fold(n.Relation), fold(n.Index)), true
	case n.Relation != "":
		return fmt.Sprintf("%s on %s", typ, fold(n.Relation)), true
	}
	return typ, true
}

func bitmapIndexes(n planNode) []string {
	if n.Index != "" {
		return []string{n.Index}
	}
	var out []string
	for _, c := range n.Plans {
		out = append(out, bitmapIndexes(c)...)
	}
	return out
}

// partitionName matches the name of a finished partition (and the start
// of its indexes' names): runs_done_20250101, run_events_dead_old.
var partitionName = regexp.MustCompile(`\b(runs|run_events)_(done|dead)_(old|\d{8}(_gap)?)`)

// fold writes a partition's name as its tree's, runs_done_*, so that the
// scans of a tree's partitions read as one.
func fold(name string) string {
	return partitionName.ReplaceAllString(name, "${1}_${2}_*")
}
