package project

import (
	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Backfill declares one backfill pass in SQL: a statement run over each
// batch of a table's rows in key order, each batch's effect committed with
// its checkpoint.
type Backfill struct {
	// Name is the job's durable name, unique among the file's declarations.
	Name string `json:"name" jsonschema:"minLength=1"`
	// Table is the table walked, as SQL names it. Exactly one of table and
	// query.
	Table string `json:"table,omitempty"`
	// Query is a SELECT walked instead of a table; key names its key column.
	Query string `json:"query,omitempty"`
	// Key is the key column: one column, unique and never NULL. Default: the
	// table's one-column primary key.
	Key string `json:"key,omitempty"`
	// SQL is one UPDATE, DELETE or INSERT … SELECT over the batch's range,
	// $1 its first key and $2 its last, both inclusive.
	SQL string `json:"sql" jsonschema:"minLength=1"`
	// Target is the duration a batch aims at, such as 200ms. Default 200ms.
	Target string `json:"target,omitempty" jsonschema:"pattern=^([0-9]+(ms|s|m|h|d|w))+$"`
	// Batch, MinBatch and MaxBatch are the first batch's size and the
	// bounds of the size. Defaults 1000, 10 and 100000.
	Batch    int `json:"batch,omitempty" jsonschema:"minimum=1"`
	MinBatch int `json:"minBatch,omitempty" jsonschema:"minimum=1"`
	MaxBatch int `json:"maxBatch,omitempty" jsonschema:"minimum=1"`
	// Rate caps the pass at so many rows a second. Default none.
	Rate float64 `json:"rate,omitempty" jsonschema:"minimum=0"`
	// Queue is the queue the pass runs in. Default: default.
	Queue string `json:"queue,omitempty"`
	// Attempts is how many attempts a pass gets before it is dead-lettered
	// (its cursor kept). Default 3.
	Attempts int `json:"attempts,omitempty" jsonschema:"minimum=1"`
	// Health are the limits past which the pass waits for the database: a
	// replica's lag, a long transaction, the transaction id age. Default:
	// each limit's default.
	Health *BackfillHealth `json:"health,omitempty"`
}

func declareBackfill(b Backfill, at string) (*Declaration, error) {
	var faults []string
	o := backfill.Options[backfill.Request]{
		Table: relation("table", b.Table, &faults), Query: b.Query, Key: b.Key, SQL: b.SQL,
		Batch: b.Batch, MinBatch: b.MinBatch, MaxBatch: b.MaxBatch, Rate: b.Rate,
	}
	if b.Target != "" {
		d, err := pipeline.ParseDuration(b.Target)
		if err != nil {
			faults = append(faults, "target: "+errcode.CodeOf(err).Error()+" (write it as 200ms or 1s)")
		}
		o.Target = d
	}
	var hf, jf []string
	o.Health, hf = b.Health.health()
	faults = append(faults, hf...)
	o.Job, jf = jobOptions[backfill.Request, backfill.Result](b.Queue, b.Attempts, "")
	faults = append(faults, jf...)
	if len(faults) > 0 {
		return nil, errcode.New(errcode.BackfillInvalid, "backfill %s: %s", b.Name, under(at, faults)).
			WithFix("correct " + under(at, faults))
	}
	job, err := backfill.New(b.Name, backfill.PassKey, o)
	if err != nil {
		return nil, inFileKeys(err, at, "backfill "+b.Name+": ")
	}
	return &Declaration{Kind: "backfill", Name: b.Name, Job: job, Backfill: job, at: at}, nil
}
