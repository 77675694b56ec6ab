package examples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/orcgo/orc"
)

// RowDiff compares two JSON rows (ours, and the line Apache's tools print)
// as values of the file's schema, and returns the first difference or "": numbers
// compare by exact value ("1.50" equals "1.5"), except floats and doubles,
// which Apache's printer writes with fewer significant digits: ours must
// round to the expected text.
func RowDiff(schema *orc.Schema, got, want []byte) string {
	return Differ{}.RowDiff(schema, got, want)
}

// Differ compares rows with options.
type Differ struct {
	// NullUnion lets a null union match a union holding a null value (for
	// layouts, such as Arrow's, whose unions have no nulls of their own).
	NullUnion bool
}

// RowDiff is RowDiff with d's options.
func (d Differ) RowDiff(schema *orc.Schema, got, want []byte) string {
	g, err := decodeJSON(got)
	if err != nil {
		return "our output is not JSON: " + err.Error()
	}
	w, err := decodeJSON(want)
	if err != nil {
		return "expected line is not JSON: " + err.Error()
	}
	return d.valueDiff("$", schema, g, w)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// significant counts the significant digits of a number's text.
func significant(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(strings.Replace(strings.TrimPrefix(s, "-"), ".", "", 1), "0")
	if s == "" {
		return 1
	}
	return len(s)
}

func (d Differ) valueDiff(path string, t *orc.Schema, g, w any) string {
	if d.NullUnion && t.Kind == orc.Union && g == nil {
		if wv, ok := w.(map[string]any); ok && wv["value"] == nil {
			return ""
		}
	}
	if w == nil || g == nil {
		if g != w {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		return ""
	}
	switch t.Kind {
	case orc.Float, orc.Double:
		gv, ok1 := g.(json.Number)
		wv, ok2 := w.(json.Number)
		if !ok1 || !ok2 {
			if reflect.DeepEqual(g, w) {
				return ""
			}
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		bits := 64
		if t.Kind == orc.Float {
			bits = 32 // our text is the shortest float32; round its exact value
		}
		gf, err1 := strconv.ParseFloat(string(gv), bits)
		wf, err2 := strconv.ParseFloat(string(wv), 64)
		if err1 != nil || err2 != nil {
			return fmt.Sprintf("%s: got %s, want %s", path, gv, wv)
		}
		if gf == wf {
			return ""
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(gf, 'g', significant(string(wv)), 64), 64)
		if r != wf {
			return fmt.Sprintf("%s: got %s, want %s", path, gv, wv)
		}
		return ""
	case orc.Struct:
		gv, ok1 := g.(map[string]any)
		wv, ok2 := w.(map[string]any)
		if !ok1 || !ok2 || len(gv) != len(wv) {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		for i, name := range t.FieldNames {
			if diff := d.valueDiff(path+"."+name, t.Children[i], gv[name], wv[name]); diff != "" {
				return diff
			}
		}
		return ""
	case orc.List, orc.Map, orc.Binary:
		gv, ok1 := g.([]any)
		wv, ok2 := w.([]any)
		if !ok1 || !ok2 || len(gv) != len(wv) {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		for i := range wv {
			p := fmt.Sprintf("%s[%d]", path, i)
			var diff string
			switch t.Kind {
			case orc.List:
				diff = d.valueDiff(p, t.Children[0], gv[i], wv[i])
			case orc.Binary:
				diff = d.valueDiff(p, &orc.Schema{Kind: orc.Long}, gv[i], wv[i])
			default:
				ge, ok1 := gv[i].(map[string]any)
				we, ok2 := wv[i].(map[string]any)
				if !ok1 || !ok2 {
					return fmt.Sprintf("%s: got %v, want %v", p, gv[i], wv[i])
				}
				if diff = d.valueDiff(p+".key", t.Children[0], ge["key"], we["key"]); diff == "" {
					diff = d.valueDiff(p+".value", t.Children[1], ge["value"], we["value"])
				}
			}
			if diff != "" {
				return diff
			}
		}
		return ""
	case orc.Union:
		gv, ok1 := g.(map[string]any)
		wv, ok2 := w.(map[string]any)
		if !ok1 || !ok2 || !reflect.DeepEqual(gv["tag"], wv["tag"]) {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		tag, err := strconv.Atoi(fmt.Sprint(wv["tag"]))
		if err != nil || tag < 0 || tag >= len(t.Children) {
			return fmt.Sprintf("%s: bad tag %v", path, wv["tag"])
		}
		return d.valueDiff(path+".value", t.Children[tag], gv["value"], wv["value"])
	}
	if wv, ok := w.(json.Number); ok {
		gv, ok := g.(json.Number)
		if !ok {
			return fmt.Sprintf("%s: got %v, want number %s", path, g, wv)
		}
		gr, ok1 := new(big.Rat).SetString(string(gv))
		wr, ok2 := new(big.Rat).SetString(string(wv))
		if !ok1 || !ok2 || gr.Cmp(wr) != 0 {
			return fmt.Sprintf("%s: got %s, want %s", path, gv, wv)
		}
		return ""
	}
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("%s: got %v, want %v", path, g, w)
	}
	return ""
}
