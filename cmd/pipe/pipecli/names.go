package pipecli

import (
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
)

// relationArg reads a relation named on the command line (where: --into,
// TABLE) as SQL writes it: bare names folded to lower case, "Quoted Names"
// kept. One that does not parse is the command's code (code).
func relationArg(code errcode.Code, command, where, s string) (pg.Relation, error) {
	r, err := pg.ParseRelation(s)
	if err != nil {
		return r, errcode.Wrap(err, code, "%s: %s: %s", command, where, pgcatalog.Fault(err)).
			WithFix(`name it as SQL does: table or schema.table; quote a name with capitals, spaces or dashes, as '"Sales"."Order Items"'`)
	}
	return r, nil
}

// namesArg reads the column names of a flag given once or more (where:
// --key), each use a comma-separated list as SQL writes one.
func namesArg(code errcode.Code, command, where string, values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		names, err := pg.ParseNames(v)
		if err != nil {
			return nil, errcode.Wrap(err, code, "%s: %s: %s", command, where, pgcatalog.Fault(err)).
				WithFix(`name columns as SQL does, comma-separated: id,"Order Id"`)
		}
		out = append(out, names...)
	}
	return out, nil
}
