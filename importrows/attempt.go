package importrows

import (
	"context"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// attempt is one attempt of one run: the buckets it opened, the plan, the
// page source and the buffers every page reuses.
type attempt[In any] struct {
	im     *importer[In]
	run    *pipeline.Run[In]
	src    Source
	sink   Sink
	bucket *blob.Bucket
	errs   *blob.Bucket
	plan   plan
	text   pageSource
	cols   []column
	pq     *parquetFile
	lim    Limits
	// copyBuf is the COPY chunk every page of the attempt reuses.
	copyBuf []byte
	// rng is the range a child run of a parallel import reads (nil: the
	// whole file; see parallel.go).
	rng *RangeRun[In]
}

// open opens an attempt of a run, or of a range run (rng not nil).
func (im *importer[In]) open(ctx context.Context, r *pipeline.Run[In], rng *RangeRun[In]) (*attempt[In], error) {
	a, err := im.openSource(ctx, r)
	if err != nil {
		return nil, err
	}
	a.rng = rng
	if _, err := blob.JoinKey(a.sink.Prefix, r.RunID); err != nil {
		a.close()
		return nil, err
	}
	if a.errs, err = blob.Open(ctx, a.sink.Bucket); err != nil {
		a.close()
		return nil, reportErr(err, a.sink.Prefix, "its bucket")
	}
	// A killed attempt's report part can have been left half-written. Only
	// the attempt's own parts are swept: a parallel import's ranges write
	// theirs under its run's folder while it runs.
	if _, err := a.errs.SweepTemporary(ctx, a.errorPrefix()+"/errors-"); err != nil {
		a.close()
		return nil, err
	}
	return a, nil
}

// openSource checks the input and opens the file's bucket: all that
// [Check] and the plan step need.
func (im *importer[In]) openSource(ctx context.Context, r *pipeline.Run[In]) (*attempt[In], error) {
	if im.o.Check != nil {
		if err := im.o.Check(r.Input); err != nil {
			return nil, err
		}
	}
	a := &attempt[In]{im: im, run: r, src: im.o.Source(r.Input), sink: im.o.Errors(r.Input)}
	var err error
	if a.lim, err = im.o.limits(r.Input); err != nil {
		return nil, err
	}
	if err := blob.ValidateKey(a.src.Key); err != nil {
		return nil, err
	}
	if a.bucket, err = blob.Open(ctx, a.src.Bucket); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *attempt[In]) close() {
	if a.text != nil {
		_ = a.text.close()
	}
	if a.pq != nil {
		a.pq.close()
	}
	if a.bucket != nil {
		_ = a.bucket.Close()
	}
	if a.errs != nil {
		_ = a.errs.Close()
	}
}

// planStep settles the plan once per run: in the page transaction's kind of
// step when a table is written (the catalog is read in it), a plain step
// otherwise. Every attempt then prepares its readers from the stored plan.
func (a *attempt[In]) planStep(ctx context.Context) error {
	var p plan
	var err error
	if a.im.o.Into != nil {
		p, err = pipeline.StepTx(ctx, "plan", a.planTx)
	} else {
		p, err = pipeline.Step(ctx, "plan", func(ctx context.Context) (plan, error) {
			return a.makePlan(ctx, nil)
		})
	}
	if err != nil {
		return err
	}
	a.plan = p
	return a.prepare(ctx)
}

// planTx is the plan step of an import into a table, and all of [Check].
func (a *attempt[In]) planTx(ctx context.Context, tx pgx.Tx) (plan, error) {
	p, err := a.makePlan(ctx, tx)
	return p, errcode.Redact(ctx, err, "import: plan")
}

// prepare builds the readers and the column coercers the plan calls for.
func (a *attempt[In]) prepare(ctx context.Context) error {
	cols, err := columnsOf(a.plan)
	if err != nil {
		return err
	}
	a.cols = cols
	if a.plan.Format == Parquet {
		a.pq, err = openParquet(ctx, a.bucket, a.src.Key, a.plan.Size, a.lim.parquet())
		return err
	}
	if a.text == nil {
		a.text = a.newTextSource()
	}
	return nil
}

// newTextSource answers the page reader of a csv or ndjson file.
func (a *attempt[In]) newTextSource() pageSource {
	if !a.plan.Stream {
		return &rangedSource{bucket: a.bucket, key: a.src.Key, size: a.plan.Size, etag: a.plan.ETag}
	}
	return &streamSource{
		open: func(ctx context.Context) (io.ReadCloser, error) {
			return openDecoded(ctx, a.bucket, a.src.Key, a.plan, a.lim.blob())
		},
		verify: func(ctx context.Context) error {
			return unchanged(ctx, a.bucket, a.src.Key, a.plan.Size, a.plan.ETag)
		},
	}
}

// openDecoded opens the object as a stream of UTF-8: decompressed within
// lim, then decoded.
func openDecoded(ctx context.Context, b *blob.Bucket, key string, p plan, lim blob.DecompressLimits) (io.ReadCloser, error) {
	raw, err := b.NewReader(ctx, key)
	if err != nil {
		return nil, err
	}
	dec, _, err := blob.DecompressLimited(raw, blob.Compression(p.Compression), lim)
	if err != nil {
		raw.Close()
		return nil, err
	}
	text, err := blob.Decode(dec, blob.Encoding(p.Encoding))
	if err != nil {
		dec.Close()
		raw.Close()
		return nil, err
	}
	return &stack{Reader: text, closers: []io.Closer{dec, raw}}, nil
}

// stack is a reader over readers that all close with it.
type stack struct {
	io.Reader
	closers []io.Closer
}

func (s *stack) Close() error {
	var first error
	for _, c := range s.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// pageStep works one page in its step. Whatever fails is redacted before
// the job core stores it: a server's message can quote the row.
func (a *attempt[In]) pageStep(ctx context.Context, page int, cur cursor) (cursor, error) {
	name := pageName(page)
	what := "import: " + name
	if a.im.o.Into != nil {
		return pipeline.StepTx(ctx, name, func(ctx context.Context, tx pgx.Tx) (cursor, error) {
			next, err := a.tablePage(ctx, tx, page, cur)
			if err == nil {
				err = checkDeferred(ctx, tx)
			}
			return next, errcode.Redact(ctx, err, what)
		})
	}
	return pipeline.Step(ctx, name, func(ctx context.Context) (cursor, error) {
		next, err := a.handlePage(ctx, page, cur)
		return next, errcode.Redact(ctx, err, what)
	})
}

func (a *attempt[In]) errorPrefix() string {
	if a.rng != nil {
		k, _ := blob.JoinKey(a.sink.Prefix, a.rng.Parent, rangeName(a.rng.Index))
		return k
	}
	k, _ := blob.JoinKey(a.sink.Prefix, a.run.RunID)
	return k
}

func (a *attempt[In]) progressTotal() int64 {
	switch {
	case a.plan.Format == Parquet:
		return int64(a.plan.RowGroups)
	case a.plan.Stream:
		return 0 // the decoded size is not known before the end
	}
	return a.plan.Size
}

func (a *attempt[In]) bytesRead(c cursor) int64 {
	if a.plan.Format == Parquet {
		return a.plan.Size
	}
	return c.Offset
}

// maxRowErrors answers the run's tolerance.
func (a *attempt[In]) maxRowErrors() int64 { return int64(*a.lim.MaxRowErrors) }
