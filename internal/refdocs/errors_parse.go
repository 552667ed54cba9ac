package refdocs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// constDoc is one constant of package errcode as its source declares it.
type constDoc struct {
	name  string // the Go name: ReplicaConflict
	value string // its string: X_REPLICA_CONFLICT
	doc   string // its doc comment, as text
}

// errcodeSource is what the non-test files of package errcode declare.
type errcodeSource struct {
	codes   []constDoc        // the constants of type Code
	classes []constDoc        // the constants of type Class
	strs    map[string]string // the untyped string constants, by name
}

// parseErrcode reads the constants of the package in dir.
func parseErrcode(dir string) (errcodeSource, error) {
	src := errcodeSource{strs: map[string]string{}}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return src, err
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return src, err
		}
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				src.add(gd)
			}
		}
	}
	if len(src.codes) == 0 {
		return src, fmt.Errorf("no constant of type Code in %s", dir)
	}
	return src, nil
}

// add records the string constants of one const declaration.
func (src *errcodeSource) add(gd *ast.GenDecl) {
	for _, spec := range gd.Specs {
		vs := spec.(*ast.ValueSpec)
		doc := vs.Doc
		if doc == nil && !gd.Lparen.IsValid() {
			doc = gd.Doc // const X Code = "..." carries its doc on the declaration
		}
		typ := ""
		if id, ok := vs.Type.(*ast.Ident); ok {
			typ = id.Name
		}
		for i, n := range vs.Names {
			if i >= len(vs.Values) {
				continue
			}
			v, ok := stringValue(vs.Values[i])
			if !ok {
				continue
			}
			c := constDoc{name: n.Name, value: v, doc: doc.Text()}
			switch typ {
			case "Code":
				src.codes = append(src.codes, c)
			case "Class":
				src.classes = append(src.classes, c)
			case "":
				src.strs[n.Name] = v
			}
		}
	}
}

// stringValue answers the value of a constant string expression: literals
// joined by +.
func stringValue(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.ParenExpr:
		return stringValue(e.X)
	case *ast.BinaryExpr:
		x, okX := stringValue(e.X)
		y, okY := stringValue(e.Y)
		return x + y, okX && okY && e.Op == token.ADD
	}
	return "", false
}

// fix answers the standard fix the package declares for the code named
// name: a string constant named after it, ReplicaConflictFix (or
// replicaConflictFix, unexported).
func (src errcodeSource) fix(name string) string {
	if f, ok := src.strs[name+"Fix"]; ok {
		return f
	}
	return src.strs[strings.ToLower(name[:1])+name[1:]+"Fix"]
}
