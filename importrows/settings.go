package importrows

import (
	"context"
	_ "embed"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// Settings are the server settings that change what PostgreSQL reads a
// value as: a date's field order, the zone of a timestamp with time zone
// written without an offset, an interval's sign. Each empty field takes the
// target database's default — what a fresh session on it has, the role's
// and the database's settings included. They are PostgreSQL's own values:
// DateStyle "ISO, DMY", TimeZone "Europe/Paris", IntervalStyle
// "sql_standard".
type Settings struct {
	DateStyle     string `json:"dateStyle,omitempty"`
	TimeZone      string `json:"timeZone,omitempty"`
	IntervalStyle string `json:"intervalStyle,omitempty"`
}

//go:embed queries/session_defaults.sql
var sessionDefaultsSQL string

//go:embed queries/apply_settings.sql
var applySettingsSQL string

// dateStyleWords are the words DateStyle takes: an output style and an
// order, comma-separated.
var dateStyleWords = map[string]bool{
	"iso": true, "sql": true, "postgres": true, "german": true,
	"ymd": true, "dmy": true, "euro": true, "european": true, "mdy": true, "us": true, "noneuro": true, "noneuropean": true,
}

var intervalStyles = map[string]bool{"postgres": true, "postgres_verbose": true, "sql_standard": true, "iso_8601": true}

// check refuses a setting PostgreSQL would not take, with
// X_JOB_INPUT_INVALID naming it. A time zone is checked by the server, at
// the plan; here only that it is one word.
func (s Settings) check() error {
	var faults []string
	if s.DateStyle != "" && !validDateStyle(s.DateStyle) {
		faults = append(faults, "DateStyle is not one or two of ISO, SQL, Postgres, German and DMY, MDY, YMD")
	}
	if s.IntervalStyle != "" && !intervalStyles[strings.ToLower(s.IntervalStyle)] {
		faults = append(faults, "IntervalStyle is not postgres, postgres_verbose, sql_standard or iso_8601")
	}
	if s.TimeZone != "" && (strings.TrimSpace(s.TimeZone) != s.TimeZone || strings.ContainsAny(s.TimeZone, " ,;'\"")) {
		faults = append(faults, "TimeZone is not a time zone name (Europe/Paris, UTC, America/New_York)")
	}
	if len(faults) == 0 {
		return nil
	}
	return errcode.New(errcode.JobInputInvalid, "import: %s", strings.Join(faults, "; ")).
		WithFix("give the setting as PostgreSQL's SET takes it, or leave it empty for the database's default")
}

func validDateStyle(s string) bool {
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return false
	}
	for _, p := range parts {
		if !dateStyleWords[strings.ToLower(strings.TrimSpace(p))] {
			return false
		}
	}
	return true
}

// resolveSettings answers the settings a run reads values under: the
// declared ones over the target database's defaults. Each is tried on the
// server, so a time zone it does not know is refused here.
func resolveSettings(ctx context.Context, tx pgx.Tx, declared Settings) (Settings, error) {
	if err := declared.check(); err != nil {
		return Settings{}, err
	}
	var s Settings
	var got []string
	if err := tx.QueryRow(ctx, sessionDefaultsSQL).Scan(&got); err != nil {
		return s, errcode.Postgres(ctx, err, "import: read the database's settings")
	}
	s.DateStyle, s.TimeZone, s.IntervalStyle = got[0], got[1], got[2]
	for _, p := range []struct {
		to *string
		v  string
	}{{&s.DateStyle, declared.DateStyle}, {&s.TimeZone, declared.TimeZone}, {&s.IntervalStyle, declared.IntervalStyle}} {
		if p.v != "" {
			*p.to = p.v
		}
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return s, err
	}
	if err := s.apply(ctx, sp); err != nil {
		_ = sp.Rollback(ctx)
		return s, errcode.New(errcode.JobInputInvalid, "import: PostgreSQL does not take the settings (DateStyle, TimeZone or IntervalStyle)").
			WithFix("give each setting as PostgreSQL's SET takes it: a time zone by its IANA name, such as Europe/Paris")
	}
	return s, sp.Rollback(ctx)
}

// apply sets s for the rest of tx: a page's values are read, by pipe and
// by the server, under the run's settings. A plan stored before settings
// has none, and its pages run as they began: under the session's.
func (s Settings) apply(ctx context.Context, tx pgx.Tx) error {
	if s == (Settings{}) {
		return nil
	}
	_, err := tx.Exec(ctx, applySettingsSQL, s.DateStyle, s.TimeZone, s.IntervalStyle)
	return err
}

// utc reports whether the zone is UTC, the zone pipe's own coercion reads a
// timestamp with time zone without an offset in (or none: a plan stored
// before settings, read as it began).
func (s Settings) utc() bool {
	switch strings.ToLower(s.TimeZone) {
	case "", "utc", "etc/utc", "gmt", "etc/gmt", "uct", "etc/uct", "zulu", "etc/zulu", "universal", "etc/universal", "greenwich", "gmt0", "etc/gmt0":
		return true
	}
	return false
}
