package subject

import (
	"strings"
)

// Treatment is what an erase does to a table's rows of the person: delete
// them, anonymize some of their columns, or retain them for a stated
// reason. Exactly one: use [Delete], [Anonymize] or [Retain]. In JSON it is
// "delete", {"anonymize": {...}, "keep": {...}} or {"retain": "<reason>"}.
type Treatment struct {
	// Delete deletes the person's rows. The walk goes on through the
	// table: the rows under a deleted row are the person's too.
	Delete bool
	// Anonymize replaces the named columns of the person's rows: each
	// value is a constant (a string, number, bool, nil for NULL, or a map
	// or slice for a json column, sent as JSON), which the column's type
	// must accept, or an [SQL] expression over the row. The rows stay, and
	// the walk stops here.
	Anonymize map[string]any
	// Keep names, with Anonymize, the columns of text the anonymize leaves
	// as they are, and why (a country code, a plan name): the proof does
	// not look for the person's data there. Default none.
	Keep map[string]string
	// Retain keeps the rows as they are and says why (a legal duty, work
	// that belongs to others). The walk stops here.
	Retain string

	retain bool // set by [Retain] and by JSON: a blank reason is a fault, not no treatment
}

// Delete answers the treatment that deletes the person's rows.
func Delete() Treatment { return Treatment{Delete: true} }

// Anonymize answers the treatment that replaces the person's values of
// the named columns.
func Anonymize(values map[string]any) Treatment { return Treatment{Anonymize: values} }

// Retain answers the treatment that keeps the person's rows, for reason.
func Retain(reason string) Treatment { return Treatment{Retain: reason, retain: true} }

// SQL is an anonymize value computed by PostgreSQL for each row: an
// expression over the row's columns, such as
// 'erased-' || id || '@example.invalid' for a unique column. It is SQL
// written by the application, never built from end-user input. In JSON:
// {"$sql": "<expression>"}.
type SQL string

// kind is a treatment's kind.
type kind string

const (
	kindDelete    kind = "delete"
	kindAnonymize kind = "anonymize"
	kindRetain    kind = "retain"
)

// kind answers the treatment's kind, or "" for none or more than one.
func (t Treatment) kind() kind {
	n, k := 0, kind("")
	if t.Delete {
		n, k = n+1, kindDelete
	}
	if t.Anonymize != nil {
		n, k = n+1, kindAnonymize
	}
	if t.Retain != "" || t.retain {
		n, k = n+1, kindRetain
	}
	if n != 1 {
		return ""
	}
	return k
}

// String answers the treatment as the plan prints it.
func (t Treatment) String() string {
	switch t.kind() {
	case kindDelete:
		return "delete"
	case kindAnonymize:
		return "anonymize " + strings.Join(sortedKeys(t.Anonymize), ", ")
	case kindRetain:
		return "retain"
	}
	return "invalid"
}

// faults names what is wrong with the treatment of the table declared as
// name, before the catalog is read.
func (t Treatment) faults(name string) []string {
	var faults []string
	switch t.kind() {
	case "":
		if t.Delete || t.Anonymize != nil || t.Retain != "" || t.retain {
			return []string{"table " + name + ": declare exactly one of delete, anonymize and retain"}
		}
		return []string{"table " + name + ": the treatment is empty: declare delete, anonymize or retain"}
	case kindRetain:
		if strings.TrimSpace(t.Retain) == "" {
			faults = append(faults, "table "+name+": the retain reason is blank: say why the rows are kept")
		}
	case kindAnonymize:
		if len(t.Anonymize) == 0 {
			faults = append(faults, "table "+name+": anonymize names no column")
		}
		for _, col := range sortedKeys(t.Anonymize) {
			if e, ok := t.Anonymize[col].(SQL); ok && strings.TrimSpace(string(e)) == "" {
				faults = append(faults, "table "+name+": the anonymize expression of column "+col+" is blank")
			}
		}
	}
	for _, col := range sortedKeys(t.Keep) {
		if t.kind() != kindAnonymize {
			faults = append(faults, "table "+name+": keep goes with anonymize only")
			break
		}
		if strings.TrimSpace(t.Keep[col]) == "" {
			faults = append(faults, "table "+name+": the keep reason of column "+col+" is blank: say why it stays")
		}
		if _, both := t.Anonymize[col]; both {
			faults = append(faults, "table "+name+": column "+col+" is both anonymized and kept")
		}
	}
	return faults
}
