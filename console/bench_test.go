package console_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// BenchmarkPages serves each page from a pipe.jobs of PIPE_CONSOLE_ROWS rows
// (default 1,000,000) of which the share PIPE_CONSOLE_OPEN (default 0.01) is
// ready and the rest done: the server time a page costs an operator.
func BenchmarkPages(b *testing.B) {
	rows, open := 1_000_000, 0.01
	if v, err := strconv.Atoi(os.Getenv("PIPE_CONSOLE_ROWS")); err == nil {
		rows = v
	}
	if v, err := strconv.ParseFloat(os.Getenv("PIPE_CONSOLE_OPEN"), 64); err == nil {
		open = v
	}
	pool := fixtures.DB(b)
	job := flakyImport(pool)
	ins := make([]importIn, 10_000)
	for n := 0; n < rows; n += len(ins) {
		for i := range ins {
			ins[i] = importIn{File: fmt.Sprintf("f-%d.csv", n+i)}
		}
		if _, err := job.EnqueueMany(b.Context(), pool, ins); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := pool.Exec(b.Context(), `update pipe.runs set state = 'done', finished_at = now() where random() >= $1`, open); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(b.Context(), `vacuum analyze pipe.jobs`); err != nil {
		b.Fatal(err)
	}
	var one string
	if err := pool.QueryRow(b.Context(), `select id::text from pipe.jobs order by id desc limit 1`).Scan(&one); err != nil {
		b.Fatal(err)
	}
	c, err := console.New(pipeline.NewAdmin(pool), console.Options{Manifests: []pipeline.Manifest{job.Describe()}})
	if err != nil {
		b.Fatal(err)
	}
	for _, page := range []string{"/", "/jobs", "/jobs?state=ready", "/jobs?name=orders.import&state=dead", "/jobs/" + one, "/tasks", "/workers"} {
		b.Run(page, func(b *testing.B) {
			for b.Loop() {
				w := httptest.NewRecorder()
				c.ServeHTTP(w, httptest.NewRequest(http.MethodGet, page, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", page, w.Code)
				}
			}
		})
	}
}
