package exportrows

import (
	"slices"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

func keyErr(format string, args ...any) *errcode.Error {
	return errcode.New(errcode.ExportKeyInvalid, format, args...).
		WithFix("order the export by the primary key, declare a Key of columns unique together and never NULL, or read a table in snapshot order (Order snapshot, --order snapshot), which needs no key")
}

// checkKey refuses a key the table cannot page by: none at all, a column
// it lacks, a nullable column of a table, and a declared key that no unique
// index lies within (a view cannot be checked, and is trusted).
func (t *table) checkKey(key []string, declared bool, label string) error {
	if len(key) == 0 {
		return keyErr("export %s: the table has no primary key and no ordering key is declared", label)
	}
	for _, k := range key {
		if !slices.Contains(t.Columns, k) {
			return keyErr("export %s: the key column %s is not a column of the table", label, k)
		}
		if t.Kind.IsTable() {
			if !t.NotNull[k] {
				return keyErr("export %s: the key column %s is nullable", label, k)
			}
		}
	}
	if declared && strings.Contains("rpm", string(t.Kind)) && !t.uniqueWithin(key) {
		return keyErr("export %s: no primary key or unique index lies within the key (%s)", label, strings.Join(key, ", "))
	}
	return nil
}

// uniqueWithin reports whether some unique index's columns are all in key.
func (t *table) uniqueWithin(key []string) bool {
	for _, u := range t.Uniques {
		if len(without(u, key)) == 0 {
			return true
		}
	}
	return false
}

// checkKeyTypes refuses key columns whose values cannot order pages.
func checkKeyTypes(p plan) error {
	for _, c := range columnsOf(p) {
		if !slices.Contains(p.Key, c.Name) {
			continue
		}
		if c.kind == kArray || c.kind == kJSON {
			return keyErr("export %s: the key column %s is an array or json", p.Name, c.Name)
		}
	}
	return nil
}

// keyKeeper keeps the key of the last row a page read.
type keyKeeper struct {
	label string
	idx   []int // the key's columns in the row, in key order
	cols  []column
	raw   [][]byte
}

func newKeyKeeper(cols []column, p plan) keyKeeper {
	k := keyKeeper{label: p.Name, raw: make([][]byte, len(p.Key))}
	for _, name := range p.Key {
		i := slices.IndexFunc(cols, func(c column) bool { return c.Name == name })
		k.idx, k.cols = append(k.idx, i), append(k.cols, cols[i])
	}
	return k
}

// keep copies the row's key; a NULL in it is refused.
func (k *keyKeeper) keep(vals [][]byte) error {
	for j, i := range k.idx {
		v := vals[i]
		if v == nil {
			return keyErr("export %s: the key column %s holds a NULL", k.label, k.cols[j].Name)
		}
		k.raw[j] = append(k.raw[j][:0], v...)
	}
	return nil
}

// texts answers the kept key as text each type's input reads back.
func (k *keyKeeper) texts() []string {
	out := make([]string, len(k.raw))
	for j, raw := range k.raw {
		out[j] = string(appendText(nil, k.cols[j], raw))
	}
	return out
}
