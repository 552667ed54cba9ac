package webhook

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// client posts deliveries: no proxy (a proxy would dial for it, past the
// address check), no redirects, the address checked at dial time unless
// AllowPrivate, connections kept alive per endpoint host.
type client struct {
	http *http.Client
}

func newClient[In any](o Options[In]) *client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !o.AllowPrivate {
		dialer.Control = dialControl
	}
	conns := o.connsPerHost()
	t := &http.Transport{
		DialContext:         dialer.DialContext,
		TLSClientConfig:     o.TLS,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        conns * 4,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	return &client{http: &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// post signs and sends one delivery and answers the status it got and the
// attempt's coded error.
func (c *client) post(ctx context.Context, o signer, ep Endpoint, ev Event) (int, error) {
	u, err := checkURL(ep.URL, o.allowHTTP(), o.allowPrivate())
	if err != nil {
		return 0, err
	}
	keys, err := secretKeys(ep.Secrets, errcode.WebhookEndpointInvalid)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(ev.Body))
	if err != nil {
		return 0, invalidURL("the endpoint's URL does not make a request")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "pipe-webhook/1")
	o.signing().sign(req.Header, keys, ev, time.Now())
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, sendErr(err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponseBytes)) // read to reuse the connection, never stored
	_ = resp.Body.Close()
	return resp.StatusCode, statusErr(resp)
}

// connsPerHost answers MaxConnsPerHost or its default.
func (o Options[In]) connsPerHost() int {
	if o.MaxConnsPerHost == 0 {
		return defaultConnsPerHost
	}
	return o.MaxConnsPerHost
}

// defaultConnsPerHost is MaxConnsPerHost's default.
const defaultConnsPerHost = 64

// signer is what post needs of the declaration.
type signer interface {
	signing() Signing
	allowHTTP() bool
	allowPrivate() bool
}

func (o Options[In]) signing() Signing   { return o.Signing }
func (o Options[In]) allowHTTP() bool    { return o.AllowHTTP }
func (o Options[In]) allowPrivate() bool { return o.AllowPrivate }

// sendErr codes a request that got no answer. The transport's message
// names the URL, which may carry a token: it stays the cause, out of the
// message.
func sendErr(err error) error {
	var coded *errcode.Error
	if errors.As(err, &coded) {
		return coded // the dial-time address refusal
	}
	msg := "the endpoint could not be reached"
	if errors.Is(err, context.DeadlineExceeded) {
		msg = "the endpoint did not answer before the attempt's deadline"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		msg = "the endpoint did not answer before the attempt's deadline"
	}
	return errcode.Wrap(err, errcode.WebhookDeliveryFailed, "%s", msg).
		WithFix("the delivery is retried; check that the endpoint is up and answers within the job's Timeout")
}

// statusErr codes an endpoint's answer: nil for 2xx.
func statusErr(resp *http.Response) error {
	s := resp.StatusCode
	switch {
	case s >= 200 && s < 300:
		return nil
	case s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable:
		if secs, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return errcode.New(errcode.WebhookDeliveryThrottled, "the endpoint answered %d with Retry-After", s).
				WithRetryAfter(secs).WithFix("the delivery waits out the Retry-After, clamped by the job's Retry.MaxDelay")
		}
	}
	if s >= 500 || s == http.StatusTooManyRequests {
		return errcode.New(errcode.WebhookDeliveryFailed, "the endpoint answered %d", s).
			WithFix("the delivery is retried; the endpoint's owner should look at its errors")
	}
	return errcode.New(errcode.WebhookDeliveryRejected, "the endpoint answered %d", s).
		WithFix("the endpoint refused the delivery (redirects are not followed): its owner must accept it, then requeue the run")
}

// retryAfter reads a Retry-After header: delay-seconds or an HTTP date.
func retryAfter(v string, now time.Time) (int, bool) {
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return n, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(int(at.Sub(now).Seconds()+0.5), 0), true
	}
	return 0, false
}
