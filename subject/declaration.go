package subject

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// Declaration is one person's data, declared once: the table holding one
// row per person, a treatment for every table the walk reaches from it,
// the tables that hold the person's key without a foreign key, the
// objects kept outside the database and the columns never exported. It is
// a plain value, the same in Go and in JSON ([Load] reads the JSON form;
// subject.schema.json describes it).
type Declaration struct {
	// Root is the table with one row per person, named as SQL writes it
	// (see pg.ParseRelation): "members", "app.members" outside the search
	// path, `app."Member Notes"` for a name with capitals or spaces; a bare
	// name is folded to lower case. Required.
	Root string `json:"root"`
	// Key names the root's columns that identify the person, in the order
	// the key's values come. Default: the root's primary key.
	Key []string `json:"key,omitempty"`
	// Tables is each reached table's treatment, the root's included,
	// named as Root is. Nothing defaults: a reached table without a
	// treatment refuses the plan with X_SUBJECT_TABLE_UNDECLARED.
	Tables map[string]Treatment `json:"tables"`
	// Columns names tables that hold the person's key without a foreign
	// key (an audit copy, a denormalised owner column): each table's
	// columns holding the key's values, in key order. Such a table is
	// reached from the root and needs a treatment too. Default none.
	Columns map[string][]string `json:"columns,omitempty"`
	// Objects are the person's objects outside the database: erased with
	// the rows, copied into the export. Default none.
	Objects []Objects `json:"objects,omitempty"`
	// Targets are the person's data elsewhere, reached by Go code: erased
	// and exported with the rest (see [Target]). They have no JSON form: a
	// declaration loaded from a file declares none. Default none.
	Targets []Targets `json:"-"`
	// Sealed are columns that never leave in an export (a password hash, a
	// card token): each table's sealed columns. Default none.
	Sealed map[string][]string `json:"sealed,omitempty"`
	// Proof adjusts the proof of the declaration: what `pipe subject
	// proof` passes to [Proof]. It changes no erase or export. Default:
	// [ProofOptions]' defaults.
	Proof ProofOptions `json:"proof,omitzero"`
}

// Objects are the person's objects in a bucket: every object under a key
// prefix built from the person's key.
type Objects struct {
	// Name names the objects in the plan, the export and errors. Required.
	Name string `json:"name"`
	// Bucket is the bucket's URL (see blob.Open). Required.
	Bucket string `json:"bucket"`
	// Prefix is the key prefix of the person's objects, with the root key's
	// columns in braces: "avatars/{id}/". Each placeholder is replaced by
	// the key's value; a value that would make an invalid key (a "/", "..")
	// is refused. Required, with at least one placeholder.
	Prefix string `json:"prefix"`
	// Retain, when set, keeps the objects on erase (they are still
	// exported) and says why. Default: the objects are deleted.
	Retain string `json:"retain,omitempty"`
}

// Load reads a declaration from a JSON file (see subject.schema.json). A
// file that does not parse, or names a field the declaration does not
// have, is X_CONFIG_INVALID.
func Load(path string) (Declaration, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Declaration{}, errcode.Wrap(err, errcode.ConfigInvalid, "subject: the declaration file does not read").
			WithFix("name a readable JSON file")
	}
	return Parse(raw)
}

// Parse reads a declaration from its JSON form.
func Parse(raw []byte) (Declaration, error) {
	var d Declaration
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		return d, errcode.Wrap(err, errcode.ConfigInvalid, "subject: the declaration does not parse: %s", jsonProblem(err)).
			WithFix("write the declaration as subject.schema.json describes: root, tables, and optionally key, columns, objects, sealed")
	}
	return d, nil
}

// jsonProblem answers what is wrong with a declaration's JSON, without its
// values: the offset of a syntax error or the field that does not fit.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case asErr(err, &syn):
		return "a syntax error near byte " + itoa(syn.Offset)
	case asErr(err, &typ):
		return "field " + typ.Field + " is not a " + typ.Type.String()
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ")
	case strings.HasPrefix(err.Error(), "subject:"):
		return strings.TrimPrefix(err.Error(), "subject: ")
	}
	return "it is not one JSON object"
}

// shapeFaults names what is wrong with the declaration before the catalog
// is read: a missing root, a blank reason, a malformed objects entry.
func (d Declaration) shapeFaults() []string {
	var faults []string
	add := func(cond bool, fault string) {
		if cond {
			faults = append(faults, fault)
		}
	}
	add(strings.TrimSpace(d.Root) == "", "root is empty")
	add(len(d.Tables) == 0, "tables is empty: every reached table needs a treatment, the root's included")
	for _, name := range sortedKeys(d.Tables) {
		faults = append(faults, d.Tables[name].faults(name)...)
	}
	for _, name := range sortedKeys(d.Columns) {
		add(len(d.Columns[name]) == 0, "columns of "+name+" names no column")
	}
	names := map[string]bool{}
	for i, o := range d.Objects {
		label := "objects " + itoa(int64(i))
		if o.Name != "" {
			label = "objects " + o.Name
		}
		add(strings.TrimSpace(o.Name) == "", label+": name is empty")
		add(names[o.Name], label+": the name is used twice")
		names[o.Name] = true
		add(strings.TrimSpace(o.Bucket) == "", label+": bucket is empty")
		add(!strings.Contains(o.Prefix, "{"), label+": prefix has no {column} placeholder of the root key")
		add(o.Retain != "" && strings.TrimSpace(o.Retain) == "", label+": retain is blank: say why the objects are kept")
	}
	return append(faults, d.targetsFaults()...)
}
