package subject

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/options"
	"github.com/pipekit/pipe/pipeline"
)

// ProofOptions adjust [Proof]. Each field's comment gives its default.
type ProofOptions struct {
	// Values give columns a value the proof cannot generate (a check
	// constraint's, a type it does not know): table -> column -> value, a
	// constant as in an anonymize. Default none.
	Values map[string]map[string]any `json:"values,omitempty"`
	// Rows is how many rows each reached table gets for each person.
	// Default 2.
	Rows int `json:"rows,omitempty"`
	// PageRows is the erase's page size. Default 1: every page boundary
	// is crossed.
	PageRows int `json:"pageRows,omitempty"`
	// Everywhere searches every table of the database for the person's
	// canaries, not only the reached ones: a trigger's copy is caught too.
	// Default false.
	Everywhere bool `json:"everywhere,omitempty"`
}

// ProofReport is what a passing proof did.
type ProofReport struct {
	Root   string       `json:"root"`
	Tables []ProofTable `json:"tables"`
	// Searched counts the tables searched for the person's canaries.
	Searched int `json:"searched"`
	// Objects counts the canary objects seeded for the person and
	// removed by the erase.
	Objects int `json:"objects,omitempty"`
}

// ProofTable is one reached table of a proof.
type ProofTable struct {
	Table     string `json:"table"`
	Treatment string `json:"treatment"`
	// Rows is how many rows were seeded for each person.
	Rows int `json:"rows"`
	// Canaries are the columns seeded with a canary value; Short the
	// text columns too short to hold one (the proof cannot see them).
	Canaries []string `json:"canaries,omitempty"`
	Short    []string `json:"short,omitempty"`
}

// Proof proves a declaration against a real database: inside one
// transaction, rolled back at the end so that nothing stays, it seeds
// every reached table with rows of a generated person and of a generated
// bystander — canary values in every column that can hold text — erases
// the person exactly as the erase job does, then searches every stored row
// of every reached table. The person's canary found outside a retain (or
// a kept column of an anonymize) is X_SUBJECT_ERASE_INCOMPLETE naming each
// table and column, as is a row of the person left in a deleted table; a
// bystander row changed or removed is X_SUBJECT_BYSTANDER_TOUCHED. A
// declaration the plan refuses is refused with the plan's code. Declared
// objects are seeded as canary objects in their real buckets and removed
// after.
//
// The rollback undoes what PostgreSQL rolls back, not more: a sequence
// advanced by an anonymize expression (an SQL value calling nextval()) or
// by a seeded row's default stays advanced, and an expression's other
// effects outside the transaction (a function writing through dblink)
// stay done. Prove such a declaration on a copy of the schema.
//
// Proof takes at most one ProofOptions; a second is X_INVARIANT.
func Proof(ctx context.Context, db pipeline.DB, d Declaration, opts ...ProofOptions) (*ProofReport, error) {
	o, err := proofDefaults(opts)
	if err != nil {
		return nil, err
	}
	tx, err := db.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	d.Targets = nil // code the proof cannot seed: a target is the app's to test
	ex := &eraser{decl: d, limit: o.PageRows, steps: txSteps{db: tx}}
	g, err := ex.graphIn(ctx, tx)
	if err != nil {
		return nil, err
	}
	s := newSeeder(g, tx, o)
	person, err := s.seedPerson(ctx, "person")
	if err != nil {
		return nil, err
	}
	bystander, err := s.seedPerson(ctx, "bystander")
	if err != nil {
		return nil, err
	}
	if err := s.snapshot(ctx, bystander); err != nil {
		return nil, err
	}
	objs, err := s.seedObjects(ctx, person, bystander)
	defer s.removeObjects(context.WithoutCancel(ctx), objs)
	if err != nil {
		return nil, err
	}
	ex.key = person.key
	if _, err := ex.erase(ctx); err != nil {
		return nil, err
	}
	return s.search(ctx, person, bystander, objs)
}

func proofDefaults(opts []ProofOptions) (ProofOptions, error) {
	o, err := options.One("subject proof", opts)
	if o.Rows <= 0 {
		o.Rows = 2
	}
	if o.PageRows <= 0 {
		o.PageRows = 1
	}
	return o, err
}

// token answers a fresh canary token: "cn" and 8 hex digits, which no
// real value holds by chance.
func token() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "cn" + hex.EncodeToString(b)
}

// incomplete answers X_SUBJECT_ERASE_INCOMPLETE naming every place the
// person's data was found.
func incomplete(root string, found []string) error {
	return errcode.New(errcode.SubjectEraseIncomplete, "subject %s: after the erase, %s", root, strings.Join(found, "; ")).
		WithFix("anonymize the named columns (or delete their table), or declare a column kept with its reason")
}
