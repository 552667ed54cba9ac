package pipecli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/subject"
)

func (a *app) subjectEraseCommand() *cobra.Command {
	var f subjectFlags
	var wait bool
	c := &cobra.Command{
		Use:   "erase --config FILE --id KEY",
		Short: "Erase one person's data: delete, anonymize or retain every reached table as declared",
		Long: "erase plans the declaration (a refusal exits 1 before anything is enqueued), then enqueues a\n" +
			"run of pipe.subject.erase: keys of loops cleared first, every reached table treated children\n" +
			"first, one step per page of rows (each page's writes and its checkpoint in one transaction, so\n" +
			"a killed run resumes at its page and changes nothing twice), the declared objects deleted, the\n" +
			"root last. Without --wait it prints the run's id for the fleet's `pipe worker`s; with --wait\n" +
			"it runs the erase in this process and prints what it did per table.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			in, err := a.subjectRequest(c, &f, func(in subject.Request) (subject.Request, error) { return in, nil })
			if err != nil {
				return err
			}
			return enqueueOrWait(a, c, subject.EraseJob(), in, wait, func(id string, out subject.EraseResult) string {
				return "erased " + out.Root + " (run " + id + "): " + tableLine(out.Tables) + objectsLine(out.Objects) + releasedLine(out.Released)
			})
		},
	}
	f.addConfig(c)
	f.addPerson(c)
	c.Flags().BoolVar(&wait, "wait", false, "run the erase in this process and wait for it")
	return c
}

func (a *app) subjectExportCommand() *cobra.Command {
	var f subjectFlags
	var to, format string
	var wait bool
	c := &cobra.Command{
		Use:   "export --config FILE --id KEY --to PREFIX",
		Short: "Export one person's data: every reached table, one object per page, and index.json",
		Long: "export enqueues a run of pipe.subject.export that reads the person's rows of every reached table\n" +
			"(whatever its treatment: a retained row is still theirs) in pages, each page one object\n" +
			"PREFIX/RUN/TABLE/part-NNNNN.ndjson (or .csv), copies the declared objects into\n" +
			"PREFIX/RUN/objects/NAME/, and writes PREFIX/RUN/index.json last, with each table's row count,\n" +
			"treatment and retain reason. Sealed columns never leave. PREFIX is a bucket URL with a key\n" +
			"prefix (s3://bucket/people, gs://, azblob://, file:///dir, mem://) or a local directory.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if format != string(exportrows.NDJSON) && format != string(exportrows.CSV) {
				return usageError(c, "--format %q is not ndjson or csv", format)
			}
			if err := replicaNeedsWait(a.replicaURL, wait); err != nil {
				return err
			}
			in, err := a.subjectRequest(c, &f, func(in subject.Request) (subject.Request, error) {
				var err error
				if in.To, err = absTo(c, to); err != nil {
					return in, err
				}
				in.Format = exportrows.Format(format)
				return in, in.CheckExport()
			})
			if err != nil {
				return err
			}
			replica, err := a.openReplica(c.Context())
			if err != nil {
				return err
			}
			if replica != nil {
				defer replica.Close()
			}
			return enqueueOrWait(a, c, subject.ExportJobFromReplica(replica), in, wait, func(id string, out subject.ExportResult) string {
				return "exported " + out.Root + " (run " + id + "): " + tableLine(out.Tables) + "; index " + out.Index + " in " + out.Bucket
			})
		},
	}
	f.addConfig(c)
	f.addPerson(c)
	c.Flags().StringVar(&to, "to", "", "the URL prefix or local directory to write under (required)")
	c.Flags().StringVar(&format, "format", "ndjson", "ndjson or csv")
	c.Flags().BoolVar(&wait, "wait", false, "run the export in this process and wait for it")
	a.replicaFlag(c)
	_ = c.MarkFlagRequired("to")
	return c
}

// absTo makes a local directory absolute: the worker may run elsewhere.
func absTo(c *cobra.Command, to string) (string, error) {
	if strings.Contains(to, "://") {
		return to, nil
	}
	abs, err := filepath.Abs(to)
	if err != nil {
		return "", usageError(c, "--to is not a usable path")
	}
	return abs, nil
}

// tableLine renders per-table counts: "comments 20 rows, members 1 row".
func tableLine(ts []subject.TableResult) string {
	parts := make([]string, 0, len(ts))
	for _, t := range ts {
		if t.Treatment == "retain" && t.Rows == 0 {
			parts = append(parts, t.Table+" retained")
			continue
		}
		parts = append(parts, t.Table+" "+plural(int(t.Rows), "row"))
	}
	return strings.Join(parts, ", ")
}

func objectsLine(os []subject.ObjectsDone) string {
	out := ""
	for _, o := range os {
		if o.Retained {
			out += "; objects " + o.Name + " retained"
		} else {
			out += fmt.Sprintf("; objects %s %d deleted", o.Name, o.Deleted)
		}
	}
	return out
}

// releasedLine says how many of other people's rows the erase changed,
// apart from the person's own.
func releasedLine(n int64) string {
	return fmt.Sprintf("; other people's rows released (their reference set to null, kept): %d", n)
}
