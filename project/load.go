package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
	"github.com/pipekit/pipe/views"
)

// Project is a loaded project file: its declarations made into jobs and
// tasks, ready for a worker and a scheduler.
type Project struct {
	// Path is the file read.
	Path string
	// File is the file as decoded.
	File File
	// Declarations are the rollups then the views, in file order.
	Declarations []Declaration
	// Tasks are the file's tasks, and the outbox relay's.
	Tasks []*pipeline.Task
	// Relay is the file's outbox relay, or nil.
	Relay *outbox.Relay
}

// Declaration is one rollup or view refresh of the file, as a job.
type Declaration struct {
	// Kind is "rollup", "view" or "backfill".
	Kind string
	// Name is the job's name.
	Name string
	// Job is the declared job.
	Job pipeline.Registrable
	// Rollup is the job as a rollup (nil for a view), for enqueueing.
	Rollup *pipeline.Job[rollup.Request, rollup.Result]
	// Refresh is the job as a refresh (nil for a rollup).
	Refresh *pipeline.Job[views.Request, views.Result]
	// Backfill is the job as a backfill pass.
	Backfill *pipeline.Job[backfill.Request, backfill.Result]

	at string // where the file declares it: rollups[0], views[1]
}

// Load reads and declares the project file at path. A file that does not
// read or decode — unknown fields included — is X_CONFIG_INVALID; every
// declaration fault is named, each where it is in the file, in one error
// whose code is the first fault's (X_JOB_ROLLUP_INVALID for a bad rollup,
// X_JOB_REFRESH_VIEW_INVALID for a bad view, X_JOB_DECLARATION_INVALID for a
// bad task or duplicate names, X_CONFIG_INVALID otherwise); errors.Is finds
// every fault's code. The catalog is not read: see [Project.Verify].
func Load(path string, opts ...Option) (*Project, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, errcode.Wrap(err, errcode.ConfigInvalid, "project file %s does not read", path).
			WithFix("pass the path of a pipe.json that exists and may be read")
	}
	f, err := Decode(bytes.NewReader(raw))
	if err != nil {
		err = located(raw, err)
		return nil, errcode.Wrap(err, errcode.ConfigInvalid, "project file %s: %v", path, err).
			WithFix("correct the file; its JSON Schema is pipe.schema.json (package project)")
	}
	return Declare(path, f, opts...)
}

// Decode decodes a project file strictly: an unknown field, a key whose
// case differs from its field's, or trailing data is an error.
func Decode(r io.Reader) (File, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return File{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return File{}, err
	}
	if dec.More() {
		return File{}, errors.New("data after the top-level object")
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return File{}, err
	}
	if err := exactKeys(v, reflect.TypeFor[File]()); err != nil {
		return File{}, err
	}
	return f, nil
}

// Declare makes a decoded file's declarations into jobs and tasks; path
// names the file in errors.
func Declare(path string, f File, opts ...Option) (*Project, error) {
	p := &Project{Path: path, File: f}
	var o settings
	for _, opt := range opts {
		opt(&o)
	}
	var errs []error
	for i, r := range f.Rollups {
		at := fmt.Sprintf("rollups[%d]", i)
		d, err := declareRollup(r, at)
		errs = appendAt(errs, at, err)
		p.add(d, &errs)
	}
	for i, v := range f.Views {
		at := fmt.Sprintf("views[%d]", i)
		d, err := declareView(v, at)
		errs = appendAt(errs, at, err)
		p.add(d, &errs)
	}
	for i, b := range f.Backfills {
		at := fmt.Sprintf("backfills[%d]", i)
		d, err := declareBackfill(b, at)
		errs = appendAt(errs, at, err)
		p.add(d, &errs)
	}
	for i, t := range f.Tasks {
		task, err := p.declareTask(t)
		errs = appendAt(errs, fmt.Sprintf("tasks[%d]", i), err)
		if task != nil {
			p.Tasks = append(p.Tasks, task)
		}
	}
	if f.Outbox != nil {
		relay, err := declareOutbox(f.Outbox, o)
		errs = appendAt(errs, "outbox", err)
		if relay != nil {
			p.Relay = relay
			p.Tasks = append(p.Tasks, relay.Tasks()...)
		}
	}
	if len(errs) > 0 {
		return nil, joined(path, errs)
	}
	return p, nil
}

// add keeps a declaration, refusing a name another already took.
func (p *Project) add(d *Declaration, errs *[]error) {
	if d == nil {
		return
	}
	if _, taken := p.Lookup(d.Name); taken {
		*errs = append(*errs, errcode.New(errcode.JobDeclarationInvalid, "%s %s: another rollup or view is named %s", d.Kind, d.Name, d.Name))
		return
	}
	p.Declarations = append(p.Declarations, *d)
}

// Lookup answers the declaration named name.
func (p *Project) Lookup(name string) (Declaration, bool) {
	i := slices.IndexFunc(p.Declarations, func(d Declaration) bool { return d.Name == name })
	if i < 0 {
		return Declaration{}, false
	}
	return p.Declarations[i], true
}

// Jobs answers the declared jobs, and the outbox relay's, for a worker's
// registry.
func (p *Project) Jobs() []pipeline.Registrable {
	out := make([]pipeline.Registrable, len(p.Declarations))
	for i, d := range p.Declarations {
		out[i] = d.Job
	}
	if p.Relay != nil {
		out = append(out, p.Relay.Jobs()...)
	}
	return out
}

var whereParam = regexp.MustCompile(`\$[0-9]`)

// declareRollup makes the rollup the file declares at at; its faults name
// the file's keys (rollups[0].bucket.unit), never the Go fields.
func declareRollup(r Rollup, at string) (*Declaration, error) {
	var faults []string
	lookback, err := pipeline.ParseDuration(r.Lookback)
	if err != nil {
		faults = append(faults, "lookback: "+errcode.CodeOf(err).Error()+" (write it as 2d, 36h or 90m)")
	}
	if whereParam.MatchString(r.Source.Where) {
		faults = append(faults, "source.where takes no parameters in a project file: write the values in the SQL")
	}
	into := relation("into", r.Into, &faults)
	table := relation("source.table", r.Source.Table, &faults)
	jo, jf := jobOptions[rollup.Request, rollup.Result](r.Queue, r.Attempts, r.Timeout)
	faults = append(faults, jf...)
	if len(faults) > 0 {
		return nil, errcode.New(errcode.JobRollupInvalid, "rollup %s: %s", r.Name, under(at, faults)).
			WithFix("correct " + under(at, faults))
	}
	aggs := make([]rollup.Aggregate, len(r.Source.Aggregates))
	for i, a := range r.Source.Aggregates {
		aggs[i] = rollup.Aggregate{Func: rollup.Func(a.Func), Column: a.Column, Into: a.Into}
	}
	job, err := rollup.New(rollup.WindowKey, rollup.Options[rollup.Request]{
		Name: r.Name, Into: into, Key: r.Key, Lookback: lookback,
		Bucket: rollup.Bucket{Unit: rollup.Unit(r.Bucket.Unit), Zone: r.Bucket.Zone, Column: r.Bucket.Column},
		Source: &rollup.Source{Table: table, Time: r.Source.Time, GroupBy: r.Source.GroupBy, Aggregates: aggs, Where: r.Source.Where},
		Job:    jo,
	})
	if err != nil {
		return nil, inFileKeys(err, at, "rollup "+r.Name+": ")
	}
	return &Declaration{Kind: "rollup", Name: r.Name, Job: job, Rollup: job, at: at}, nil
}

// declareView makes the view refresh the file declares at at.
func declareView(v View, at string) (*Declaration, error) {
	var faults []string
	view := relation("view", v.View, &faults)
	jo, jf := jobOptions[views.Request, views.Result](v.Queue, v.Attempts, v.Timeout)
	faults = append(faults, jf...)
	if len(faults) > 0 {
		return nil, errcode.New(errcode.JobRefreshViewInvalid, "refresh %s: %s", v.Name, under(at, faults)).
			WithFix("correct " + under(at, faults))
	}
	job, err := views.Refresh(views.Options{Name: v.Name, View: view, Concurrently: v.Concurrently, Job: jo})
	if err != nil {
		return nil, inFileKeys(err, at, "refresh "+v.Name+": ")
	}
	return &Declaration{Kind: "view", Name: v.Name, Job: job, Refresh: job, at: at}, nil
}

// relation reads a relation the file names as SQL writes it (an empty one
// is left to the declaration to refuse), adding a fault naming field when
// it does not parse.
func relation(field, s string, faults *[]string) pg.Relation {
	if strings.TrimSpace(s) == "" {
		return pg.Relation{}
	}
	r, err := pg.ParseRelation(s)
	if err != nil {
		*faults = append(*faults, field+": "+pgcatalog.Fault(err))
	}
	return r
}

// jobOptions answers the job options of a declaration's queue, attempts and
// timeout, and their faults.
func jobOptions[In, Out any](queue string, attempts int, timeout string) (pipeline.JobOptions[In, Out], []string) {
	jo := pipeline.JobOptions[In, Out]{Queue: queue}
	var faults []string
	if attempts < 0 {
		faults = append(faults, "attempts is negative")
	} else if attempts > 0 {
		jo.Retry = &pipeline.Retry{Attempts: attempts}
	}
	if timeout != "" {
		d, err := pipeline.ParseDuration(timeout)
		if err != nil {
			faults = append(faults, "timeout: "+errcode.CodeOf(err).Error()+" (write it as 10m or 1h)")
		}
		jo.Timeout = d
	}
	return jo, faults
}

// declareTask makes a task whose entries enqueue the named declarations.
func (p *Project) declareTask(t Task) (*pipeline.Task, error) {
	var entries []pipeline.TaskEntry
	var missing []string
	for _, name := range t.Run {
		d, ok := p.Lookup(name)
		switch {
		case !ok && p.File.declares(name):
			// The declaration's own fault is named; the task's entry is
			// left out rather than named a second time.
		case !ok:
			missing = append(missing, name)
		case d.Rollup != nil:
			entries = append(entries, pipeline.Entry(d.Rollup, func(pipeline.Occurrence) rollup.Request { return rollup.Request{} }))
		case d.Backfill != nil:
			entries = append(entries, pipeline.Entry(d.Backfill, func(pipeline.Occurrence) backfill.Request { return backfill.Request{} }))
		default:
			entries = append(entries, pipeline.Entry(d.Refresh, func(pipeline.Occurrence) views.Request { return views.Request{} }))
		}
	}
	if len(missing) > 0 {
		return nil, errcode.New(errcode.JobDeclarationInvalid, "task %s: run names %s, which no rollup or view of the file declares",
			t.Name, strings.Join(missing, ", "))
	}
	if len(entries) == 0 && len(t.Run) > 0 {
		return nil, nil // every entry's declaration was refused, each with its fault
	}
	return pipeline.NewTask(t.Name, t.Cron, t.Zone, entries, pipeline.TaskOptions{CatchUp: pipeline.CatchUp(t.CatchUp)})
}

func appendAt(errs []error, at string, err error) []error {
	if err == nil {
		return errs
	}
	return append(errs, fmt.Errorf("%s: %w", at, err))
}

// joined is one error naming every fault, coded as the first.
func joined(path string, errs []error) error {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error() // "rollups[0]: X_JOB_ROLLUP_INVALID: rollup daily: ..."
	}
	return errcode.Wrap(errors.Join(errs...), errcode.CodeOf(errs[0]), "project file %s: %d fault(s): %s", path, len(errs), strings.Join(lines, "; ")).
		WithFix("correct each fault named, then check the file against the database with `pipe verify --config " + path + "`")
}

// located adds the line and column to a JSON error that has an offset.
func located(raw []byte, err error) error {
	var off int64
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	default:
		return err
	}
	before := raw[:min(int(off), len(raw))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// declares reports whether the file has a rollup or a view named name,
// declared or refused.
func (f File) declares(name string) bool {
	return slices.ContainsFunc(f.Rollups, func(r Rollup) bool { return r.Name == name }) ||
		slices.ContainsFunc(f.Views, func(v View) bool { return v.Name == name })
}

// under answers faults that each open with a key of the file, each under
// at: "lookback: ..." becomes "rollups[0].lookback: ...".
func under(at string, faults []string) string {
	out := make([]string, len(faults))
	for i, f := range faults {
		out[i] = at + "." + f
	}
	return strings.Join(out, "; ")
}
