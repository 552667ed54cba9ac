package storebench

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestZZKeepFill is a throwaway: fills a scratch database and keeps it.
func TestZZKeepFill(t *testing.T) {
	name := os.Getenv("PIPE_KEEP_DB")
	if name == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(os.Getenv("PIPE_KEEP_N"))
	open, _ := strconv.Atoi(os.Getenv("PIPE_KEEP_OPEN"))
	ctx := context.Background()
	url := "postgres://postgres@127.0.0.1:5432/postgres"
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	s, err := createScratch(ctx, admin, url, name)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := Options{Finished: n, Open: open}.withDefaults()
	plan, err := planFill(ctx, s, o)
	if err != nil {
		t.Fatal(err)
	}
	f, p, err := fill(ctx, s, plan, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkpoint(ctx, s)
	b, _ := json.Marshal(map[string]any{"keys": p.keys, "conc": p.concKeys})
	_ = os.WriteFile("/tmp/picks_"+name+".json", b, 0o644)
	t.Logf("%+v", f)
}
