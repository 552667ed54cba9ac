// Package refdocs renders pipe's reference pages (docs/reference) from the
// code they describe: the command line from its cobra tree, the error codes
// from package errcode's source and classes, the project file from its JSON
// Schema, and the metrics from their collectors. A test beside the stock
// binary (cmd/pipe) renders each page and fails when the checked-in file
// differs, so a page cannot drift from the code; the same test rewrites
// them when run with -update ([Regenerate]).
//
// Each renderer answers the whole page, deterministically: the same code
// renders the same bytes.
package refdocs

// Regenerate is the command that rewrites the pages from the code.
const Regenerate = "go test ./cmd/pipe -run TestTheReferencePagesAreCurrent -update"

// generated is the line under each page's title saying where it comes from.
func generated(from string) string {
	return "Generated from " + from + " by `" + Regenerate + "`: edit the code, not this page.\n"
}
