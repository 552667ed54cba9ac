package importrows_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/importrows"
)

// fakeS3 serves the S3 protocol in process (gofakes3 over HTTP) and answers
// the s3:// URL of a fresh bucket on it; the AWS SDK's credentials come from
// the environment, so nothing leaves the process.
func fakeS3(t *testing.T, bucket string) string {
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	q := url.Values{"endpoint": {srv.URL}, "use_path_style": {"true"}, "region": {"us-east-1"},
		"response_checksum_validation": {"when_required"}}
	return "s3://" + bucket + "?" + q.Encode()
}

func TestImportFromS3(t *testing.T) {
	b := setup(t, ordersDDL)
	u := fakeS3(t, "imports")
	ctx := context.Background()
	bk, err := blob.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	data := ordersCSV(3000)
	if err := bk.WriteBytes(ctx, "drop/orders.csv", data, blob.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	o := tableOptions("orders", "id")
	o.PageBytes = 64 << 10 // ranged reads of several pages
	d, res := run(t, b.pool, importrows.MustNew(fileKey, o), fileIn{Bucket: u, Key: "drop/orders.csv", Run: "s3"})
	if d.State != "done" || res.Rows != 3000 || res.Pages < 5 || res.Bytes != int64(len(data)) {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if count(t, b, `select count(*) from orders`) != 3000 {
		t.Fatal("rows missing")
	}
	// A refused row's report lands in the same bucket.
	bad := bytes.Replace(data, []byte(",0,"), []byte(",zero,"), 1)
	if err := bk.WriteBytes(ctx, "drop/bad.csv", bad, blob.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	d, res = run(t, b.pool, importrows.MustNew(fileKey, o), fileIn{Bucket: u, Key: "drop/bad.csv", Run: "s3-bad"})
	if d.State != "done" || res.Refused != 1 {
		t.Fatalf("%s %+v", d.State, res)
	}
	parts, err := bk.List(ctx, res.ErrorPrefix)
	if err != nil || len(parts) != 1 {
		t.Fatalf("report parts %v %v", parts, err)
	}
}
