package pipecli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pg"
)

// demoExport exports demo_orders to Parquet under dir with pipe.export,
// worked in this process, and reads the manifest back.
func (a *app) demoExport(ctx context.Context, pool *pgxpool.Pool, dir string) (*exportrows.Manifest, error) {
	in := exportrows.TableExport{From: pg.Relation{Name: "demo_orders"}, To: filepath.Join(dir, "export"), Format: exportrows.Parquet, PageRows: 5000}
	a.say("exporting demo_orders to Parquet under %s…\n", in.To)
	_, out, err := runHere(ctx, a, pool, exportrows.TableJob(), in, nil)
	if err != nil {
		return nil, err
	}
	b, err := blob.Open(ctx, out.Bucket)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return exportrows.ReadManifest(ctx, b, out.Manifest)
}

// narrateExport prints the manifest read back.
func (a *app) narrateExport(m *exportrows.Manifest, dir string) {
	fmt.Fprintf(a.stdout, "exported %d rows of %s to %d Parquet parts (%d bytes); the manifest, read back:\n", m.Rows, m.Name, len(m.Parts), m.Bytes)
	for _, p := range m.Parts {
		fmt.Fprintf(a.stdout, "  %s  %6d rows  %8d bytes  sha256 %s…\n", p.Key, p.Rows, p.Bytes, p.SHA256[:16])
	}
	fmt.Fprintf(a.stdout, "(under %s)\n\n", filepath.Join(dir, "export"))
}
