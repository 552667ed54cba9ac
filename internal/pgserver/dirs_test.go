package pgserver

import (
	"errors"
	"testing"
)

func TestDefaultDir(t *testing.T) {
	t.Parallel()
	home := func() (string, error) { return "/home/ann", nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	env := func(v string) func(string) string { return func(string) string { return v } }
	cases := []struct {
		name  string
		euid  int
		xdg   string
		home  func() (string, error)
		want  string
		isErr bool
	}{
		{"xdg", 1000, "/data/ann", home, "/data/ann/pipe/postgres", false},
		{"relative xdg is ignored", 1000, "data", home, "/home/ann/.local/share/pipe/postgres", false},
		{"home", 1000, "", home, "/home/ann/.local/share/pipe/postgres", false},
		{"root", 0, "/root/.local/share", home, "/var/lib/pipe/postgres", false},
		{"no home", 1000, "", noHome, "", true},
	}
	for _, c := range cases {
		got, err := defaultDir(c.euid, env(c.xdg), c.home)
		if got != c.want || (err != nil) != c.isErr {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
