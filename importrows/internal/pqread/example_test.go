package pqread_test

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/importrows/internal/pqread"
)

type order struct {
	ID    int64     `parquet:"id"`
	Total int64     `parquet:"total,decimal(2:18)"`
	At    time.Time `parquet:"at,timestamp(millisecond)"`
	Tags  []string  `parquet:"tags,list"`
	Note  *string   `parquet:"note,optional"`
}

func Example() {
	var buf bytes.Buffer
	note := "gift"
	at := time.Date(2026, 3, 1, 12, 0, 0, 500_000_000, time.UTC)
	if err := parquet.Write(&buf, []order{
		{ID: 1, Total: -1250, At: at, Tags: []string{"new", "vip"}, Note: &note},
		{ID: 2, Total: 99, At: at.Add(time.Hour)},
	}); err != nil {
		panic(err)
	}

	f, err := pqread.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err == nil {
		err = f.Check()
	}
	for g := 0; err == nil && g < f.RowGroups(); g++ {
		err = f.ReadRowGroup(context.Background(), g, func(row int64, vals []pqread.Value) error {
			fmt.Print(row)
			for i, v := range vals {
				fmt.Printf(" %s=%s:%s", f.Columns()[i], v.Kind, v.Text)
			}
			fmt.Println()
			return nil
		})
	}
	if err != nil {
		panic(err)
	}
	// Output:
	// 1 id=number:1 total=number:-12.50 at=string:2026-03-01T12:00:00.5Z tags=json:["new","vip"] note=string:gift
	// 2 id=number:2 total=number:0.99 at=string:2026-03-01T13:00:00.5Z tags=json:[] note=null:
}
