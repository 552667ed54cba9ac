package pipemetrics_test

import (
	"context"
	"log"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/pipeline/pipemetrics"
)

// A worker process serves its metrics beside its work.
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
