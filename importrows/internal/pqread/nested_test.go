package pqread_test

import (
	"context"
	"math"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/pqread"
)

var nestedSchema = parquet.NewSchema("t", parquet.Group{
	"a_list":   parquet.Optional(parquet.List(parquet.Optional(parquet.Int(32)))),                                      // leaf 0, max def 3
	"b_strs":   parquet.List(parquet.String()),                                                                         // leaf 1, max def 1
	"c_rep":    parquet.Repeated(parquet.Leaf(parquet.DoubleType)),                                                     // leaf 2, max def 1
	"d_legacy": parquet.Optional(annotatedGroup{parquet.Group{"array": parquet.Repeated(parquet.String())}, listType}), // leaf 3, max def 2
	"e_map":    parquet.Optional(parquet.Map(parquet.String(), parquet.Optional(parquet.Int(64)))),                     // leaves 4 and 5, max def 2 and 3
	"f_json":   parquet.List(parquet.Optional(parquet.JSON())),                                                         // leaf 6, max def 2
})

var nestedRows = []parquet.Row{
	{ // lists with values and null elements
		lv(parquet.Int32Value(1), 0, 3, 0), null(2, 0).Level(1, 2, 0), lv(parquet.Int32Value(3), 1, 3, 0),
		lv(str("a"), 0, 1, 1), lv(str("q\"\n\x01\xff"), 1, 1, 1),
		lv(parquet.DoubleValue(1.5), 0, 1, 2), lv(parquet.DoubleValue(math.NaN()), 1, 1, 2),
		lv(str("x"), 0, 2, 3), lv(str("y"), 1, 2, 3),
		lv(str("k"), 0, 2, 4), lv(str("z"), 1, 2, 4),
		lv(parquet.Int64Value(1), 0, 3, 5), null(2, 5).Level(1, 2, 5),
		lv(str(`{"a":1}`), 0, 2, 6), lv(str("{"), 1, 2, 6), null(1, 6).Level(1, 1, 6),
	},
	{ // null lists where they may be null, empty ones where not
		null(0, 0), null(0, 1), null(0, 2), null(0, 3), null(0, 4), null(0, 5), null(0, 6),
	},
	{ // empty lists, and lists of one
		null(1, 0), lv(str("z"), 0, 1, 1), lv(parquet.DoubleValue(2), 0, 1, 2), null(1, 3),
		null(1, 4), null(1, 5), null(1, 6),
	},
}

// Lists and maps read as JSON text; levels tell a null list from an empty
// one and from a null element.
func TestListsAndMaps(t *testing.T) {
	t.Parallel()
	f := open(t, encode(t, nestedSchema, nestedRows))
	equalRows(t, readAll(t, f), []string{
		`1: j:[1,null,3] | j:["a","q\"\n\u0001\ufffd"] | j:[1.5,"NaN"] | j:["x","y"] | j:{"k":1,"z":null} | j:[{"a":1},"{",null]`,
		`2: NULL | j:[] | j:[] | NULL | NULL | j:[]`,
		`3: j:[] | j:["z"] | j:[2] | j:[] | j:{} | j:[null]`,
	})
}

// List elements and map keys take the text of their conversion.
func TestListElementKinds(t *testing.T) {
	t.Parallel()
	schema := parquet.NewSchema("t", parquet.Group{
		"g": parquet.List(parquet.Date()),
		"h": parquet.List(parquet.Leaf(parquet.BooleanType)),
		"i": parquet.List(parquet.Decimal(2, 9, parquet.Int32Type)),
		"j": parquet.Map(parquet.Int(32), parquet.UUID()),
	})
	data := encode(t, schema, []parquet.Row{{
		lv(days(noon), 0, 1, 0),
		lv(parquet.BooleanValue(true), 0, 1, 1), lv(parquet.BooleanValue(false), 1, 1, 1),
		lv(parquet.Int32Value(-150), 0, 1, 2),
		lv(parquet.Int32Value(7), 0, 1, 3), lv(parquet.FixedLenByteArrayValue(uuid16), 0, 1, 4),
	}})
	equalRows(t, readAll(t, open(t, data)), []string{
		`1: j:["2026-03-01"] | j:[true,false] | j:[-1.50] | j:{"7":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}`,
	})
}

// A map with a null key breaks the file's own schema: the row is refused,
// by number.
func TestNullMapKey(t *testing.T) {
	t.Parallel()
	kv := parquet.Group{"key": parquet.Optional(parquet.String()), "value": parquet.Int(32)}
	schema := parquet.NewSchema("t", parquet.Group{"m": annotatedGroup{parquet.Group{"key_value": parquet.Repeated(kv)}, mapType}})
	data := encode(t, schema, []parquet.Row{
		{lv(str("a"), 0, 2, 0), lv(parquet.Int32Value(1), 0, 1, 1)},
		{null(1, 0), lv(parquet.Int32Value(2), 0, 1, 1)},
	})
	f := open(t, data)
	var rows []int64
	err := f.ReadRowGroup(context.Background(), 0, func(n int64, _ []pqread.Value) error {
		rows = append(rows, n)
		return nil
	})
	wantCode(t, err, errcode.ImportRecordInvalid)
	if e, _ := errcode.As(err); e.Meta[pqread.MetaRow] != "2" || len(rows) != 1 {
		t.Errorf("error %v after rows %v; want row 2 refused after row 1", err, rows)
	}
}
