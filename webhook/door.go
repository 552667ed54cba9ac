package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Door is a receiver's HTTP handler over one database. Close it when the
// server stops.
type Door struct {
	serve func(w http.ResponseWriter, r *http.Request)
	close func()
}

// ServeHTTP answers one request.
func (d *Door) ServeHTTP(w http.ResponseWriter, r *http.Request) { d.serve(w, r) }

// Close stops the door's enqueue flushers once the batches in hand are
// written; a request after Close is 503.
func (d *Door) Close() { d.close() }

// Handler answers the receiver's door, enqueueing through db. Mount it at
// [Receiver.Path] on a net/http ServeMux (its wildcards fill
// Inbound.Params). Concurrent requests' enqueues share statements and
// commits; each request is answered 200 only after its row committed.
func (r *Receiver[P]) Handler(db pipeline.DB) *Door {
	b := newBatcher(doorFlushers, func(ctx context.Context, ins []Received[P]) ([]pipeline.EnqueueResult, error) {
		return r.job.EnqueueMany(ctx, db, ins)
	})
	params := wildcards(r.o.Path)
	lim := r.o.RateLimit.limiter()
	return &Door{close: b.close, serve: func(w http.ResponseWriter, req *http.Request) {
		if admit(lim, w) {
			r.serve(w, req, b, params)
		}
	}}
}

func (r *Receiver[P]) serve(w http.ResponseWriter, req *http.Request, b *batcher[Received[P], pipeline.EnqueueResult], params []string) {
	switch {
	case req.Method == http.MethodGet && r.o.Handshake != nil:
		in := &Inbound{Header: req.Header, Params: paramsOf(req, params), URL: req.URL}
		r.o.Handshake(req.Context(), in).ServeHTTP(w, req)
		return
	case req.Method != http.MethodPost && req.Method != http.MethodPut:
		w.Header().Set("Allow", "POST, PUT")
		refuse(w, http.StatusMethodNotAllowed, errcode.New(errcode.BodyInvalid, "this webhook takes POST").WithFix("POST the event"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, r.o.MaxBytes))
	if err != nil {
		r.refuseBody(w, err)
		return
	}
	in := &Inbound{Bytes: body, Header: req.Header, Params: paramsOf(req, params), URL: req.URL}
	v, err := r.o.Verify(req.Context(), in)
	if err != nil {
		refuseVerify(w, err)
		return
	}
	if v.Answer != nil {
		v.Answer.ServeHTTP(w, req)
		return
	}
	if !validEventID(v.EventID) {
		refuse(w, http.StatusUnprocessableEntity, errcode.New(errcode.WebhookEventIDInvalid, "the event id is not 1-256 printable ASCII characters").
			WithFix("Verify must answer the event's id from the verified data"))
		return
	}
	res, err := b.do(req.Context(), Received[P]{EventID: v.EventID, Payload: v.Payload, Params: in.Params, ReceivedAt: time.Now().UTC()})
	if err != nil {
		w.Header().Set("Retry-After", "30")
		refuse(w, http.StatusServiceUnavailable, errcode.Wrap(err, errcode.WebhookReceiverUnavailable, "the event could not be queued durably").
			WithFix("redeliver: the receiver's database is unreachable for now"))
		return
	}
	writeJSON(w, http.StatusOK, ack{OK: true, EventID: v.EventID, Deduped: res.Deduped})
}

func (r *Receiver[P]) refuseBody(w http.ResponseWriter, err error) {
	var over *http.MaxBytesError
	if errors.As(err, &over) {
		refuse(w, http.StatusRequestEntityTooLarge, errcode.New(errcode.BodyInvalid, "the body is over maxBytes (%d bytes)", r.o.MaxBytes).
			WithFix("send a smaller event, or raise the receiver's MaxBytes"))
		return
	}
	refuse(w, http.StatusBadRequest, errcode.New(errcode.BodyInvalid, "the body could not be read to its end").WithFix("send the whole body"))
}

// refuseVerify answers Verify's refusal: 401 for a signature, 500 for the
// receiver's own configuration, 400 for any other code; an uncoded error
// is a refused signature (its text is never sent: it may quote the body).
func refuseVerify(w http.ResponseWriter, err error) {
	e, ok := errcode.As(err)
	switch {
	case !ok:
		refuse(w, http.StatusUnauthorized, signatureInvalid().(*errcode.Error))
	case e.Code == errcode.WebhookSignatureInvalid || e.Code == errcode.WebhookSignatureStale:
		refuse(w, http.StatusUnauthorized, e)
	case e.Code == errcode.ConfigInvalid:
		refuse(w, http.StatusInternalServerError, e)
	default:
		refuse(w, http.StatusBadRequest, e)
	}
}

// ack is the body of an accepted request.
type ack struct {
	OK      bool   `json:"ok"`
	EventID string `json:"eventId"`
	Deduped bool   `json:"deduped"`
}

// refusal is the body of a refused request: the code, message and fix,
// never the request's content.
type refusal struct {
	OK      bool   `json:"ok"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

func refuse(w http.ResponseWriter, status int, e *errcode.Error) {
	writeJSON(w, status, refusal{Code: string(e.Code), Message: e.Message, Fix: e.Fix})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// wildcards answers the names of a pattern's {name} and {name...}
// segments.
func wildcards(pattern string) []string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			name := strings.TrimSuffix(strings.Trim(seg, "{}"), "...")
			if name != "$" {
				out = append(out, name)
			}
		}
	}
	return out
}

func paramsOf(req *http.Request, names []string) map[string]string {
	if len(names) == 0 {
		return nil
	}
	out := make(map[string]string, len(names))
	for _, n := range names {
		out[n] = req.PathValue(n)
	}
	return out
}
