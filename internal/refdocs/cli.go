package refdocs

import (
	"strings"

	"github.com/spf13/cobra"
)

// CLI renders docs/reference/cli.md from root, the command line's tree:
// every command as cobra lists it (sorted by name), its usage line, short
// and long help, and its flags. It first adds cobra's own help and
// completion commands, as running root would; commands and flags cobra
// hides are left out.
func CLI(root *cobra.Command) []byte {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	cmds := commands(root)
	var b strings.Builder
	b.WriteString("# The pipe command line\n\n")
	b.WriteString(generated("the command tree of the stock `pipe` binary (cmd/pipe)"))
	b.WriteString("\nEvery command also takes `-h`, `--help`, which prints its help. " +
		"A command's inherited flags are those of the commands above it.\n\n")
	for _, c := range cmds {
		depth := strings.Count(c.CommandPath(), " ")
		b.WriteString(strings.Repeat("  ", depth) + "- [" + c.CommandPath() + "](#" + anchor(c.CommandPath()) + ")")
		b.WriteString(" — " + oneLine(c.Short) + "\n")
	}
	b.WriteString("\n")
	for _, c := range cmds {
		command(&b, c)
	}
	return []byte(b.String())
}

// commands answers root and every command under it that cobra's help
// lists, depth first.
func commands(root *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{root}
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			out = append(out, commands(c)...)
		}
	}
	return out
}

// command writes one command's section on b.
func command(b *strings.Builder, c *cobra.Command) {
	b.WriteString("## " + c.CommandPath() + "\n\n")
	if c.Short != "" {
		b.WriteString(c.Short + "\n\n")
	}
	fenced(b, c.UseLine())
	if long := strings.TrimSpace(c.Long); long != "" && long != c.Short {
		fenced(b, long)
	}
	if len(c.Aliases) > 0 {
		b.WriteString("Aliases: " + codes(c.Aliases) + ".\n\n")
	}
	if c.Example != "" {
		b.WriteString("Examples:\n\n")
		fenced(b, c.Example)
	}
	subcommands(b, c)
	flags(b, c)
}

// subcommands writes the list of c's subcommands, linked, on b.
func subcommands(b *strings.Builder, c *cobra.Command) {
	var links []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() || s.Name() == "help" {
			links = append(links, "[`"+s.Name()+"`](#"+anchor(s.CommandPath())+")")
		}
	}
	if len(links) > 0 {
		b.WriteString("Subcommands: " + strings.Join(links, ", ") + ".\n\n")
	}
}

// codes answers names as code spans, comma-separated.
func codes(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = code(n)
	}
	return strings.Join(out, ", ")
}
