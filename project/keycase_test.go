package project_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/project"
)

// A key is its field's only in its own case, as the schema reads it:
// encoding/json alone took {"ROLLUPS":[]} (found by FuzzLoad), a file
// pipe.schema.json refuses.
func TestAKeyIsMatchedInItsCase(t *testing.T) {
	nested := strings.Replace(goodRollup, `"lookback"`, `"Lookback"`, 1)
	for _, raw := range []string{`{"ROLLUPS":[]}`, `{"Views":[]}`, `{"rollups":[` + nested + `]}`, `{"outbox":{"Broker":"nats","streams":[]}}`} {
		path := filepath.Join(t.TempDir(), "pipe.json")
		if err := os.WriteFile(path, []byte(raw), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := project.Load(path); !errors.Is(err, errcode.ConfigInvalid) || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("%s: %v", raw, err)
		}
		if err := schemaAccepts(t, compiledSchema(t), raw); err == nil {
			t.Errorf("the schema takes %s", raw)
		}
	}
	if _, err := project.Decode(strings.NewReader(`{"rollups":[` + goodRollup + `]}`)); err != nil {
		t.Fatalf("a file in the fields' case: %v", err)
	}
}
