package pipecli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows"
)

// importFlags are the import command's flags.
type importFlags struct {
	into, format, encoding, compression, delimiter, errors string
	quotes                                                 string
	settings                                               importrows.Settings
	key, columns                                           []string
	maxRowErrors, parallel                                 int
	pageBytes, rangeBytes                                  int64
	decode                                                 importrows.DecodeLimits
	wait, noHeader                                         bool
}

func (a *app) importCommand() *cobra.Command {
	var f importFlags
	c := &cobra.Command{
		Use:   "import SOURCE --into TABLE",
		Short: "Import a CSV, NDJSON or Parquet file into a table",
		Long: "import enqueues a run of pipe.import that reads SOURCE (s3://, gs://, azblob://, file://,\n" +
			"mem:// or a local path) a page at a time into TABLE (table or schema.table as SQL names it:\n" +
			"bare names fold to lower case, '\"Sales\".\"Order Items\"' keeps its capitals): COPY into a staging table and an upsert\n" +
			"on --key (plain insert without), each page committed with its checkpoint, so a killed run\n" +
			"resumes at its last page and writes no row twice. Refused rows go to an NDJSON report\n" +
			"(--errors, default beside the source as KEY.errors/RUN/errors-NNNNN.ndjson), never with\n" +
			"their values. Columns default to the file's own, checked against the table.\n" +
			"The table, the key, the file and its header (the first record) are checked before anything\n" +
			"is enqueued: a mistake is refused at once with its code and leaves no run behind.\n" +
			"Without --wait it prints the run's id for the fleet's `pipe worker`s; with --wait it runs the\n" +
			"import in this process, draws its progress on a terminal, and exits 1 with the error code\n" +
			"when the import fails, 3 when it completed with refused rows.",
		Args: exactArgs("SOURCE"),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := f.input(c, args[0])
			if err != nil {
				return err
			}
			return a.runImport(c, in, f.wait)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.into, "into", "", `the table to import into, as SQL names it: table, schema.table, '"Sales"."Order Items"' (required)`)
	fl.StringArrayVar(&f.key, "key", nil, "upsert on these columns, as SQL names them (a unique index must cover exactly them); default plain insert")
	fl.StringVar(&f.format, "format", "", "csv, ndjson or parquet; default from the file's extension")
	fl.StringSliceVar(&f.columns, "columns", nil, "the columns the file must hold; default the file's own, checked against the table")
	fl.BoolVar(&f.noHeader, "no-header", false, "the CSV file has no header line: its first record is data, and --columns names its columns in order")
	fl.StringVar(&f.encoding, "encoding", "", "utf-8 (default), utf-16, utf-16le, utf-16be, latin-1 or windows-1252")
	fl.StringVar(&f.compression, "compression", "auto", "auto, none, gzip or zstd")
	fl.StringVar(&f.delimiter, "delimiter", "", "the CSV field delimiter; default ',' (tab for .tsv)")
	fl.StringVar(&f.quotes, "quotes", "strict", `strict refuses a CSV record with a quote inside an unquoted field; lenient keeps the quote in the value (37°36'37.8"N)`)
	fl.StringVar(&f.settings.DateStyle, "datestyle", "", `PostgreSQL's DateStyle the file's dates are read under ('ISO, DMY': 01/02/2015 is 1 February); default the database's`)
	fl.StringVar(&f.settings.TimeZone, "timezone", "", "the TimeZone a timestamptz without an offset is read in (Europe/Paris); default the database's")
	fl.StringVar(&f.settings.IntervalStyle, "intervalstyle", "", "PostgreSQL's IntervalStyle intervals are read under (postgres, sql_standard...); default the database's")
	fl.StringVar(&f.errors, "errors", "", "URL prefix of the refused-rows report; default beside the source")
	fl.IntVar(&f.maxRowErrors, "max-row-errors", importrows.DefaultMaxRowErrors, "refused rows tolerated before the run fails (0 allowed)")
	fl.Int64Var(&f.pageBytes, "page-bytes", importrows.DefaultPageBytes, "bytes per page, the unit of a step and its checkpoint (65536 to 1073741824)")
	fl.Int64Var(&f.decode.MaxRatio, "max-ratio", importrows.DefaultMaxRatio, "refuse a compressed file that inflates past this many times its size")
	fl.Int64Var(&f.decode.MaxDecodedBytes, "max-decoded-bytes", 0, "refuse a compressed file that inflates past this many bytes (0: no limit)")
	fl.Int64Var(&f.decode.MaxWindowBytes, "max-window-bytes", importrows.DefaultMaxWindowBytes, "refuse a zstd window (the decoder's memory) larger than this (at most 2 GiB)")
	fl.Int64Var(&f.decode.MaxParquetPageBytes, "max-parquet-page-bytes", importrows.DefaultMaxParquetPageBytes, "refuse a Parquet page that needs more memory than this")
	fl.Int64Var(&f.decode.MaxParquetMemory, "max-parquet-memory", importrows.DefaultMaxParquetMemory, "refuse a Parquet row group whose open pages need more memory than this")
	fl.IntVar(&f.parallel, "parallel", 1, "split a file of at least two ranges (32 MiB each, --range-bytes) into at most N ranges, each imported by a run of its own on any worker; 1: one run reads the whole file")
	fl.Int64Var(&f.rangeBytes, "range-bytes", importrows.DefaultRangeBytes, "the least a range of a --parallel import holds")
	fl.BoolVar(&f.wait, "wait", false, "run the import in this process and wait for it (with --parallel N, N ranges at a time)")
	_ = c.MarkFlagRequired("into")
	return c
}

// input answers the run's input; a local path (the source, --errors)
// becomes absolute, so a worker elsewhere on the machine finds the same
// file.
func (f importFlags) input(c *cobra.Command, source string) (importrows.FileImport, error) {
	if !strings.Contains(source, "://") {
		abs, err := filepath.Abs(source)
		if err != nil {
			return importrows.FileImport{}, usageError(c, "SOURCE is not a usable path")
		}
		source = abs
	}
	errs := f.errors
	if errs != "" && !strings.Contains(errs, "://") {
		abs, err := filepath.Abs(errs)
		if err != nil {
			return importrows.FileImport{}, usageError(c, "--errors is not a usable path")
		}
		errs = abs
	}
	into, err := relationArg(errcode.ImportTableInvalid, "import", "--into", f.into)
	if err != nil {
		return importrows.FileImport{}, err
	}
	key, err := namesArg(errcode.ImportTableInvalid, "import", "--key", f.key)
	if err != nil {
		return importrows.FileImport{}, err
	}
	mre := f.maxRowErrors
	in := importrows.FileImport{
		Source: source, Into: into, Key: key, Columns: f.columns,
		Format: importrows.Format(f.format), Compression: f.compression, Encoding: f.encoding,
		Delimiter: f.delimiter, Quotes: importrows.Quotes(f.quotes), NoHeader: f.noHeader, Settings: f.settings, Errors: errs,
		Limits: importrows.Limits{PageBytes: f.pageBytes, MaxRowErrors: &mre, DecodeLimits: f.decode},
	}
	if f.parallel > 1 {
		in.Limits.Parallel, in.Limits.RangeBytes = f.parallel, f.rangeBytes
	}
	if f.parallel < 1 || f.parallel > importrows.MaxParallel {
		return in, usageError(c, "--parallel is not from 1 to %d", importrows.MaxParallel)
	}
	if f.rangeBytes < 1 {
		return in, usageError(c, "--range-bytes is not 1 or more")
	}
	if f.maxRowErrors < 0 {
		return in, usageError(c, "--max-row-errors is negative")
	}
	if f.pageBytes < importrows.MinPageBytes || f.pageBytes > importrows.MaxPageBytes {
		return in, usageError(c, "--page-bytes is not from %d (64 KiB) to %d (1 GiB)", importrows.MinPageBytes, importrows.MaxPageBytes)
	}
	return in, in.Check()
}

// runImport checks the input as the run's plan would (nothing is enqueued
// when it is refused), then enqueues or works the run. A run that
// completed with refused rows exits [exitRefused].
func (a *app) runImport(c *cobra.Command, in importrows.FileImport, wait bool) error {
	var out importrows.Result
	var err error
	if wait && in.Limits.Parallel > 1 {
		out, err = a.runParallelImport(c, in)
	} else {
		out, err = checkAndRun(a, c, importrows.TableJob(), importrows.Check, in, wait, importLine)
	}
	if err == nil && out.Refused > 0 {
		return exitStatus(exitRefused)
	}
	return err
}

func importLine(id string, r importrows.Result) string {
	s := fmt.Sprintf("imported %d rows (%d refused) from %d bytes in %d pages; run %s", r.Rows, r.Refused, r.Bytes, r.Pages, id)
	if r.Refused > 0 {
		s += fmt.Sprintf("\nrefused rows are reported under %s in %s", r.ErrorPrefix, r.ErrorBucket)
	}
	if r.BareQuotes > 0 {
		s += fmt.Sprintf("\n%d of them for a quote inside an unquoted field (rule bare-quote): --quotes lenient reads such quotes as data", r.BareQuotes)
	}
	return s
}
