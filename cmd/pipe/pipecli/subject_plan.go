package pipecli

import (
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/subject"
)

func (a *app) subjectPlanCommand() *cobra.Command {
	var f subjectFlags
	var explain []string
	c := &cobra.Command{
		Use:   "plan --config FILE",
		Short: "Walk the declaration against the database and print every reached table",
		Long: "plan walks the foreign keys PostgreSQL knows from the declaration's root, through every table the\n" +
			"erase deletes, and prints each reached table in erase order (children first, the root last)\n" +
			"with the path that reached it and its treatment, the keys cleared first, and the foreign keys\n" +
			"with no index (each page of the erase would scan their table). It changes nothing. A reached\n" +
			"table without a treatment (X_SUBJECT_TABLE_UNDECLARED), a treatment that cannot be carried out\n" +
			"(X_SUBJECT_TREATMENT_INVALID) or a loop without a nullable key (X_SUBJECT_CYCLE) exits 1.\n" +
			"--explain KEY also asks the server to plan every statement an erase and export of that person\n" +
			"would run (without running them) and prints each statement's scans.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withSubject(c, &f, anySchema, func(d subject.Declaration, pool *pgxpool.Pool) error {
				p, err := subject.NewPlan(c.Context(), pool, d)
				if err != nil {
					return err
				}
				var plans []subject.Explained
				if len(explain) > 0 {
					if plans, err = p.Explain(c.Context(), pool, keyOf(explain)); err != nil {
						return err
					}
				}
				if a.json {
					return printJSON(a.stdout, struct {
						*subject.Plan
						Explain []subject.Explained `json:"explain,omitempty"`
					}{p, plans})
				}
				_, err = fmt.Fprint(a.stdout, p.String()+explainLines(plans))
				return err
			})
		},
	}
	f.addConfig(c)
	c.Flags().StringArrayVar(&explain, "explain", nil, "show the server's plan of every statement for the person with this key (taken whole; repeat it for a key of several columns)")
	return c
}

func keyOf(values []string) subject.Key {
	k := make(subject.Key, len(values))
	for i, v := range values {
		k[i] = v
	}
	return k
}

// explainLines renders the statements' scans, one statement a line.
func explainLines(plans []subject.Explained) string {
	out := ""
	for _, e := range plans {
		scans := make([]string, 0, len(e.Scans))
		for _, s := range e.Scans {
			scan := s.Node + " on " + s.Relation
			if s.Index != "" {
				scan += " using " + s.Index
			}
			scans = append(scans, scan)
		}
		out += fmt.Sprintf("  %s %s: %s\n", e.Step, e.Table, strings.Join(scans, ", "))
	}
	return out
}

func (a *app) subjectProofCommand() *cobra.Command {
	var f subjectFlags
	var everywhere bool
	c := &cobra.Command{
		Use:   "proof --config FILE",
		Short: "Prove the declaration: seed canaries, erase a generated person, search every row",
		Long: "proof seeds every reached table with rows of a generated person and of a bystander (canary\n" +
			"values in every column that can hold text), erases the person as `pipe subject erase` does,\n" +
			"then searches every stored row of every reached table (--everywhere: every table). The\n" +
			"person's canary outside a retain is X_SUBJECT_ERASE_INCOMPLETE naming table and column; a\n" +
			"bystander row changed is X_SUBJECT_BYSTANDER_TOUCHED. It runs in one transaction rolled back\n" +
			"at the end, so it leaves no row behind on a real database (declared objects are written to\n" +
			"their buckets and removed).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withSubject(c, &f, anySchema, func(d subject.Declaration, pool *pgxpool.Pool) error {
				o := d.Proof
				o.Everywhere = o.Everywhere || everywhere
				rep, err := subject.Proof(c.Context(), pool, d, o)
				if err != nil {
					return err
				}
				return a.emit(rep, proofLines(rep))
			})
		},
	}
	f.addConfig(c)
	c.Flags().BoolVar(&everywhere, "everywhere", false, "search every table of the database, not only the reached ones")
	return c
}

// proofLines renders a passing proof.
func proofLines(rep *subject.ProofReport) string {
	out := fmt.Sprintf("proof of %s passed: the generated person's canaries are gone from %d tables searched, the bystander's rows are untouched\n", rep.Root, rep.Searched)
	for _, t := range rep.Tables {
		out += fmt.Sprintf("  %s: %s, %s each, canaries in %s", t.Table, t.Treatment, plural(t.Rows, "row"), plural(len(t.Canaries), "column"))
		if len(t.Short) > 0 {
			out += fmt.Sprintf(" (%d too short for one)", len(t.Short))
		}
		out += "\n"
	}
	if rep.Objects > 0 {
		out += fmt.Sprintf("  %d canary objects removed\n", rep.Objects)
	}
	return out[:len(out)-1]
}

// plural answers "1 row" or "n rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
