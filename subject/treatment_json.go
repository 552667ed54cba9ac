package subject

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// MarshalJSON writes the treatment's JSON form: "delete",
// {"anonymize": {...}, "keep": {...}} or {"retain": "<reason>"}.
func (t Treatment) MarshalJSON() ([]byte, error) {
	switch t.kind() {
	case kindDelete:
		return []byte(`"delete"`), nil
	case kindRetain:
		return json.Marshal(map[string]string{"retain": t.Retain})
	case kindAnonymize:
		vals := map[string]any{}
		for col, v := range t.Anonymize {
			if e, ok := v.(SQL); ok {
				v = map[string]string{"$sql": string(e)}
			}
			vals[col] = v
		}
		out := map[string]any{"anonymize": vals}
		if len(t.Keep) > 0 {
			out["keep"] = t.Keep
		}
		return json.Marshal(out)
	}
	return nil, errors.New("subject: a treatment must be exactly one of delete, anonymize and retain")
}

// UnmarshalJSON reads the treatment's JSON form.
func (t *Treatment) UnmarshalJSON(raw []byte) error {
	*t = Treatment{}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s != "delete" {
			return errors.New(`subject: a treatment in quotes must be "delete"`)
		}
		t.Delete = true
		return nil
	}
	var form struct {
		Anonymize map[string]json.RawMessage `json:"anonymize"`
		Keep      map[string]string          `json:"keep"`
		Retain    *string                    `json:"retain"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&form); err != nil {
		return errors.New(`subject: a treatment is "delete", {"anonymize": {...}} or {"retain": "<reason>"}`)
	}
	if form.Retain != nil {
		t.Retain, t.retain = *form.Retain, true
	}
	t.Keep = form.Keep
	if form.Anonymize != nil {
		t.Anonymize = map[string]any{}
		for col, v := range form.Anonymize {
			val, err := anonymizeValue(v)
			if err != nil {
				return errors.New("subject: the anonymize value of column " + strconv.Quote(col) + " does not parse")
			}
			t.Anonymize[col] = val
		}
	}
	return nil
}

// anonymizeValue reads one anonymize value: {"$sql": "..."} is an [SQL]
// expression; any other JSON value a constant (numbers kept exact).
func anonymizeValue(raw json.RawMessage) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if _, isSQL := obj["$sql"]; !ok || !isSQL {
		return v, nil
	}
	if e, ok := obj["$sql"].(string); ok && len(obj) == 1 {
		return SQL(e), nil
	}
	return nil, errors.New(`subject: {"$sql": ...} holds one string, the expression`)
}
