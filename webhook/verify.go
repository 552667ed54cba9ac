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

// Tolerance is how far a signed timestamp may be from now, either way,
// before VerifyStandard and VerifyTimestamp refuse it as stale.
const Tolerance = 5 * time.Minute

// HMAC says how a vendor signs its body with VerifyHMAC.
type HMAC struct {
	// Secrets are the shared secrets, newest first: a signature matching
	// any one is accepted (a rotation list). An empty list, or one empty
	// entry, is X_CONFIG_INVALID — an unset environment variable must not
	// verify as the empty key.
	Secrets []string
	// Encoding of the signature: "hex" (default) or "base64".
	Encoding string
	// Prefix is text before the signature in the header, such as
	// "sha256=". Default none.
	Prefix string
}

// VerifyHMAC checks given, the signature a vendor sent, against the
// HMAC-SHA256 of body under each secret, in constant time. A missing or
// wrong signature is X_WEBHOOK_SIGNATURE_INVALID.
func VerifyHMAC(body []byte, given string, o HMAC) error {
	keys, err := configKeys(o.Secrets)
	if err != nil {
		return err
	}
	sig, ok := strings.CutPrefix(strings.TrimSpace(given), o.Prefix)
	if !ok || sig == "" {
		return signatureInvalid()
	}
	want, err := decodeSig(sig, o.Encoding)
	if err != nil {
		return err
	}
	for _, k := range keys {
		m := hmac.New(sha256.New, k)
		m.Write(body)
		if hmac.Equal(m.Sum(nil), want) {
			return nil
		}
	}
	return signatureInvalid()
}

func decodeSig(sig, encoding string) ([]byte, error) {
	switch encoding {
	case "", "hex":
		b, err := hex.DecodeString(sig)
		if err != nil {
			return nil, signatureInvalid()
		}
		return b, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(sig)
		if err != nil {
			return nil, signatureInvalid()
		}
		return b, nil
	}
	return nil, errcode.New(errcode.ConfigInvalid, "HMAC.Encoding is neither hex nor base64").
		WithFix("set Encoding to \"hex\" or \"base64\"")
}

// VerifyStandard checks a Standard Webhooks 1.0 signature: webhook-id,
// webhook-timestamp within [Tolerance] of now, and a "v1,<base64>" entry
// of webhook-signature matching id.timestamp.body under one of secrets
// (whsec_ secrets, newest first), in constant time. A stale timestamp is
// X_WEBHOOK_SIGNATURE_STALE; a missing or wrong signature
// X_WEBHOOK_SIGNATURE_INVALID; no secret, or an empty one,
// X_CONFIG_INVALID.
func VerifyStandard(h http.Header, body []byte, secrets ...string) error {
	keys, err := configKeys(secrets)
	if err != nil {
		return err
	}
	id, secs := h.Get(HeaderID), h.Get(HeaderTimestamp)
	if id == "" {
		return signatureInvalid()
	}
	if err := checkFresh(secs, time.Now()); err != nil {
		return err
	}
	for _, entry := range strings.Fields(h.Get(HeaderSignature)) {
		sig, ok := strings.CutPrefix(entry, "v1,")
		if !ok {
			continue
		}
		for _, k := range keys {
			if hmac.Equal([]byte(standardMAC(k, id, secs, body)), []byte(sig)) {
				return nil
			}
		}
	}
	return signatureInvalid()
}

// VerifyTimestamp checks the [SignTimestamp] scheme: X-Webhook-Signature
// "t=<seconds>,v1=<hex>" over "v1:<t>:<id>:<topic>:<body>" with the id and
// topic of X-Webhook-Id and X-Webhook-Topic, t within [Tolerance] of now.
// Its refusals are VerifyStandard's.
func VerifyTimestamp(h http.Header, body []byte, secrets ...string) error {
	keys, err := configKeys(secrets)
	if err != nil {
		return err
	}
	var secs string
	var sigs []string
	for _, part := range strings.Split(h.Get(HeaderTimestampSignature), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			secs = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if err := checkFresh(secs, time.Now()); err != nil {
		return err
	}
	id, topic := h.Get(HeaderTimestampID), h.Get(HeaderTimestampTopic)
	for _, sig := range sigs {
		for _, k := range keys {
			if hmac.Equal([]byte(timestampMAC(k, secs, id, topic, body)), []byte(sig)) {
				return nil
			}
		}
	}
	return signatureInvalid()
}

// checkFresh refuses a timestamp that is missing, not a number, or further
// than Tolerance from now.
func checkFresh(secs string, now time.Time) error {
	n, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return signatureInvalid()
	}
	at := time.Unix(n, 0)
	if now.Sub(at) > Tolerance || at.Sub(now) > Tolerance {
		return errcode.New(errcode.WebhookSignatureStale, "the signed timestamp is more than 5 minutes from now").
			WithFix("the sender must sign with its current time; check both clocks")
	}
	return nil
}

func configKeys(secrets []string) ([][]byte, error) {
	return secretKeys(secrets, errcode.ConfigInvalid)
}

func signatureInvalid() error {
	return errcode.New(errcode.WebhookSignatureInvalid, "the signature is missing or matches no secret").
		WithFix("check the secret shared with the sender, and that the body reaches the verifier unchanged")
}
