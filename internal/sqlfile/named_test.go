package sqlfile

import (
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestNamedRewritesOnceInPgxsOrder(t *testing.T) {
	n := NewNamed("-- @not_a_parameter\nselect @b::int, @a, '@quoted', payload @> @b::jsonb")
	if want := "-- @not_a_parameter\nselect $1::int, $2, '@quoted', payload @> $1::jsonb"; n.SQL != want {
		t.Fatalf("SQL %q; want %q", n.SQL, want)
	}
	if got := n.Args(pgx.NamedArgs{"a": 1, "b": 2, "unused": 3}); !slices.Equal(got, []any{2, 1}) {
		t.Fatalf("args %v; want [2 1]", got)
	}
	if got := n.Args(pgx.NamedArgs{"b": 2}); got[1] != nil {
		t.Fatalf("a missing parameter is %v; want NULL", got[1])
	}
}
