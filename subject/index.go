package subject

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
)

// IndexName is the index's name in an export run's directory. It is
// written last: without it the export is not complete.
const IndexName = "index.json"

// Index describes one complete export of one person:
// <prefix>/<runId>/index.json.
type Index struct {
	// Root is the root table; RunID the run that wrote the export.
	Root  string `json:"root"`
	RunID string `json:"runId"`
	// Format and Compression are every part's.
	Format      exportrows.Format `json:"format"`
	Compression blob.Compression  `json:"compression"`
	// Tables are every reached table, in erase order, with or without
	// rows of the person.
	Tables []IndexTable `json:"tables"`
	// Objects are the declared objects copied into objects/<name>/.
	Objects []ObjectsCopied `json:"objects"`
	// Targets are the declared targets exported into targets/<name>/.
	Targets []TargetExported `json:"targets,omitempty"`
	// StartedAt and CompletedAt are the database clock when the run
	// planned and when it wrote this index.
	StartedAt   time.Time `json:"startedAt"`
	CompletedAt time.Time `json:"completedAt"`
}

// IndexTable is one table of an export.
type IndexTable struct {
	Table string `json:"table"`
	// Treatment is the table's treatment on erase (delete, anonymize or
	// retain) and Reason a retain's reason: what the person is told happens
	// to these rows.
	Treatment string `json:"treatment"`
	Reason    string `json:"reason,omitempty"`
	// Rows counts the person's rows exported; Parts are the objects holding
	// them, in row order.
	Rows  int64             `json:"rows"`
	Parts []exportrows.Part `json:"parts"`
	// Sealed are the columns left out.
	Sealed []string `json:"sealed,omitempty"`
}

// ObjectsCopied is one declared Objects entry of an export.
type ObjectsCopied struct {
	Name   string `json:"name"`
	Retain string `json:"retain,omitempty"`
	// Keys are the copies' keys; Bytes their total size.
	Keys  []string `json:"keys"`
	Bytes int64    `json:"bytes"`
}

// ReadIndex reads the index at key (an [ExportResult]'s Index). A missing
// index is X_BLOB_NOT_FOUND: the export is not complete.
func ReadIndex(ctx context.Context, b *blob.Bucket, key string) (*Index, error) {
	r, err := b.NewReader(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var idx Index
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&idx); err != nil {
		return nil, errcode.Wrap(err, errcode.JobInputInvalid, "subject export index %s does not decode", key).
			WithFix("read an index.json a subject export wrote")
	}
	return &idx, nil
}

// writeIndex writes index.json, last, in a step of its own.
func (ex *exporter) writeIndex(ctx context.Context, idx Index) (string, error) {
	key, err := blob.JoinKey(ex.dir, IndexName)
	if err != nil {
		return "", err
	}
	_, err = ex.steps.tx(ctx, "index", func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
		if err := tx.QueryRow(ctx, "select pipe.now()").Scan(&idx.CompletedAt); err != nil {
			return pageOut{}, err
		}
		data, err := json.MarshalIndent(idx, "", "  ")
		if err != nil {
			return pageOut{}, err
		}
		return pageOut{}, ex.bucket.WriteBytes(ctx, key, append(data, '\n'), blob.WriteOptions{ContentType: "application/json"})
	})
	return key, err
}

// copyObjects copies the person's objects of every declared entry, the
// retained ones too, into objects/<name>/, one step per entry.
func (ex *exporter) copyObjects(ctx context.Context, p *Plan) ([]ObjectsCopied, error) {
	out := []ObjectsCopied{}
	for _, o := range p.Objects {
		var c ObjectsCopied
		res, err := ex.steps.plain(ctx, "objects/"+o.Name, func(ctx context.Context) (pageOut, error) {
			var err error
			c, err = ex.copyEntry(ctx, o, p.Key)
			return pageOut{Found: int64(len(c.Keys)), Changed: c.Bytes, After: c.Keys}, err
		})
		if err != nil {
			return out, err
		}
		out = append(out, ObjectsCopied{Name: o.Name, Retain: o.Retain, Keys: append([]string{}, res.After...), Bytes: res.Changed})
	}
	return out, nil
}

// copyEntry copies the person's objects of o into the export.
func (ex *exporter) copyEntry(ctx context.Context, o Objects, keyCols []string) (ObjectsCopied, error) {
	c := ObjectsCopied{Name: o.Name, Retain: o.Retain}
	key, err := objectKey(o, keyCols, ex.key)
	if err != nil {
		return c, err
	}
	src, err := blob.Open(ctx, o.Bucket)
	if err != nil {
		return c, err
	}
	defer src.Close()
	objs, err := personObjects(ctx, src, key)
	if err != nil {
		return c, err
	}
	base := key[:strings.LastIndexByte(key, '/')+1]
	for _, obj := range objs {
		dst, err := blob.JoinKey(ex.dir, "objects", o.Name, strings.TrimPrefix(obj.Key, base))
		if err != nil {
			return c, err
		}
		n, err := copyObject(ctx, src, obj.Key, ex.bucket, dst)
		if err != nil {
			return c, fmt.Errorf("copy objects %s: %w", o.Name, err)
		}
		c.Keys, c.Bytes = append(c.Keys, dst), c.Bytes+n
	}
	return c, nil
}

func copyObject(ctx context.Context, src *blob.Bucket, key string, dst *blob.Bucket, to string) (int64, error) {
	r, err := src.NewReader(ctx, key)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	var n int64
	err = dst.Write(ctx, to, blob.WriteOptions{}, func(w io.Writer) error {
		var err error
		n, err = io.Copy(w, r)
		return err
	})
	return n, err
}
