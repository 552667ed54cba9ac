package project_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/project"
)

func compiledSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(project.SchemaJSON()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("pipe.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("pipe.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func schemaAccepts(t testing.TB, s *jsonschema.Schema, raw string) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// The example file validates against the schema and loads: two rollups, a
// refresh, two tasks.
func TestTheExampleFileLoads(t *testing.T) {
	raw, err := os.ReadFile("testdata/pipe.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := schemaAccepts(t, compiledSchema(t), string(raw)); err != nil {
		t.Fatalf("the schema refuses the example: %v", err)
	}
	p, err := project.Load("testdata/pipe.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Declarations) != 3 || len(p.Tasks) != 2 || len(p.Jobs()) != 3 {
		t.Fatalf("%d declarations, %d tasks", len(p.Declarations), len(p.Tasks))
	}
	d, ok := p.Lookup("orders-hourly-kolkata")
	if !ok || d.Rollup == nil || d.Rollup.Queue() != "rollups" || d.Rollup.Retry().Attempts != 5 {
		t.Fatalf("the hourly rollup: %+v", d)
	}
	if v, ok := p.Lookup("refresh-org-totals"); !ok || v.Refresh == nil || v.Kind != "view" {
		t.Fatalf("the refresh: %+v", v)
	}
	if p.Tasks[1].CatchUp() != "run-once" || p.Tasks[1].Zone().String() != "Europe/Berlin" {
		t.Fatalf("the nightly task: %s %s", p.Tasks[1].CatchUp(), p.Tasks[1].Zone())
	}
}

const goodRollup = `{"name": "r", "into": "t", "key": ["day"], "lookback": "2d",
	"bucket": {"unit": "day", "zone": "UTC", "column": "day"},
	"source": {"table": "s", "time": "ts", "aggregates": [{"func": "count", "into": "n"}]}}`

// The schema and the loader agree: what the schema refuses, Load refuses,
// with the code the fault deserves and its place in the file.
func TestTheSchemaAndTheLoaderRefuseTheSameFiles(t *testing.T) {
	s := compiledSchema(t)
	for name, tc := range map[string]struct {
		doc   string
		code  errcode.Code
		fault string
	}{
		"unknown field":  {`{"rollup": []}`, errcode.ConfigInvalid, `unknown field "rollup"`},
		"unknown nested": {`{"rollups": [` + strings.Replace(goodRollup, `"name"`, `"nme": 1, "name"`, 1) + `]}`, errcode.ConfigInvalid, `unknown field "nme"`},
		"bad unit":       {`{"rollups": [` + strings.Replace(goodRollup, `"day", "zone"`, `"fortnight", "zone"`, 1) + `]}`, errcode.JobRollupInvalid, `rollups[0]: X_JOB_ROLLUP_INVALID: rollup r: rollups[0].bucket.unit "fortnight"`},
		"bad func":       {`{"rollups": [` + strings.Replace(goodRollup, `"count"`, `"median"`, 1) + `]}`, errcode.JobRollupInvalid, `rollups[0].source.aggregates[0].func "median"`},
		"bad lookback":   {`{"rollups": [` + strings.Replace(goodRollup, `"2d"`, `"two days"`, 1) + `]}`, errcode.JobRollupInvalid, "rollups[0].lookback: X_DURATION_INVALID"},
		"no key":         {`{"rollups": [` + strings.Replace(goodRollup, `"key": ["day"], `, ``, 1) + `]}`, errcode.JobRollupInvalid, "rollups[0].key names no column"},
		"no aggregates":  {`{"rollups": [` + strings.Replace(goodRollup, `[{"func": "count", "into": "n"}]`, `[]`, 1) + `]}`, errcode.JobRollupInvalid, "rollups[0].source.aggregates is empty"},
		"bad attempts":   {`{"rollups": [` + strings.Replace(goodRollup, `"name"`, `"attempts": -1, "name"`, 1) + `]}`, errcode.JobRollupInvalid, "rollups[0].attempts is negative"},
		"wrong type":     {`{"rollups": [` + strings.Replace(goodRollup, `["day"]`, `"day"`, 1) + `]}`, errcode.ConfigInvalid, "line 1, column"},
		"no view":        {`{"views": [{"name": "v"}]}`, errcode.JobRefreshViewInvalid, "views[0]: X_JOB_REFRESH_VIEW_INVALID: refresh v: views[0].view is empty"},
		"bad catch-up":   {`{"views": [{"name": "v", "view": "m"}], "tasks": [{"name": "t", "cron": "@daily", "zone": "UTC", "run": ["v"], "catchUp": "all"}]}`, errcode.JobDeclarationInvalid, `CatchUp "all"`},
		"no cron":        {`{"views": [{"name": "v", "view": "m"}], "tasks": [{"name": "t", "zone": "UTC", "run": ["v"]}]}`, errcode.JobDeclarationInvalid, "tasks[0]"},
		"run nothing":    {`{"views": [{"name": "v", "view": "m"}], "tasks": [{"name": "t", "cron": "@daily", "zone": "UTC", "run": []}]}`, errcode.JobDeclarationInvalid, "the task has no entries"},
		"bad timeout":    {`{"views": [{"name": "v", "view": "m", "timeout": "soon"}]}`, errcode.JobRefreshViewInvalid, "views[0].timeout: X_DURATION_INVALID"},
		"trailing data":  {`{} {}`, errcode.ConfigInvalid, "data after the top-level object"},
		"backfill target": {`{"backfills": [{"name": "b", "table": "t", "target": "soon", "sql": "update t set a = 1 where id between $1 and $2"}]}`,
			errcode.BackfillInvalid, "backfills[0].target: X_DURATION_INVALID"},
		"health duration": {backfillWith(`"health": {"transactionAge": "soon"}`), errcode.BackfillInvalid,
			"backfills[0].health.transactionAge: X_DURATION_INVALID"},
		"health every off": {backfillWith(`"health": {"every": "off"}`), errcode.BackfillInvalid, "backfills[0].health.every: X_DURATION_INVALID"},
		"health xid age":   {backfillWith(`"health": {"xidAge": -2}`), errcode.BackfillInvalid, "backfills[0].health.xidAge is neither"},
		"health key":       {backfillWith(`"health": {"longTransaction": "5m"}`), errcode.ConfigInvalid, `unknown field "longTransaction"`},
	} {
		t.Run(name, func(t *testing.T) {
			if err := schemaAccepts(t, s, tc.doc); err == nil && name != "trailing data" {
				t.Errorf("the schema accepts it")
			}
			_, err := project.Load(write(t, tc.doc))
			if !errors.Is(err, tc.code) || !strings.Contains(err.Error(), tc.fault) {
				t.Fatalf("Load answered %v; want %s naming %q", err, tc.code, tc.fault)
			}
			if f := goFieldName.FindString(err.Error() + " " + fixOf(err)); f != "" {
				t.Fatalf("Load names the Go field %s, not the file's key: %v", f, err)
			}
		})
	}
}

// A backfill's faults the schema cannot see name the file's keys, never
// backfill.Options' Go fields.
func TestABackfillsFaultsNameTheFilesKeys(t *testing.T) {
	const sql = `"sql": "update t set a = 1 where id between $1 and $2"`
	for doc, fault := range map[string]string{
		`{"backfills": [{"name": "b", "table": "t", "query": "select id from t", "key": "id", ` + sql + `}]}`: "backfills[0].table and backfills[0].query",
		`{"backfills": [{"name": "b", "table": "t", "minBatch": 50, "maxBatch": 10, ` + sql + `}]}`:           "backfills[0].minBatch is above backfills[0].maxBatch",
		`{"backfills": [{"name": "b", "query": "select id from t", ` + sql + `}]}`:                            "backfills[0].query needs its backfills[0].key",
		backfillWith(`"health": {"replicationLag": "0s"}`):                                                    "backfills[0].health.replicationLag is zero",
		backfillWith(`"health": {"every": "0ms"}`):                                                            "backfills[0].health.every is zero",
		backfillWith(`"health": {"xidAge": 0}`):                                                               "backfills[0].health.xidAge is neither above zero nor -1",
	} {
		_, err := project.Load(write(t, doc))
		if !errors.Is(err, errcode.BackfillInvalid) || !strings.Contains(err.Error(), fault) {
			t.Errorf("Load answered %v; want X_BACKFILL_INVALID naming %q", err, fault)
		}
		if f := goFieldName.FindString(err.Error() + " " + fixOf(err)); f != "" {
			t.Errorf("Load names the Go field %s, not the file's key: %v", f, err)
		}
	}
}

// Faults the schema cannot see — a name twice, a task naming what the file
// does not declare, a Where with parameters — are Load's alone, and every
// fault of a file is named at once.
func TestLoadNamesEveryFaultAtOnce(t *testing.T) {
	doc := `{"rollups": [` + goodRollup + `, ` + goodRollup + `, ` + strings.Replace(goodRollup, `"ts"`, `"ts", "where": "a = $1"`, 1) + `],
		"views": [{"name": "v", "view": "m", "concurrently": true}],
		"tasks": [{"name": "t", "cron": "@hourly", "zone": "UTC", "run": ["r", "nope"]}]}`
	if err := schemaAccepts(t, compiledSchema(t), doc); err != nil {
		t.Fatalf("the schema refuses a well-formed file: %v", err)
	}
	_, err := project.Load(write(t, doc))
	for _, f := range []string{"3 fault(s)", "another rollup or view is named r", "source.where takes no parameters", "run names nope"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("Load answered %v; want it to name %q", err, f)
		}
	}
	if !errors.Is(err, errcode.JobDeclarationInvalid) || !errors.Is(err, errcode.JobRollupInvalid) {
		t.Errorf("errors.Is does not find every fault's code: %v", err)
	}
	if _, err := project.Load(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, errcode.ConfigInvalid) {
		t.Errorf("a missing file: %v", err)
	}
}

func write(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipe.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A task naming a refused declaration is not a second fault.
func TestARefusedDeclarationIsNamedOnce(t *testing.T) {
	doc := `{"views": [{"name": "v"}], "tasks": [{"name": "t", "cron": "@daily", "zone": "UTC", "run": ["v"]}]}`
	_, err := project.Load(write(t, doc))
	if err == nil || !strings.Contains(err.Error(), "1 fault(s)") || !strings.Contains(err.Error(), "views[0].view is empty") {
		t.Fatalf("Load answered %v; want the view's one fault", err)
	}
}

// goFieldName matches the Go field paths a fault of pipe.json must not name.
var goFieldName = regexp.MustCompile(`\b(Bucket|Source|Into|Key|Lookback|View|Timeout|Retry|Queue|Func|Aggregates|Table|Query|SQL|MinBatch|MaxBatch|Rate|Target)\b`)

// fixOf answers a coded error's fix.
func fixOf(err error) string {
	if e, ok := errcode.As(err); ok {
		return e.Fix
	}
	return ""
}

// backfillWith answers a file of one backfill, b, with the fields more.
func backfillWith(more string) string {
	return `{"backfills": [{"name": "b", "table": "t", "sql": "update t set a = 1 where id between $1 and $2", ` + more + `}]}`
}
