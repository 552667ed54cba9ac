package pipecli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/webhook"
)

// endpointSecret is what endpoints add and rotate-secret print with --json:
// the secret is shown this once.
type endpointSecret struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
	Action string `json:"action"`
}

func (a *app) webhookAddCommand() *cobra.Command {
	var allowHTTP, allowPrivate bool
	c := &cobra.Command{
		Use:   "add ID URL [--allow-http] [--allow-private]",
		Short: "Store a new endpoint, enabled, with a fresh whsec_ secret (printed once)",
		Long: "endpoints add stores endpoint ID delivering to URL, enabled, with a fresh Standard Webhooks\n" +
			"secret (whsec_...), printed once: give it to the endpoint's owner. URL must be https:// unless\n" +
			"--allow-http; a host written as a private or loopback address is refused unless\n" +
			"--allow-private (X_WEBHOOK_ENDPOINT_INVALID). A taken ID is X_CONFIG_INVALID.",
		Args: exactArgs("ID", "URL"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withWebhookStore(c.Context(), func(s *webhook.Store, _ *webhook.PGLedger) error {
				e, err := s.Add(c.Context(), args[0], args[1], allowHTTP, allowPrivate)
				if err != nil {
					return err
				}
				return a.emit(endpointSecret{ID: e.ID, Secret: e.Secrets[0], Action: "added"},
					fmt.Sprintf("added endpoint %s\nsecret %s", e.ID, e.Secrets[0]))
			})
		},
	}
	c.Flags().BoolVar(&allowHTTP, "allow-http", false, "accept a plain http:// URL")
	c.Flags().BoolVar(&allowPrivate, "allow-private", false, "accept a private, loopback or link-local address")
	return c
}

func (a *app) webhookListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the stored endpoints: URL, enabled, consecutive failed runs (never the secrets)",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withWebhookStore(c.Context(), func(s *webhook.Store, _ *webhook.PGLedger) error {
				es, err := s.List(c.Context())
				if err != nil {
					return err
				}
				if a.json {
					if es == nil {
						es = []webhook.StoredEndpoint{}
					}
					return printJSON(a.stdout, es)
				}
				if len(es) == 0 {
					_, err := fmt.Fprintln(a.stdout, "no endpoints")
					return err
				}
				t := newTable(a.stdout, "ID", "URL", "ENABLED", "FAILURES", "SECRETS", "UPDATED")
				for _, e := range es {
					t.row(e.ID, truncate(e.URL, 60), strconv.FormatBool(e.Enabled), strconv.Itoa(e.ConsecutiveFailures),
						strconv.Itoa(len(e.Secrets)), stamp(e.UpdatedAt))
				}
				return t.flush()
			})
		},
	}
}

func (a *app) webhookEnableCommand(verb string, enabled bool) *cobra.Command {
	short := "Enable an endpoint and reset its count of failed runs"
	if !enabled {
		short = "Disable an endpoint: its deliveries are X_WEBHOOK_ENDPOINT_DISABLED, nothing sent"
	}
	return &cobra.Command{
		Use:   verb + " ID",
		Short: short,
		Args:  exactArgs("ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withWebhookStore(c.Context(), func(s *webhook.Store, _ *webhook.PGLedger) error {
				if err := s.SetEnabled(c.Context(), args[0], enabled); err != nil {
					return err
				}
				return a.emit(actionResult{ID: args[0], Action: verb + "d"}, verb+"d endpoint "+args[0])
			})
		},
	}
}

func (a *app) webhookRotateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "rotate-secret ID",
		Short: "Sign with a fresh secret (printed once), keeping the previous one beside it",
		Long: "endpoints rotate-secret puts a fresh whsec_ secret first and keeps the previous one: every\n" +
			"delivery then carries a signature under each, so the endpoint's owner can switch to the new\n" +
			"secret at their pace. The next rotation drops the older one.",
		Args: exactArgs("ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withWebhookStore(c.Context(), func(s *webhook.Store, _ *webhook.PGLedger) error {
				secret, err := s.RotateSecret(c.Context(), args[0])
				if err != nil {
					return err
				}
				return a.emit(endpointSecret{ID: args[0], Secret: secret, Action: "rotated"},
					fmt.Sprintf("rotated endpoint %s\nsecret %s", args[0], secret))
			})
		},
	}
}
