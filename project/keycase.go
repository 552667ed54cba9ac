package project

import (
	"fmt"
	"reflect"
	"strings"
)

// exactKeys refuses a key of the decoded JSON v that names a field of t
// only when case is folded: encoding/json takes "Rollups" for "rollups",
// where pipe.schema.json, and every other reader of the file, does not.
func exactKeys(v any, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, _ := v.(map[string]any)
		for k, val := range obj {
			f, ok := fieldNamed(t, k)
			if !ok {
				return fmt.Errorf("json: unknown field %q", k)
			}
			if err := exactKeys(val, f.Type); err != nil {
				return err
			}
		}
	case reflect.Slice:
		list, _ := v.([]any)
		for _, e := range list {
			if err := exactKeys(e, t.Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldNamed answers t's field whose JSON name is exactly name.
func fieldNamed(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name || tag == "" && f.Name == name {
			return f, f.IsExported() && tag != "-"
		}
	}
	return reflect.StructField{}, false
}
