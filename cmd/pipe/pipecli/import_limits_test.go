package pipecli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pipekit/pipe/internal/hostile"
)

// writeZstd writes size bytes of hostile.Rows as a zstd file with a window
// of window bytes.
func writeZstd(t *testing.T, size int64, window int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rows.csv.zst")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := hostile.Zstd(f, hostile.Rows(size), window); err != nil {
		t.Fatal(err)
	}
	return p
}

// A zstd window past the default is refused with its code, and read when
// --max-window-bytes allows it; --max-ratio refuses a file that inflates
// past it; a limit out of range is refused before anything is enqueued.
func TestImportDecodingLimits(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, hostile.BombTable)
	wide := writeZstd(t, 1<<20, 16<<20)
	r := b.pipe(t, "import", wide, "--into", "bomb", "--wait")
	wantError(t, r, 1, "X_COMPRESSION_WINDOW_TOO_LARGE")
	r = b.pipe(t, "import", wide, "--into", "bomb", "--wait", "--max-window-bytes", "16777216")
	if r.code != 0 {
		t.Fatalf("exit %d with the window allowed\n%s", r.code, r.stderr)
	}

	r = b.pipe(t, "import", writeZstd(t, 4<<20, 1<<20), "--into", "bomb", "--wait", "--max-ratio", "2")
	wantError(t, r, 1, "X_DECOMPRESSED_TOO_LARGE")

	r = b.pipe(t, "import", wide, "--into", "bomb", "--max-window-bytes", "100")
	wantError(t, r, 1, "X_JOB_INPUT_INVALID")
	r = b.pipe(t, "import", wide, "--into", "bomb", "--max-parquet-memory", "-1")
	wantError(t, r, 1, "X_JOB_INPUT_INVALID")
}
