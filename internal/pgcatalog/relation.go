package pgcatalog

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/pg"
)

// Class is a relation as pg_class holds it.
type Class struct {
	OID  uint32
	Kind Kind
	// Populated is false only for a materialized view made WITH NO DATA
	// and not refreshed since.
	Populated bool
}

// Kind is pg_class.relkind.
type Kind string

// The kinds the factories tell apart.
const (
	Table            Kind = "r"
	PartitionedTable Kind = "p"
	View             Kind = "v"
	MaterializedView Kind = "m"
	ForeignTable     Kind = "f"
	Sequence         Kind = "S"
)

// IsTable reports whether k is a table, partitioned or not: what rows are
// written into.
func (k Kind) IsTable() bool { return k == Table || k == PartitionedTable }

// Noun names k in a message: "a view", "a materialized view".
func (k Kind) Noun() string {
	switch k {
	case Table:
		return "a table"
	case PartitionedTable:
		return "a partitioned table"
	case View:
		return "a view"
	case MaterializedView:
		return "a materialized view"
	case ForeignTable:
		return "a foreign table"
	case Sequence:
		return "a sequence"
	}
	return "a relation of kind " + string(k)
}

// Lookup answers the relation rel names, as the search path resolves it
// when rel has no schema; found is false when there is none. A name
// PostgreSQL would not keep as given is X_NAME_INVALID, never looked up:
// the server would cut it and could find another relation.
func Lookup(ctx context.Context, q Querier, rel pg.Relation) (c Class, found bool, err error) {
	if err := rel.Check(); err != nil {
		return Class{}, false, err
	}
	err = q.QueryRow(ctx, sqlRelation, rel.Quoted()).Scan(&c.OID, &c.Kind, &c.Populated)
	if errors.Is(err, pgx.ErrNoRows) {
		return Class{}, false, nil
	}
	return c, err == nil, err
}
