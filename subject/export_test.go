package subject_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
)

type exportIn struct {
	Member int64             `json:"member"`
	Bucket string            `json:"bucket"`
	Format exportrows.Format `json:"format,omitempty"`
}

func exportJob(d subject.Declaration, pageRows int) *pipeline.Job[exportIn, subject.ExportResult] {
	return subject.MustExport(subject.ExportOptions[exportIn]{
		Name:     "test.export",
		Subject:  d,
		Person:   func(in exportIn) subject.Key { return subject.Key{in.Member} },
		Sink:     func(in exportIn) exportrows.Sink { return exportrows.Sink{Bucket: in.Bucket, Prefix: "people"} },
		FormatOf: func(in exportIn) exportrows.Format { return in.Format },
		PageRows: pageRows,
		Job:      pipeline.JobOptions[exportIn, subject.ExportResult]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	})
}

// readIndex opens the export's bucket and reads its index.
func readIndex(t *testing.T, res subject.ExportResult) (*blob.Bucket, *subject.Index) {
	t.Helper()
	b, err := blob.Open(context.Background(), res.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	idx, err := subject.ReadIndex(context.Background(), b, res.Index)
	if err != nil {
		t.Fatal(err)
	}
	return b, idx
}

// ndjsonRows reads every row of a table's parts.
func ndjsonRows(t *testing.T, b *blob.Bucket, it subject.IndexTable) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, p := range it.Parts {
		r, err := b.NewReader(context.Background(), p.Key)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var row map[string]any
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				t.Fatal(err)
			}
			out = append(out, row)
		}
		r.Close()
	}
	return out
}

func TestExportWritesEveryTableAndTheIndex(t *testing.T) {
	pool := setup(t, forumDDL+forumRows)
	d := forum()
	d.Sealed = map[string][]string{"members": {"email"}}
	_, res := fixtures.Run(t, pool, exportJob(d, 7), exportIn{Member: 1, Bucket: "file://" + t.TempDir()})
	b, idx := readIndex(t, res)
	want := map[string]int64{"members": 1, "posts": 5, "comments": 20, "likes": 60}
	for _, it := range idx.Tables {
		if it.Rows != want[it.Table] {
			t.Errorf("%s: %d rows exported, want %d", it.Table, it.Rows, want[it.Table])
		}
		rows := ndjsonRows(t, b, it)
		if int64(len(rows)) != it.Rows {
			t.Errorf("%s: %d rows in the parts, %d in the index", it.Table, len(rows), it.Rows)
		}
		if it.Table == "members" {
			if _, leaked := rows[0]["email"]; leaked || rows[0]["name"] != "Ada" {
				t.Errorf("members row %v: the sealed email left, or the name is wrong", rows[0])
			}
		}
		if it.Table == "posts" && it.Reason == "" {
			t.Errorf("posts: no retain reason in the index")
		}
	}
}

// A part a killed attempt left half-written (a file bucket's temporary
// file in a table's directory) is swept when the next attempt starts.
func TestExportSweepsAKilledAttemptsTemporaryFiles(t *testing.T) {
	pool := setup(t, forumDDL+forumRows)
	root := t.TempDir()
	job := exportJob(forum(), 7)
	res, err := job.Enqueue(context.Background(), pool, exportIn{Member: 1, Bucket: "file://" + root})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "people", res.RunID, "comments")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-00001.ndjson.17f1c2a3b4c5d6e7.tmp"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, job)
	if d := fixtures.AwaitSettled(t, pool, res.ID); d.State != "done" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	if len(tmp) != 0 {
		t.Fatalf("the run's directory still holds %v", tmp)
	}
}

// The default key is all of the input a run reads: the person, the sink
// and the format, so exports of one person in two formats are two runs.
func TestAnExportsDefaultKeyCoversItsFormat(t *testing.T) {
	j := exportJob(forum(), 10)
	key := func(in exportIn) string {
		k, err := j.KeyFor(in)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	csv, ndjson := exportIn{Member: 1, Bucket: "file:///x", Format: exportrows.CSV}, exportIn{Member: 1, Bucket: "file:///x", Format: exportrows.NDJSON}
	if key(csv) == key(ndjson) {
		t.Fatalf("two formats share the key %q", key(csv))
	}
	if key(exportIn{Member: 1, Bucket: "file:///x"}) == key(exportIn{Member: 2, Bucket: "file:///x"}) {
		t.Fatal("two people share a key")
	}
}
