package split_test

import (
	"fmt"

	"github.com/pipekit/pipe/importrows/internal/split"
)

// A page that ends inside a quoted field: the first Scan consumes the whole
// records and the next page starts again at the first record not consumed.
func ExampleSplitter_Scan() {
	file := []byte("id,note\r\n1,\"two\r\nlines\"\r\n2,\"say \"\"hi\"\"\"\r\n")
	s := split.Splitter{Quote: '"'}
	p := split.FieldParser{Quote: '"'}
	show := func(rec []byte, off, line int64) error {
		fields, err := p.Parse(rec)
		if err != nil {
			return err
		}
		fmt.Printf("line %d, byte %d:", line, off)
		for _, f := range fields {
			fmt.Printf(" %q", f.Value)
		}
		fmt.Println()
		return nil
	}
	off, line := int64(0), int64(1)
	for _, end := range []int{15, len(file)} {
		consumed, lines, err := s.Scan(file[off:end], off, line, end == len(file), show)
		if err != nil {
			fmt.Println(err)
			return
		}
		off, line = off+int64(consumed), line+lines
	}
	// Output:
	// line 1, byte 0: "id" "note"
	// line 2, byte 9: "1" "two\r\nlines"
	// line 4, byte 25: "2" "say \"hi\""
}

// An empty unquoted field is told from a quoted empty one.
func ExampleFieldParser_Parse() {
	p := split.FieldParser{Delim: ';', Quote: '"'}
	fields, _ := p.Parse([]byte(`a;;""`))
	for _, f := range fields {
		fmt.Printf("%q quoted=%v\n", f.Value, f.Quoted)
	}
	_, err := p.Parse([]byte(`a;b"c`))
	fmt.Println(err)
	// Output:
	// "a" quoted=false
	// "" quoted=false
	// "" quoted=true
	// X_IMPORT_RECORD_INVALID: field 2: quote inside an unquoted field
}
