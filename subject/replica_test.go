package subject_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
)

// replicaExportJob is exportJob reading its pages on the standby, under a
// name of its own: a test's workers stay until it ends, and one working
// test.export would take the other declaration's runs.
func replicaExportJob(d subject.Declaration, pageRows int, standby *pgxpool.Pool) *pipeline.Job[exportIn, subject.ExportResult] {
	return subject.MustExport(subject.ExportOptions[exportIn]{
		Name:     "test.export.replica",
		Subject:  d,
		Person:   func(in exportIn) subject.Key { return subject.Key{in.Member} },
		Sink:     func(in exportIn) exportrows.Sink { return exportrows.Sink{Bucket: in.Bucket, Prefix: "people"} },
		PageRows: pageRows,
		Replica:  standby,
		Job:      pipeline.JobOptions[exportIn, subject.ExportResult]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	})
}

// replicaForum answers pools on the primary and the standby of a fresh
// database holding the forum, replayed.
func replicaForum(t *testing.T, pair *fixtures.Pair) (primary, standby *pgxpool.Pool) {
	t.Helper()
	db := pair.DBs(t)
	primary, standby = openPool(t, db.Primary), openPool(t, db.Standby)
	exec(t, primary, forumDDL+forumRows)
	pair.WaitReplay(t)
	return primary, standby
}

func openPool(t *testing.T, u string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// exportedRows runs an export of member 1 and answers its rows by table,
// as JSON text.
func exportedRows(t *testing.T, pool *pgxpool.Pool, job *pipeline.Job[exportIn, subject.ExportResult]) map[string]string {
	t.Helper()
	_, res := fixtures.Run(t, pool, job, exportIn{Member: 1, Bucket: "file://" + t.TempDir()})
	b, idx := readIndex(t, res)
	out := map[string]string{}
	for _, it := range idx.Tables {
		text, err := json.Marshal(ndjsonRows(t, b, it))
		if err != nil {
			t.Fatal(err)
		}
		out[it.Table] = string(text)
	}
	return out
}

// A subject export reading its pages on the standby holds what one reading
// them on the primary holds; with replay paused, a row the person gained on
// the primary after the pause is in the primary's export alone.
func TestASubjectExportFromTheReplicaReadsTheReplayedState(t *testing.T) {
	pair := fixtures.Replicated(t)
	primary, standby := replicaForum(t, pair)
	onReplica := exportedRows(t, primary, replicaExportJob(forum(), 7, standby))
	onPrimary := exportedRows(t, primary, exportJob(forum(), 7))
	if len(onPrimary) != 4 {
		t.Fatalf("the primary's export holds %d tables", len(onPrimary))
	}
	for table, rows := range onPrimary {
		if onReplica[table] != rows {
			t.Errorf("%s: the replica's export differs from the primary's", table)
		}
	}
	pair.PauseReplay(t)
	exec(t, primary, `insert into comments values (41, 1, 1, null, 'late')`)
	late := func(rows map[string]string) int {
		var got []map[string]any
		if err := json.Unmarshal([]byte(rows["comments"]), &got); err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	if n := late(exportedRows(t, primary, replicaExportJob(forum(), 7, standby))); n != 20 {
		t.Fatalf("with replay paused the replica's export holds %d comments, want the 20 replayed", n)
	}
	if n := late(exportedRows(t, primary, exportJob(forum(), 7))); n != 21 {
		t.Fatalf("the primary's export holds %d comments, want 21", n)
	}
}
