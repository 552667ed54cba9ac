package pipemetrics_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/pipeline/pipemetrics"
)

// A worker process serves its metrics beside its work. It serves until the
// process ends, so go test compiles this example but does not run it.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://postgres@127.0.0.1:5432/postgres")
	if err != nil {
		log.Fatal(err)
	}
	var jobs []pipeline.Registrable // the process's jobs
	reg, err := pipeline.NewRegistry(jobs...)
	if err != nil {
		log.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", pipemetrics.Handler(pipemetrics.New(pool, w)))
	log.Fatal(http.ListenAndServe(":9090", mux))
}

// Each scrape reads the queues from the database: three runs enqueued, and
// no worker yet, are three ready.
func ExampleNew() {
	ctx := context.Background()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	remind := pipeline.MustJob("remind", func(user string) string { return user },
		func(ctx context.Context, run *pipeline.Run[string]) (bool, error) { return true, nil })
	for _, user := range []string{"ada", "grace", "linus"} {
		if _, err := remind.Enqueue(ctx, pool, user); err != nil {
			log.Fatal(err)
		}
	}

	metrics := pipemetrics.Handler(pipemetrics.New(pool))
	scrape := httptest.NewRecorder()
	metrics.ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for line := range strings.Lines(scrape.Body.String()) {
		if strings.HasPrefix(line, "queue_depth{") {
			fmt.Print(line)
		}
	}
	// Output:
	// queue_depth{queue="default",state="delayed"} 0
	// queue_depth{queue="default",state="ready"} 3
	// queue_depth{queue="default",state="running"} 0
	// queue_depth{queue="default",state="suspended"} 0
}
