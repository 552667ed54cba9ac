package pipecli

import (
	"strings"

	"github.com/spf13/cobra"
)

// noArgs refuses positional arguments.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError(c, "%s takes no arguments", c.CommandPath())
	}
	return nil
}

// exactArgs answers a validator wanting one argument per name, named in the
// error so that the user sees what is missing.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != len(names) {
			return usageError(c, "%s takes %d argument(s), %s; got %d", c.CommandPath(), len(names), strings.Join(names, " "), len(args))
		}
		return nil
	}
}
