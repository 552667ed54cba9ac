package blob_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/pipekit/pipe/blob"
)

// Write a compressed object, list it, and read it back decompressed. The
// same code runs against s3://, gs://, azblob:// or a local directory.
func Example() {
	ctx := context.Background()
	b, err := blob.Open(ctx, "mem://example")
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	key, _ := blob.JoinKey("exports/", "people.csv"+blob.CompressionGzip.Ext())
	err = b.Write(ctx, key, blob.WriteOptions{ContentType: "text/csv"}, func(w io.Writer) error {
		zw, err := blob.Compress(w, blob.CompressionFromKey(key))
		if err != nil {
			return err
		}
		if _, err := io.WriteString(zw, "id,name\n1,Zoë\n"); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		log.Fatal(err)
	}

	objs, _ := b.List(ctx, "exports/")
	fmt.Println(objs[0].Key)

	r, _ := b.NewReader(ctx, key)
	defer r.Close()
	plain, found, _ := blob.Decompress(r, blob.CompressionAuto)
	defer plain.Close()
	fmt.Println("found", found)
	_, _ = io.Copy(os.Stdout, plain)
	// Output:
	// exports/people.csv.gz
	// found gzip
	// id,name
	// 1,Zoë
}

// A key that could climb out of its bucket is refused before any I/O.
func ExampleValidateKey() {
	err := blob.ValidateKey("../etc/passwd")
	fmt.Println(err)
	// Output: X_BLOB_KEY_INVALID: key has a .. segment
}

// An object URL splits into the bucket to open and the key within it.
func ExampleSplitURL() {
	bucketURL, key, _ := blob.SplitURL("s3://data/in/2024/people.csv?region=eu-west-1")
	fmt.Println(bucketURL)
	fmt.Println(key)
	// Output:
	// s3://data?region=eu-west-1
	// in/2024/people.csv
}

// Latin-1 text reads as UTF-8.
func ExampleDecode() {
	r, _ := blob.Decode(strings.NewReader("Zo\xeb"), blob.EncodingLatin1)
	text, _ := io.ReadAll(r)
	fmt.Println(string(text))
	// Output: Zoë
}
