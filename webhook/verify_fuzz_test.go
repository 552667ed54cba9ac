package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/webhook"
)

// FuzzVerifyStandard checks VerifyStandard against the Standard Webhooks
// reference library on headers a sender could send: whatever the reference
// accepts is accepted; whatever is accepted carries, as one of its
// whitespace-separated entries, the signature the reference computes (no
// forgery); a refusal is coded and its message quotes nothing sent.
func FuzzVerifyStandard(f *testing.F) {
	f.Add("msg_1", int64(0), []byte(`{"a":1}`), "", []byte("key"), uint8(1))
	f.Add("msg_1", int64(-400), []byte(`{}`), "v1,AAAA", []byte("k"), uint8(0))
	f.Add("m", int64(30), []byte(""), "v2,x v1,", []byte{0xff}, uint8(2))
	f.Add("id", int64(0), []byte("b"), "\tv1,y\n", []byte("s"), uint8(3))
	f.Fuzz(func(t *testing.T, id string, skew int64, body []byte, sent string, key []byte, mode uint8) {
		if len(key) == 0 {
			return
		}
		secret := webhook.SecretPrefix + base64.StdEncoding.EncodeToString(key)
		ref, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatalf("reference refuses the secret: %v", err)
		}
		now := time.Now()
		at := now.Add(clearOfTolerance(skew))
		secs := strconv.FormatInt(at.Unix(), 10)
		good, _ := ref.Sign(id, at, body)
		switch mode % 4 {
		case 1:
			sent = good
		case 2:
			sent += " " + good
		case 3:
			sent = good + " " + sent
		}
		h := http.Header{}
		h.Set(webhook.HeaderID, id)
		h.Set(webhook.HeaderTimestamp, secs)
		h.Set(webhook.HeaderSignature, sent)
		ours, theirs := webhook.VerifyStandard(h, body, secret), ref.Verify(body, h)
		if theirs == nil && ours != nil {
			t.Fatalf("the reference accepts id %q, signature %q; VerifyStandard: %v", id, sent, ours)
		}
		if ours == nil && !slices.Contains(strings.Fields(h.Get(webhook.HeaderSignature)), good) {
			t.Fatalf("accepted id %q, signature %q, which holds no %q", id, sent, good)
		}
		requireFixedRefusal(t, ours, errcode.WebhookSignatureInvalid, errcode.WebhookSignatureStale)
	})
}

// FuzzVerifyTimestamp: what Sign signs with the timestamp scheme verifies;
// a header changed in any byte, or a body changed, is refused unless the
// change leaves the signed text and a matching v1 intact; every refusal is
// coded with a message that quotes nothing sent.
func FuzzVerifyTimestamp(f *testing.F) {
	f.Add("evt_1", "orders.paid", []byte(`{"a":1}`), "", uint16(0), byte(0), int64(0))
	f.Add("e", "t", []byte("x"), "t=1,v1=00", uint16(3), byte('9'), int64(-400))
	f.Add("e:1", "a:b", []byte(""), " , ,t=,v1=", uint16(40), byte(','), int64(20))
	f.Fuzz(func(t *testing.T, id, topic string, body []byte, extra string, at uint16, b byte, skew int64) {
		const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
		skewed := clearOfTolerance(skew)
		h, err := webhook.Sign(webhook.SignTimestamp, webhook.Event{ID: id, Topic: topic, Body: body}, time.Now().Add(skewed), secret)
		if err != nil {
			t.Fatal(err)
		}
		sig := h.Get(webhook.HeaderTimestampSignature)
		err = webhook.VerifyTimestamp(h, body, secret)
		if stale := skewed.Abs() > webhook.Tolerance; stale != (errcode.CodeOf(err) == errcode.WebhookSignatureStale) || !stale && err != nil {
			t.Fatalf("signature %q over id %q, topic %q, %v from now: %v", sig, id, topic, skewed, err)
		}
		changed := []byte(sig)
		if len(changed) > 0 {
			changed[int(at)%len(changed)] = b
		}
		h.Set(webhook.HeaderTimestampSignature, string(changed)+extra)
		err = webhook.VerifyTimestamp(h, body, secret)
		if err == nil && !stillSigned(string(changed)+extra, sig) {
			t.Fatalf("accepted the changed header %q (signed %q)", string(changed)+extra, sig)
		}
		requireFixedRefusal(t, err, errcode.WebhookSignatureInvalid, errcode.WebhookSignatureStale)
	})
}

// stillSigned reports whether the changed header still names, as
// VerifyTimestamp reads it, the timestamp and the v1 of the original.
func stillSigned(changed, original string) bool {
	read := func(s string) (string, []string) {
		var secs string
		var v1 []string
		for _, part := range strings.Split(s, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
			switch k {
			case "t":
				secs = v
			case "v1":
				v1 = append(v1, v)
			}
		}
		return secs, v1
	}
	secs, sigs := read(changed)
	wantSecs, want := read(original)
	return secs == wantSecs && slices.Contains(sigs, want[0])
}

// FuzzVerifyHMAC: a vendor's signature is accepted exactly when it
// decodes, after the prefix, to the HMAC-SHA256 of the body under the
// secret; refusals are coded with a message that quotes nothing sent.
func FuzzVerifyHMAC(f *testing.F) {
	f.Add([]byte(`{"a":1}`), "", "sha256=", false, uint8(1))
	f.Add([]byte(""), "zz", "", true, uint8(0))
	f.Add([]byte("b"), " ", "p", true, uint8(2))
	f.Fuzz(func(t *testing.T, body []byte, given, prefix string, b64 bool, mode uint8) {
		const secret = "vendor-secret"
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(body)
		mac := m.Sum(nil)
		enc, encoding := hex.EncodeToString(mac), "hex"
		if b64 {
			enc, encoding = base64.StdEncoding.EncodeToString(mac), "base64"
		}
		switch mode % 3 {
		case 1:
			given = prefix + enc
		case 2:
			given = " " + prefix + enc + given
		}
		err := webhook.VerifyHMAC(body, given, webhook.HMAC{Secrets: []string{"other", secret}, Encoding: encoding, Prefix: prefix})
		rest, ok := strings.CutPrefix(strings.TrimSpace(given), prefix)
		decode := hex.DecodeString
		if b64 {
			decode = base64.StdEncoding.DecodeString
		}
		decoded, derr := decode(rest)
		if want := ok && derr == nil && hmac.Equal(decoded, mac); want != (err == nil) {
			t.Fatalf("prefix %q, signature %q (%s): %v, want accepted %v", prefix, given, encoding, err, want)
		}
		requireFixedRefusal(t, err, errcode.WebhookSignatureInvalid)
	})
}

// requireFixedRefusal fails t unless err is nil or one of codes with the
// message that code always carries: the same whatever was sent.
func requireFixedRefusal(t *testing.T, err error, codes ...errcode.Code) {
	t.Helper()
	if err == nil {
		return
	}
	if !slices.Contains(codes, errcode.CodeOf(err)) {
		t.Fatalf("refusal coded %q: %v", errcode.CodeOf(err), err)
	}
	if want := fixedMessages[errcode.CodeOf(err)]; err.Error() != want {
		t.Fatalf("refusal %q, want the fixed %q", err.Error(), want)
	}
}

// fixedMessages are each refusal's message, as refusals of fixed input give
// it.
var fixedMessages = func() map[errcode.Code]string {
	h := http.Header{}
	h.Set(webhook.HeaderID, "m")
	h.Set(webhook.HeaderTimestamp, "1")
	stale := webhook.VerifyStandard(h, nil, "s")
	h.Set(webhook.HeaderTimestamp, strconv.FormatInt(time.Now().Unix(), 10))
	invalid := webhook.VerifyStandard(h, nil, "s")
	return map[errcode.Code]string{
		errcode.WebhookSignatureStale:   stale.Error(),
		errcode.WebhookSignatureInvalid: invalid.Error(),
	}
}()

// clearOfTolerance answers a skew of under 15 minutes either way, never
// within 20 s of the tolerance, where two readings of the clock could
// disagree.
func clearOfTolerance(skew int64) time.Duration {
	d := time.Duration(skew%900) * time.Second
	if off := d.Abs() - webhook.Tolerance; off.Abs() < 20*time.Second {
		return 0
	}
	return d
}
