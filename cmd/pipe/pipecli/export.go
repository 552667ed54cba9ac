package pipecli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
)

// exportFlags are the export command's flags.
type exportFlags struct {
	to, format, compression, where, order string
	columns, key                          []string
	pageRows, parallel                    int
	wait                                  bool
}

func (a *app) exportCommand() *cobra.Command {
	var f exportFlags
	c := &cobra.Command{
		Use:   "export TABLE --to PREFIX",
		Short: "Export a table to CSV, NDJSON or Parquet files in object storage",
		Long: "export enqueues a run of pipe.export that reads TABLE (table or schema.table as SQL names\n" +
			"it: bare names fold to lower case, '\"Sales\".\"Order Items\"' keeps its capitals) in keyset pages\n" +
			"of --page-rows rows, never OFFSET (or, with --order snapshot, in storage order, every page in\n" +
			"one snapshot: a point-in-time export at the speed of a sequential scan), each page written as one object\n" +
			"PREFIX/RUN/part-NNNNN.EXT[.gz|.zst], atomically, then PREFIX/RUN/manifest.json last: no\n" +
			"manifest means the export is not complete. PREFIX is a bucket URL with a key prefix\n" +
			"(s3://bucket/exports, gs://, azblob://, file:///dir, mem://) or a local directory. CSV cells\n" +
			"a spreadsheet would run as a formula get a leading '. --where is an SQL filter run as is,\n" +
			"read-only: give it only to operators who may read the database with SQL. The table, the\n" +
			"columns, the key and --where are checked before anything is enqueued (--where runs with\n" +
			"LIMIT 0): a mistake is refused at once with its code and leaves no run behind.\n" +
			"Without --wait it prints the run's id for the fleet's `pipe worker`s; with --wait it runs\n" +
			"the export in this process, draws its progress on a terminal and prints the manifest's key.\n" +
			"--parallel N splits the table into N key ranges, each read by a run of its own on any worker,\n" +
			"all in one snapshot the parent run holds open (as pg_dump -j does), into\n" +
			"PREFIX/RUN/part-RRRRR-NNNNN.EXT; the manifest lists every part in key order.",
		Args: exactArgs("TABLE"),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := f.input(c, args[0])
			if err != nil {
				return err
			}
			if err := replicaNeedsWait(a.replicaURL, f.wait); err != nil {
				return err
			}
			return a.runExport(c, in, f.wait)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.to, "to", "", "the URL prefix or local directory to write under (required)")
	fl.StringVar(&f.format, "format", "csv", "csv, ndjson or parquet")
	fl.StringVar(&f.compression, "compression", "", "none, gzip or zstd (default none; parquet compresses inside with zstd)")
	fl.StringSliceVar(&f.columns, "columns", nil, "the columns to export, in order; default all")
	fl.StringArrayVar(&f.key, "key", nil, "the ordering key, as SQL names its columns; default the table's primary key")
	fl.StringVar(&f.order, "order", "key", "key (keyset pages in key order) or snapshot (storage order, one snapshot: a point-in-time export)")
	fl.StringVar(&f.where, "where", "", "an SQL filter on the table's rows")
	fl.IntVar(&f.pageRows, "page-rows", 0, "rows per page and object (default 100000)")
	fl.IntVar(&f.parallel, "parallel", 0, "split the table into this many key ranges, each exported by a run of its own, all in one snapshot (default one run)")
	fl.BoolVar(&f.wait, "wait", false, "run the export in this process and wait for it")
	a.replicaFlag(c)
	_ = c.MarkFlagRequired("to")
	return c
}

// input answers the run's input; a local directory becomes absolute.
func (f exportFlags) input(c *cobra.Command, table string) (exportrows.TableExport, error) {
	to := f.to
	if !strings.Contains(to, "://") {
		abs, err := filepath.Abs(to)
		if err != nil {
			return exportrows.TableExport{}, usageError(c, "--to is not a usable path")
		}
		to = abs
	}
	if f.pageRows < 0 || f.pageRows > exportrows.MaxPageRows {
		return exportrows.TableExport{}, usageError(c, "--page-rows is not from 0 (the default) to %d", exportrows.MaxPageRows)
	}
	from, err := relationArg(errcode.ExportSourceInvalid, "export", "TABLE", table)
	if err != nil {
		return exportrows.TableExport{}, err
	}
	key, err := namesArg(errcode.ExportSourceInvalid, "export", "--key", f.key)
	if err != nil {
		return exportrows.TableExport{}, err
	}
	in := exportrows.TableExport{From: from, Columns: f.columns, Key: key, Where: f.where,
		To: to, Format: exportrows.Format(f.format), Compression: f.compression, PageRows: f.pageRows,
		Order: exportrows.Order(f.order), Parallel: f.parallel}
	return in, in.Check()
}

func (a *app) runExport(c *cobra.Command, in exportrows.TableExport, wait bool) error {
	replica, err := a.openReplica(c.Context())
	if err != nil {
		return err
	}
	if replica != nil {
		defer replica.Close()
	}
	_, err = checkAndRun(a, c, exportrows.TableJobFromReplica(replica), exportrows.Check, in, wait, func(_ string, out exportrows.Result) string {
		return fmt.Sprintf("exported %d rows in %d parts (%d bytes); manifest %s in %s", out.Rows, out.Parts, out.Bytes, out.Manifest, out.Bucket)
	})
	return err
}
