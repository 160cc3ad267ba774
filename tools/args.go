package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// ArgumentError is a call whose JSON arguments do not fit the tool's input
// schema. Its message names the parameter and what was expected.
type ArgumentError struct {
	Tool  string
	Param string
	Msg   string
}

func (e *ArgumentError) Error() string {
	if e.Param == "" {
		return fmt.Sprintf("%s: invalid arguments: %s", e.Tool, e.Msg)
	}
	return fmt.Sprintf("%s: parameter %q %s", e.Tool, e.Param, e.Msg)
}

// decodeArgs decodes the model's arguments into dst (a pointer to an input
// struct) strictly: unknown parameters and wrong types are errors that say
// which parameter and what is accepted. Empty or null arguments decode to
// the zero value.
func decodeArgs(tool string, raw json.RawMessage, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	if raw[0] != '{' {
		return &ArgumentError{Tool: tool, Msg: "arguments must be a JSON object"}
	}
	if err := exactKeys(tool, raw, dst); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typeErr):
		return &ArgumentError{Tool: tool, Param: typeErr.Field,
			Msg: fmt.Sprintf("must be %s, not a JSON %s", jsonKind(typeErr.Type), typeErr.Value)}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &ArgumentError{Tool: tool, Param: name,
			Msg: "is not a parameter of this tool; valid parameters: " + strings.Join(paramNames(dst), ", ")}
	}
	return &ArgumentError{Tool: tool, Msg: err.Error()}
}

// exactKeys refuses any key that is not exactly a parameter's name.
// encoding/json matches keys case-insensitively ("FILE_PATH" would fill
// file_path), which the schemas' additionalProperties: false rules out.
func exactKeys(tool string, raw json.RawMessage, dst any) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return &ArgumentError{Tool: tool, Msg: "arguments must be a JSON object"}
	}
	valid := paramNames(dst)
	unknown := make([]string, 0, len(keys))
	for k := range keys {
		if !slices.Contains(valid, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	k := unknown[0]
	msg := "is not a parameter of this tool"
	for _, v := range valid {
		if strings.EqualFold(k, v) {
			msg += fmt.Sprintf(" (names are case-sensitive: did you mean %q?)", v)
		}
	}
	return &ArgumentError{Tool: tool, Param: k, Msg: msg + "; valid parameters: " + strings.Join(valid, ", ")}
}

// paramNames lists the JSON names of the input struct dst points to.
func paramNames(dst any) []string {
	t := reflect.TypeOf(dst).Elem()
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.String:
		return "a string"
	}
	return "a " + t.Kind().String()
}

// nonNegative checks integer parameters that count lines or entries.
func nonNegative(tool string, params map[string]int) error {
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if params[n] < 0 {
			return &ArgumentError{Tool: tool, Param: n, Msg: fmt.Sprintf("must be 0 or more, not %d", params[n])}
		}
	}
	return nil
}
