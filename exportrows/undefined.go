package exportrows

import (
	"errors"
	"unicode"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// undefinedColumn names the column a source's SQL names and the server
// does not know (SQLSTATE 42703, a typo in a Where filter), read from the
// statement at the position the server gives — an identifier the operator
// wrote, never a value — or answers nil for any other failure.
func undefinedColumn(err error, sql, label string) error {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || pg.Code != "42703" || pg.Position <= 0 {
		return nil
	}
	name := identifierAt([]rune(sql), int(pg.Position)-1)
	if name == "" {
		return nil
	}
	return errcode.Wrap(err, errcode.ExportSourceInvalid, "export %s: the source does not read: it names no column %s (SQLSTATE 42703)", label, name).
		WithFix("correct the name in the Where filter (or the query): unquoted names are folded to lower case, \"Quoted\" ones match exactly, "+
			"and a value is written in single quotes").
		WithMeta("sqlstate", pg.Code)
}

// identifierAt answers the (dotted, possibly quoted) identifier that starts
// at rune i of sql, at most 200 runes, or "".
func identifierAt(sql []rune, i int) string {
	start := i
	for i < len(sql) && i-start < 200 {
		if sql[i] == '"' {
			i = quotedEnd(sql, i)
		} else {
			j := i
			for i < len(sql) && (unicode.IsLetter(sql[i]) || sql[i] == '_' || i > j && (unicode.IsDigit(sql[i]) || sql[i] == '$')) {
				i++
			}
			if i == j {
				break
			}
		}
		if i >= len(sql) || sql[i] != '.' {
			break
		}
		i++
	}
	if i > len(sql) || i == start {
		return ""
	}
	return string(sql[start:min(i, start+200)])
}

// quotedEnd answers the index after the quoted identifier opening at i
// ("" inside is a quote), or len(sql)+1 when it does not close.
func quotedEnd(sql []rune, i int) int {
	for i++; i < len(sql); i++ {
		if sql[i] != '"' {
			continue
		}
		if i+1 < len(sql) && sql[i+1] == '"' {
			i++
			continue
		}
		return i + 1
	}
	return len(sql) + 1
}
