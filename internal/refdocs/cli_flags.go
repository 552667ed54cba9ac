package refdocs

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flags writes c's own flags as a table on b, then names the flags it
// inherits.
func flags(b *strings.Builder, c *cobra.Command) {
	var rows [][]string
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			rows = append(rows, []string{flagName(f), code(f.Value.Type()), flagDefault(f), f.Usage})
		}
	})
	if len(rows) > 0 {
		b.WriteString("Flags:\n\n")
		table(b, []string{"flag", "type", "default", "usage"}, rows)
	}
	var inherited []string
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			inherited = append(inherited, "--"+f.Name)
		}
	})
	if len(inherited) > 0 {
		b.WriteString("Inherited flags: " + codes(inherited) + ".\n\n")
	}
}

// flagName answers --name, after -s when the flag has a shorthand.
func flagName(f *pflag.Flag) string {
	if f.Shorthand != "" {
		return code("-"+f.Shorthand) + ", " + code("--"+f.Name)
	}
	return code("--" + f.Name)
}

// flagDefault answers the flag's default, a string's quoted; none for an
// empty string.
func flagDefault(f *pflag.Flag) string {
	switch {
	case f.DefValue == "":
		return ""
	case f.Value.Type() == "string":
		return code(`"` + f.DefValue + `"`)
	}
	return code(f.DefValue)
}
