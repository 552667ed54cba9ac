package importrows

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// refusal is one refused row in the error report. It names where the row is
// and why it was refused — never the refused value, which may be personal
// data the app chose not to keep.
type refusal struct {
	Line       int64        `json:"line"`
	ByteOffset int64        `json:"byteOffset"`
	Field      string       `json:"field,omitempty"`
	Code       errcode.Code `json:"code"`
	// Rule names the CSV rule the record broke: bare-quote,
	// text-after-quote, unclosed-quote, stray-line-feed, field-count (or
	// not-an-object for NDJSON); none for a value its column refused.
	Rule string `json:"rule,omitempty"`
}

// report streams one page's refusals to errors-NNNNN.ndjson. The object is
// written atomically when the page finishes, keyed by the page index, so a
// replayed page overwrites its own part. Nothing is written for a page
// without refusals.
type report struct {
	bucket *blob.Bucket
	key    string
	n      int64

	pw   *io.PipeWriter
	bw   *bufio.Writer
	done chan error
}

// reportKey answers the key of page's part under the run's prefix
// (<Prefix>/<runId>, or a range's folder in it).
func reportKey(runPrefix string, page int) (string, error) {
	return blob.JoinKey(runPrefix, fmt.Sprintf("errors-%05d.ndjson", page))
}

// add appends a refusal, starting the upload at the first one.
func (r *report) add(ctx context.Context, f refusal) error {
	if r.pw == nil {
		r.start(ctx)
	}
	r.n++
	line, _ := json.Marshal(f)
	line = append(line, '\n')
	_, err := r.bw.Write(line)
	return reportErr(err, r.key, r.bucket.URL())
}

func (r *report) start(ctx context.Context) {
	pr, pw := io.Pipe()
	r.pw, r.bw, r.done = pw, bufio.NewWriterSize(pw, 32<<10), make(chan error, 1)
	go func() {
		err := r.bucket.Write(ctx, r.key, blob.WriteOptions{ContentType: "application/x-ndjson"}, func(w io.Writer) error {
			_, err := io.Copy(w, pr)
			return err
		})
		pr.CloseWithError(err) // unblock the writer if the upload failed
		r.done <- err
	}()
}

// finish completes the part: after it returns nil, the part is stored.
func (r *report) finish() error {
	if r.pw == nil {
		return nil
	}
	err := r.bw.Flush()
	r.pw.CloseWithError(err)
	upErr := <-r.done
	r.pw = nil
	if err != nil {
		return reportErr(err, r.key, r.bucket.URL())
	}
	return reportErr(upErr, r.key, r.bucket.URL())
}

// abort drops a part that was started: no object is written.
func (r *report) abort(cause error) {
	if r.pw == nil {
		return
	}
	r.pw.CloseWithError(cause)
	<-r.done
	r.pw = nil
}

// checkSink refuses a report location that cannot be written (a read-only
// directory) before the run writes a row: the report is written at the
// first refused row, too late to choose another place.
func (a *attempt[In]) checkSink(ctx context.Context) error {
	b, err := blob.Open(ctx, a.sink.Bucket)
	if err != nil {
		return reportErr(err, a.sink.Prefix, "its bucket")
	}
	defer b.Close()
	return reportErr(b.CheckWritable(a.sink.Prefix), a.sink.Prefix, b.URL())
}

// reportErr says that the refused-rows report cannot be written where it
// goes (under key in the bucket) when a directory refuses it.
func reportErr(err error, key, bucket string) error {
	if errcode.CodeOf(err) != errcode.BlobPermissionDenied {
		return err
	}
	return errcode.Wrap(err, errcode.BlobPermissionDenied, "import: the refused-rows report cannot be written under %s in %s: permission denied or a read-only file system", key, bucket).
		WithFix("name a writable place for the report (`pipe import --errors DIR_OR_URL`, FileImport.Errors); by default it goes beside the file")
}
