package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// Signing is how a delivery is signed.
type Signing string

const (
	// SignStandard is Standard Webhooks 1.0: webhook-id, webhook-timestamp
	// and webhook-signature, "v1,<base64 HMAC-SHA256 of id.timestamp.body>"
	// once per secret, space-separated. The default.
	SignStandard Signing = "standard"
	// SignTimestamp is the reference specification's scheme:
	// X-Webhook-Signature "t=<seconds>,v1=<hex>" (one v1 per secret) over
	// "v1:<t>:<eventId>:<topic>:<body>", beside X-Webhook-Id and
	// X-Webhook-Topic.
	SignTimestamp Signing = "timestamp"
)

// The headers of each signing.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"

	HeaderTimestampSignature = "X-Webhook-Signature"
	HeaderTimestampID        = "X-Webhook-Id"
	HeaderTimestampTopic     = "X-Webhook-Topic"
)

// sign sets the signature headers of one delivery of ev, at ts, with every
// key.
func (s Signing) sign(h http.Header, keys [][]byte, ev Event, ts time.Time) {
	secs := strconv.FormatInt(ts.Unix(), 10)
	if s == SignTimestamp {
		h.Set(HeaderTimestampID, ev.ID)
		h.Set(HeaderTimestampTopic, ev.Topic)
		h.Set(HeaderTimestampSignature, timestampSignature(keys, secs, ev.ID, ev.Topic, ev.Body))
		return
	}
	h.Set(HeaderID, ev.ID)
	h.Set(HeaderTimestamp, secs)
	sigs := make([]string, len(keys))
	for i, k := range keys {
		sigs[i] = "v1," + standardMAC(k, ev.ID, secs, ev.Body)
	}
	h.Set(HeaderSignature, strings.Join(sigs, " "))
}

// standardMAC is Standard Webhooks' signature of one message, in base64.
func standardMAC(key []byte, id, secs string, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(secs))
	m.Write([]byte{'.'})
	m.Write(body)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// timestampMAC is the timestamp scheme's signature of one message, in hex.
func timestampMAC(key []byte, secs, id, topic string, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("v1:" + secs + ":" + id + ":" + topic + ":"))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

func timestampSignature(keys [][]byte, secs, id, topic string, body []byte) string {
	var b strings.Builder
	b.WriteString("t=" + secs)
	for _, k := range keys {
		b.WriteString(",v1=" + timestampMAC(k, secs, id, topic, body))
	}
	return b.String()
}

// Sign answers the headers a delivery of ev signed at `at` carries under
// secrets with s — for a test of a receiver, or a delivery sent by other
// means. No secret, or an empty or undecodable one, is X_CONFIG_INVALID.
func Sign(s Signing, ev Event, at time.Time, secrets ...string) (http.Header, error) {
	keys, err := secretKeys(secrets, errcode.ConfigInvalid)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	s.sign(h, keys, ev, at)
	return h, nil
}
