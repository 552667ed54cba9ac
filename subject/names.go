package subject

import (
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/pipekit/pipe/internal/pgcatalog"
)

// sortedKeys answers m's keys in order: faults and plans list tables and
// columns the same way every time.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

func quote(name string) string { return pgcatalog.Quote(name) }
