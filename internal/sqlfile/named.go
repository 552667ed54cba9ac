package sqlfile

import (
	"context"
	"regexp"

	"github.com/jackc/pgx/v5"
)

// Named is a statement written with named parameters (@ids, @queue), as
// pgx.NamedArgs takes them, rewritten to positional ones ($1, $2...) once,
// when the program starts. pgx.NamedArgs rewrites the text at every call —
// a lexer pass over it, some 40 µs for the enqueue statement — which a
// one-row enqueue would pay on every call.
type Named struct {
	// SQL is the statement with positional parameters.
	SQL   string
	names []string // the parameter each position stands for
}

// namePattern finds the candidate parameter names; pgx's own rewrite
// decides which of them are parameters (not in a comment or a string).
var namePattern = regexp.MustCompile(`@([A-Za-z_][A-Za-z0-9_]*)`)

// NewNamed rewrites sql's named parameters to positional ones, numbered by
// first appearance, the way pgx.NamedArgs does.
func NewNamed(sql string) Named {
	probe := pgx.NamedArgs{}
	for _, m := range namePattern.FindAllStringSubmatch(sql, -1) {
		probe[m[1]] = m[1]
	}
	positional, order, err := probe.RewriteQuery(context.Background(), nil, sql, nil)
	if err != nil {
		panic("sqlfile: rewrite named parameters: " + err.Error())
	}
	n := Named{SQL: positional, names: make([]string, len(order))}
	for i, name := range order {
		n.names[i] = name.(string)
	}
	return n
}

// Args answers args in the statement's positional order. A parameter args
// does not name is NULL, as with pgx.NamedArgs.
func (n Named) Args(args pgx.NamedArgs) []any {
	out := make([]any, len(n.names))
	for i, name := range n.names {
		out[i] = args[name]
	}
	return out
}
