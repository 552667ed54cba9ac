package exportrows

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// TableJobName is the durable name of [TableJob].
const TableJobName = "pipe.export"

// TableExport is the input of [TableJob]: one table to one prefix, with
// every choice in the input. `pipe export` enqueues it; an app can too.
type TableExport struct {
	// From is the table (or view: give it a Key); in JSON, as SQL writes
	// it: "sales.orders", "sales.\"Order Items\"". (An input stored before
	// From, with the table's exact names under "schema" and "table", reads
	// as the same table.)
	From pg.Relation `json:"from"`
	// Columns are the exported columns in file order; empty: all.
	Columns []string `json:"columns,omitempty"`
	// Key is the ordering key; empty: the table's primary key.
	Key []string `json:"key,omitempty"`
	// Order is key (the default) or snapshot: see [Order].
	Order Order `json:"order,omitempty"`
	// Where is an SQL filter (the CLI's --where). It is the one place an
	// operator's raw SQL goes in: it runs with the worker's privileges, in
	// parentheses after WHERE, so only operators who may run SQL on the
	// database should be able to enqueue this job. pipe interpolates no
	// value into it.
	Where string `json:"where,omitempty"`
	// To is the URL prefix the export goes under: s3://bucket/prefix,
	// gs://, azblob://, mem://name/prefix, file:///dir or a local path
	// (the whole path is the directory; the objects go in <runId>/ there).
	To string `json:"to"`
	// Format, Compression and PageRows are as in [Options]; zero: the
	// defaults (csv, none — zstd inside parquet — and 100,000).
	Format      Format `json:"format,omitempty"`
	Compression string `json:"compression,omitempty"`
	PageRows    int    `json:"pageRows,omitempty"`
	// Parallel is how many child runs read the table's key ranges, all in
	// one snapshot (see [Options].Parallel); 0 or 1: one run.
	Parallel int `json:"parallel,omitempty"`
	// Range is set on a child run of a parallel export by its parent.
	Range *Range `json:"range,omitempty"`
}

// TableJob answers the stock export job, pipe.export, that `pipe export`
// enqueues and `pipe worker` runs: each run exports the table its input
// names to the prefix it names.
func TableJob() *pipeline.Job[TableExport, Result] {
	return MustNew(TableExport.key, tableOptions())
}

// TableJobFromReplica answers pipe.export reading every run's rows from
// replica, a pool on a hot standby of the job's database (`pipe worker
// --replica-url`): see [Options].Replica for what that means for the
// export's snapshot. Nil is [TableJob].
func TableJobFromReplica(replica *pgxpool.Pool) *pipeline.Job[TableExport, Result] {
	o := tableOptions()
	o.Replica = replica
	return MustNew(TableExport.key, o)
}

// tableOptions declare the stock export, for [TableJob] and [Check].
func tableOptions() Options[TableExport] {
	return Options[TableExport]{
		Name:   TableJobName,
		Check:  TableExport.Check,
		Source: TableExport.source,
		Sink:   TableExport.sink,
		SettingsOf: func(in TableExport) Settings {
			return Settings{Format: in.Format, Compression: blob.Compression(in.Compression), PageRows: in.PageRows}
		},
		Parallel:  func(in TableExport) int { return in.Parallel },
		WithRange: func(in TableExport, r *Range) TableExport { in.Range = r; return in },
		RangeOf:   func(in TableExport) *Range { return in.Range },
		Job:       pipeline.JobOptions[TableExport, Result]{Queue: "pipe", Retry: &pipeline.Retry{Attempts: 5}},
	}
}

// Check refuses an input the export cannot run: no table, a destination
// that does not parse or whose prefix could leave its bucket, settings out
// of range.
func (in TableExport) Check() error {
	if in.From.IsZero() {
		return errcode.New(errcode.JobInputInvalid, "export: no table is named").WithFix("name the table to export")
	}
	if in.Order != "" && in.Order != ByKey && in.Order != Snapshot {
		return errcode.New(errcode.JobInputInvalid, "export: the order is neither key nor snapshot").
			WithFix("use the order key (keyset pages, the default) or snapshot (storage order, one snapshot)")
	}
	if err := checkSource(in.source()); err != nil {
		return err
	}
	if in.Parallel < 0 || in.Parallel > MaxParallel {
		return errcode.New(errcode.JobInputInvalid, "export: parallel is not from 0 to %d", MaxParallel).
			WithFix(fmt.Sprintf("ask for 0 or 1 (one run) up to %d ranges", MaxParallel))
	}
	if in.Parallel > 1 && in.Order == Snapshot {
		return errcode.New(errcode.JobInputInvalid, "export: parallel ranges are read in key order, not in snapshot order").
			WithFix("drop the snapshot order: a parallel export reads every range in one snapshot already")
	}
	_, prefix, err := splitTo(in.To)
	if err != nil {
		return err
	}
	if _, err := runDirKey(prefix, "run"); err != nil {
		return err
	}
	s := Settings{Format: in.Format, Compression: blob.Compression(in.Compression), PageRows: in.PageRows}
	if faults := s.faults(); len(faults) > 0 {
		return errcode.New(errcode.JobInputInvalid, "export: %s", strings.Join(faults, "; ")).
			WithFix(settingsFix)
	}
	return nil
}

func (in TableExport) source() Source {
	return Source{Table: in.From, Columns: in.Columns, Key: in.Key, Where: in.Where, Order: in.Order}
}

// key is the run's idempotency key: the table and the destination, and a
// digest of the whole input (the defaults filled in) so that two different
// exports never dedupe, while one asked for again with its defaults spelled
// out answers the live run. The table and the digest are in the input's
// first JSON form (see tableExportV1), so the key of an input is the one it
// had before From.
func (in TableExport) key() string {
	n := in
	s := Settings{Format: in.Format, Compression: blob.Compression(in.Compression), PageRows: in.PageRows}.defaulted()
	n.Format, n.Compression, n.PageRows = s.Format, string(s.Compression), s.PageRows
	if n.Order == "" {
		n.Order = ByKey
	}
	v1 := n.v1()
	raw, _ := json.Marshal(v1)
	sum := sha256.Sum256(raw)
	return v1.label() + " -> " + in.To + " " + hex.EncodeToString(sum[:6])
}

func (in TableExport) sink() Sink {
	bucket, prefix, _ := splitTo(in.To) // Check refused a bad URL
	return Sink{Bucket: bucket, Prefix: prefix}
}

// splitTo splits a destination into its bucket's URL and the key prefix:
// s3://b/p/q?region=r is s3://b?region=r and p/q; a file URL or a local
// path is the bucket itself, with no prefix.
func splitTo(to string) (bucket, prefix string, err error) {
	if strings.TrimSpace(to) == "" {
		return "", "", errcode.New(errcode.BlobURLInvalid, "export: no destination is named").
			WithFix("name where the export goes: s3://bucket/prefix, file:///dir or a local directory")
	}
	if strings.HasPrefix(strings.ToLower(to), "file:") || !strings.Contains(to, "://") {
		return to, "", nil
	}
	u, err := url.Parse(to)
	if err != nil || u.Host == "" || u.Fragment != "" {
		return "", "", errcode.New(errcode.BlobURLInvalid, "export: the destination is not a bucket URL").
			WithFix("use s3://bucket/prefix, gs://bucket/prefix, azblob://container/prefix, mem://name/prefix, file:///dir or a local directory")
	}
	prefix = strings.TrimPrefix(u.Path, "/")
	u.Path, u.RawPath = "", ""
	return u.String(), prefix, nil
}
