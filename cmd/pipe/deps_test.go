package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Every module go.mod requires directly has a row in docs/dependencies.md,
// saying why, and no row names a module go.mod does not; a module the
// table says only the tests use is not linked into the stock binary.
func TestEveryDependencyIsDeliberate(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	direct := directRequires(t)
	rows := dependencyRows(t)
	for m := range direct {
		if _, ok := rows[m]; !ok {
			t.Errorf("go.mod requires %s, which docs/dependencies.md does not list with its reason", m)
		}
	}
	linked := linkedModules(t, goCmd, "")
	for m, in := range rows {
		switch {
		case !direct[m]:
			t.Errorf("docs/dependencies.md lists %s, which go.mod does not require directly", m)
		case in == "tests" && linked[m]:
			t.Errorf("the binary links %s, which docs/dependencies.md says only the tests use", m)
		case in == "linked" && !linked[m]:
			t.Errorf("docs/dependencies.md says the binary links %s, and it does not", m)
		}
	}
}

// The build the README offers for local files only links no cloud SDK.
func TestABuildWithoutTheCloudStoresLinksNone(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	for m := range linkedModules(t, goCmd, "pipe_no_s3,pipe_no_gcs,pipe_no_azure") {
		if strings.HasPrefix(m, "github.com/aws/") || strings.HasPrefix(m, "github.com/Azure/") || m == "cloud.google.com/go/storage" {
			t.Errorf("a build tagged pipe_no_s3,pipe_no_gcs,pipe_no_azure links %s", m)
		}
	}
}

func directRequires(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	direct := map[string]bool{}
	line := regexp.MustCompile(`(?m)^\s*([^\s()]+)\s+v\S+\s*$`)
	for _, m := range line.FindAllStringSubmatch(string(raw), -1) {
		direct[m[1]] = true
	}
	if len(direct) == 0 {
		t.Fatal("no direct requirement read from go.mod")
	}
	return direct
}

// dependencyRows answers the table of docs/dependencies.md: module → in.
func dependencyRows(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("../../docs/dependencies.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| (linked|tests) \\| .+\\|$")
	for _, m := range row.FindAllStringSubmatch(string(raw), -1) {
		rows[m[1]] = m[2]
	}
	return rows
}

func linkedModules(t *testing.T, goCmd, tags string) map[string]bool {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), goCmd, "list", "-deps", "-tags", tags, "-f", "{{with .Module}}{{.Path}}{{end}}", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		linked[m] = true
	}
	return linked
}
