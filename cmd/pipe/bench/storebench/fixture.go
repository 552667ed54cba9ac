package storebench

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// jobKind is one job of the fixture's application: its name, the queue it
// runs in, how many of the runs are its, the prefix of its idempotency
// keys, the prefix of its concurrency keys ("" for a job with no keyed
// limit) and the steps its journal rows name.
type jobKind struct {
	name, queue   string
	weight        float64
	key, conc     string
	steps         []string
	failsWith     string // the error a dead or failed run of it carries
	inputTemplate string // the input document, %d the run's number
}

// kinds are the fixture's 20 jobs in 10 queues. Their weights fall off as
// a busy application's do: a few jobs make most of the runs.
var kinds = []jobKind{
	{"send-welcome-email", "email", 30, "signup", "", []string{"render", "send"}, "smtp: 451 try again later", `{"user":%d,"template":"welcome"}`},
	{"send-receipt", "email", 22, "receipt", "", []string{"render", "send"}, "smtp: 550 mailbox unavailable", `{"order":%d,"template":"receipt"}`},
	{"deliver-webhook", "webhooks", 20, "delivery", "endpoint", []string{"sign", "post"}, "POST: 503 Service Unavailable", `{"delivery":%d,"attempts":1}`},
	{"charge-invoice", "billing", 12, "invoice", "customer", []string{"authorize", "capture"}, "card_declined", `{"invoice":%d,"currency":"EUR"}`},
	{"sync-crm-contact", "sync", 10, "contact", "account", []string{"fetch", "upsert"}, "crm: rate limited", `{"contact":%d,"source":"hubspot"}`},
	{"resize-image", "media", 8, "image", "", []string{"download", "resize", "upload"}, "image: unsupported format", `{"image":%d,"sizes":[64,256,1024]}`},
	{"index-document", "search", 7, "doc", "", []string{"extract", "index"}, "search: mapping conflict", `{"document":%d,"index":"docs-v3"}`},
	{"push-notification", "notifications", 6, "push", "", []string{"send"}, "apns: BadDeviceToken", `{"device":%d,"kind":"reminder"}`},
	{"send-sms", "notifications", 5, "sms", "", []string{"send"}, "sms: invalid number", `{"message":%d,"country":"DE"}`},
	{"refresh-token", "sync", 4, "token", "account", []string{"refresh"}, "oauth: invalid_grant", `{"connection":%d}`},
	{"generate-report", "reports", 3, "report", "tenant", []string{"query", "render", "store"}, "report: query timeout", `{"report":%d,"format":"pdf"}`},
	{"export-csv", "exports", 3, "export", "tenant", []string{"query", "write", "upload"}, "export: disk quota", `{"export":%d,"rows":25000}`},
	{"reconcile-payouts", "billing", 2, "payout", "", []string{"fetch", "match"}, "stripe: api_connection_error", `{"payout":%d}`},
	{"update-search-ranking", "search", 2, "ranking", "", []string{"score"}, "ranking: stale snapshot", `{"batch":%d}`},
	{"transcode-video", "media", 2, "video", "", []string{"probe", "transcode", "upload"}, "ffmpeg: exit status 1", `{"video":%d,"preset":"720p"}`},
	{"nightly-digest", "email", 1.5, "digest", "", []string{"collect", "send"}, "digest: template missing", `{"user":%d,"period":"day"}`},
	{"expire-sessions", "default", 1.2, "sessions", "", []string{"sweep"}, "sweep: lock timeout", `{"shard":%d}`},
	{"cleanup-uploads", "default", 1, "uploads", "", []string{"list", "delete"}, "s3: AccessDenied", `{"prefix":%d}`},
	{"audit-export", "exports", 0.8, "audit", "tenant", []string{"query", "upload"}, "export: timeout", `{"audit":%d}`},
	{"warm-cache", "default", 0.5, "cache", "", []string{"load"}, "redis: connection refused", `{"key":%d}`},
}

// The tenants: tenantCount names, of which the last emptyTenants have no
// runs at all (a listing of them answers an empty page), and a share of the
// runs (noTenantShare) have no tenant.
const (
	tenantCount   = 50
	emptyTenants  = 10
	noTenantShare = 0.15
)

// tenantName answers the i-th tenant's name (0-based).
func tenantName(i int) string { return fmt.Sprintf("tenant-%03d", i+1) }

// The finished runs' end states: the shares of dead, failed and cancelled
// runs (the rest are done): 3% dead or failed.
const (
	deadShare      = 0.025
	failedShare    = 0.005
	cancelledShare = 0.005
)

// journalShare is the share of runs with a journal row beside the
// transitions their row holds (a step's output): one in four.
const journalShare = 0.25

// weighted picks an index at random with the given weights.
type weighted struct{ cum []float64 }

func newWeighted(ws []float64) weighted {
	cum := make([]float64, len(ws))
	var sum float64
	for i, w := range ws {
		sum += w
		cum[i] = sum
	}
	for i := range cum {
		cum[i] /= sum
	}
	return weighted{cum: cum}
}

func (w weighted) pick(r *rand.Rand) int {
	return min(sort.SearchFloat64s(w.cum, r.Float64()), len(w.cum)-1)
}

// kindPicker and tenantPicker draw a run's job and tenant (among those
// with runs: weights 1/rank).
var (
	kindPicker   = newWeighted(kindWeights())
	tenantPicker = newWeighted(tenantWeights())
)

func kindWeights() []float64 {
	ws := make([]float64, len(kinds))
	for i, k := range kinds {
		ws[i] = k.weight
	}
	return ws
}

func tenantWeights() []float64 {
	ws := make([]float64, tenantCount-emptyTenants)
	for i := range ws {
		ws[i] = 1 / float64(i+1)
	}
	return ws
}

// queueNames answers the fixture's queues, each once, in the order its jobs
// name them.
func queueNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range kinds {
		if !seen[k.queue] {
			seen[k.queue] = true
			out = append(out, k.queue)
		}
	}
	return out
}
