package exportrows

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// ManifestName is the manifest's name in a run's directory. It is written
// last: without it the export is not complete.
const ManifestName = "manifest.json"

// Manifest describes one complete export: <prefix>/<runId>/manifest.json.
type Manifest struct {
	// Name is the table, as SQL writes it (sales."Order Items"), or the
	// query's name; Source says which: "table" or "query".
	Name   string `json:"name"`
	Source string `json:"source"`
	RunID  string `json:"runId"`
	// Columns are the exported columns in file order, with their
	// PostgreSQL types (format_type's spelling).
	Columns []Column `json:"columns"`
	// Key is the ordering key: the rows are in its order, part after part.
	// Empty for a snapshot export, whose rows are in storage order.
	Key []string `json:"key"`
	// Order is how the run read: key, or snapshot (see [Snapshot]).
	Order Order `json:"order"`
	// Snapshots is, for a snapshot export, how many snapshots its parts
	// were read in: 1 is a point-in-time export; more means a resumed run
	// read its later parts in a later snapshot.
	Snapshots int `json:"snapshots,omitempty"`
	// Ranges is, for a parallel export, how many child runs read its key
	// ranges, every one in the one snapshot its parent held (Snapshots is
	// then 1): a point-in-time export in key order.
	Ranges      int              `json:"ranges,omitempty"`
	Format      Format           `json:"format"`
	Compression blob.Compression `json:"compression"`
	// Parts are every object of the export, in order; none for an empty
	// source.
	Parts []Part `json:"parts"`
	// Rows and Bytes sum the parts.
	Rows  int64 `json:"rows"`
	Bytes int64 `json:"bytes"`
	// StartedAt and CompletedAt are the database clock when the run planned
	// and when it wrote this manifest.
	StartedAt   time.Time `json:"startedAt"`
	CompletedAt time.Time `json:"completedAt"`
}

// Column is one exported column.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Part is one object of an export.
type Part struct {
	// Key is the object's key in the bucket.
	Key string `json:"key"`
	// Rows, Bytes and SHA256 are its row count, its size as stored and the
	// hex SHA-256 of its bytes as stored (compressed, if it is).
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// manifestStep writes the manifest, last, in a step of its own, and
// answers its key.
func (a *attempt[In]) manifestStep(ctx context.Context, parts []Part, cur cursor) (string, error) {
	key := a.plan.Dir + "/" + ManifestName
	_, err := pipeline.StepTx(ctx, "manifest", func(ctx context.Context, tx pgx.Tx) (time.Time, error) {
		if err := a.sweep(ctx); err != nil {
			return time.Time{}, err
		}
		m := a.manifest(parts, cur)
		if err := tx.QueryRow(ctx, sqlNow).Scan(&m.CompletedAt); err != nil {
			return m.CompletedAt, errcode.Redact(ctx, err, "export manifest")
		}
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return m.CompletedAt, err
		}
		return m.CompletedAt, a.bucket.WriteBytes(ctx, key, append(data, '\n'), blob.WriteOptions{ContentType: "application/json"})
	})
	if err != nil {
		return "", err
	}
	note := progressNote(cur) + "; manifest " + key
	return key, pipeline.Progress(ctx, cur.Rows, cur.Rows, note)
}

func (a *attempt[In]) manifest(parts []Part, cur cursor) Manifest {
	p := a.plan
	m := Manifest{
		Name: p.Name, Source: "table", RunID: a.run.RunID, Key: p.Key,
		Format: p.Settings.Format, Compression: p.Settings.Compression,
		Parts: append([]Part{}, parts...), Rows: cur.Rows, Bytes: cur.Bytes, StartedAt: p.Started, Order: ByKey,
	}
	if p.Snapshot {
		m.Order, m.Snapshots, m.Key = Snapshot, max(cur.Snapshots, 1), []string{}
	}
	if a.ranges > 0 {
		m.Ranges, m.Snapshots = a.ranges, 1
	}
	if p.Query {
		m.Source = "query"
	}
	for _, c := range p.Columns {
		m.Columns = append(m.Columns, Column{Name: c.Name, Type: c.Type})
	}
	return m
}

// ReadManifest reads the manifest at key (a [Result]'s Manifest). A
// missing manifest is X_BLOB_NOT_FOUND: the export is not complete.
func ReadManifest(ctx context.Context, b *blob.Bucket, key string) (*Manifest, error) {
	r, err := b.NewReader(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var m Manifest
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&m); err != nil {
		return nil, errcode.Wrap(err, errcode.JobInputInvalid, "export manifest %s does not decode", key).
			WithFix("read a manifest.json an export wrote")
	}
	return &m, nil
}
