package pqread_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/pqread"
)

// numbered writes n rows of an int64 id and an optional string, a null
// every third row, perGroup rows to a row group.
func numbered(t testing.TB, n, perGroup int) []byte {
	return encode(t, numberedSchema, numberedRows(n), parquet.MaxRowsPerRowGroup(int64(perGroup)))
}

var numberedSchema = parquet.NewSchema("t", parquet.Group{
	"id":   parquet.Int(64),
	"name": parquet.Optional(parquet.String()),
})

// numberedRows are n rows of numberedSchema: ids from 1, every third name
// null.
func numberedRows(n int) []parquet.Row {
	rows := make([]parquet.Row, n)
	for i := range rows {
		name := null(0, 1)
		if i%3 != 0 {
			name = lv(str(fmt.Sprintf("n%d", i+1)), 0, 1, 1)
		}
		rows[i] = parquet.Row{lv(parquet.Int64Value(int64(i+1)), 0, 0, 0), name}
	}
	return rows
}

// Rows are numbered from 1 across row groups, in batches that span them.
func TestRowGroups(t *testing.T) {
	t.Parallel()
	f := open(t, numbered(t, 1000, 300))
	if got := f.RowGroups(); got != 4 {
		t.Fatalf("RowGroups() = %d, want 4", got)
	}
	for g, want := range []int64{300, 300, 300, 100} {
		if got := f.NumRows(g); got != want {
			t.Errorf("NumRows(%d) = %d, want %d", g, got, want)
		}
	}
	rows := readAll(t, f)
	if len(rows) != 1000 {
		t.Fatalf("read %d rows, want 1000", len(rows))
	}
	for i, row := range rows {
		want := fmt.Sprintf("%d: n:%d | s:n%d", i+1, i+1, i+1)
		if i%3 == 0 {
			want = fmt.Sprintf("%d: n:%d | NULL", i+1, i+1)
		}
		if row != want {
			t.Fatalf("row %q, want %q", row, want)
		}
	}
}

// A later row group alone starts at its own first row's number.
func TestReadOneRowGroup(t *testing.T) {
	t.Parallel()
	f := open(t, numbered(t, 10, 4))
	var got []int64
	err := f.ReadRowGroup(context.Background(), 2, func(n int64, _ []pqread.Value) error {
		got = append(got, n)
		return nil
	})
	if err != nil || fmt.Sprint(got) != "[9 10]" {
		t.Fatalf("rows %v, error %v; want [9 10]", got, err)
	}
	wantCode(t, f.ReadRowGroup(context.Background(), 3, nil), errcode.Invariant)
	wantCode(t, f.ReadRowGroup(context.Background(), -1, nil), errcode.Invariant)
}

// Cancelling the context stops the reading at the next batch.
func TestCancel(t *testing.T) {
	t.Parallel()
	f := open(t, numbered(t, 2000, 2000))
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := f.ReadRowGroup(ctx, 0, func(int64, []pqread.Value) error {
		calls++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || calls > 256 {
		t.Fatalf("error %v after %d rows; want context.Canceled within one batch", err, calls)
	}
	err = f.ReadRowGroup(ctx, 0, func(int64, []pqread.Value) error {
		t.Fatal("callback ran under a cancelled context")
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// The callback's error stops the reading and comes back as it is.
func TestCallbackError(t *testing.T) {
	t.Parallel()
	f := open(t, numbered(t, 10, 10))
	stop := errors.New("stop")
	calls := 0
	err := f.ReadRowGroup(context.Background(), 0, func(int64, []pqread.Value) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("error %v after %d calls; want the callback's error after 1", err, calls)
	}
}

// Check refuses a field that is not one flat column, naming it; reading
// refuses the same way.
func TestCheckRefuses(t *testing.T) {
	t.Parallel()
	for name, node := range map[string]parquet.Node{
		"nested struct":     parquet.Optional(parquet.Group{"a": parquet.Int(32), "b": parquet.String()}),
		"repeated group":    parquet.Repeated(parquet.Group{"a": parquet.Int(32)}),
		"list of structs":   parquet.List(parquet.Group{"a": parquet.Int(32), "b": parquet.String()}),
		"list of lists":     parquet.List(parquet.List(parquet.Int(32))),
		"map of structs":    parquet.Map(parquet.String(), parquet.Group{"a": parquet.Int(32)}),
		"struct in a group": parquet.Group{"inner": parquet.Group{"a": parquet.Int(32)}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			schema := parquet.NewSchema("t", parquet.Group{"ok": parquet.Int(32), "bad_field": node})
			var buf bytes.Buffer
			if err := parquet.NewWriter(&buf, schema).Close(); err != nil {
				t.Fatal(err)
			}
			f, err := pqread.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if got := strings.Join(f.Columns(), ","); got != "bad_field,ok" {
				t.Errorf("Columns() = %s", got)
			}
			err = f.Check()
			wantCode(t, err, errcode.ImportHeaderMismatch)
			if !strings.Contains(err.Error(), `"bad_field"`) {
				t.Errorf("error %q does not name the field", err)
			}
			wantCode(t, f.ReadRowGroup(context.Background(), 0, nil), errcode.ImportHeaderMismatch)
		})
	}
}
