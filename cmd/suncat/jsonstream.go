package main

import (
	"bufio"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
)

// The pieces of encodeIndented (jsonout.go): a value is split into the
// fields of its structs and the elements of its slices for a few levels,
// as encoding/json orders and omits them, and what is below is
// marshalled whole and indented at its depth.

// A jsonFormer gives the value that its MarshalJSON marshals, to be
// written in pieces (grammar.Grammar: its start rule has millions of
// items for a -reads trace).
type jsonFormer interface{ JSONForm() any }

// A jsonItems is a JSON array whose items are made as they are written
// (grammar.JSONItems: a rule's items).
type jsonItems interface {
	Len() int
	Item(i int) any
}

// writeItems writes the array of items at depth, each marshalled when
// it is written.
func writeItems(w *bufio.Writer, items jsonItems, depth int) error {
	if items.Len() == 0 {
		w.WriteString("[]")
		return nil
	}
	return writeArray(w, items.Len(), depth, func(i int) error {
		b, err := json.Marshal(items.Item(i))
		if err != nil {
			return err
		}
		indentCompactAt(w, b, depth+1)
		return nil
	})
}

// writeArray writes an array of n elements at depth: elem writes element
// i at depth+1, its first line already indented.
func writeArray(w *bufio.Writer, n, depth int, elem func(i int) error) error {
	in := strings.Repeat("  ", depth+1)
	w.WriteString("[\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			w.WriteString(",\n")
		}
		w.WriteString(in)
		if err := elem(i); err != nil {
			return err
		}
	}
	w.WriteString("\n" + in[2:] + "]")
	return nil
}

var (
	jsonItemsType     = reflect.TypeFor[jsonItems]()
	jsonFormerType    = reflect.TypeFor[jsonFormer]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// writePieces writes v at depth (its first line already indented),
// split into pieces for levels more levels.
func writePieces(w *bufio.Writer, v reflect.Value, depth, levels int) error {
	if v.IsValid() && v.Type().Implements(jsonFormerType) && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		// A grammar: its items one at a time, whatever the depth.
		return writePieces(w, reflect.ValueOf(v.Interface().(jsonFormer).JSONForm()), depth, 3)
	}
	if v.IsValid() && v.Kind() == reflect.Struct && v.Type().Implements(jsonItemsType) {
		return writeItems(w, v.Interface().(jsonItems), depth)
	}
	if levels > 0 && v.IsValid() && !marshals(v.Type()) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				return writePieces(w, v.Elem(), depth, levels)
			}
		case reflect.Slice:
			if !v.IsNil() && v.Len() > 0 {
				return writeSlice(w, v, depth, levels)
			}
		case reflect.Struct:
			if plainStruct(v.Type()) {
				return writeStruct(w, v, depth, levels)
			}
		}
	}
	var x any
	switch {
	case !v.IsValid():
	case v.Kind() != reflect.Pointer && v.CanAddr() && marshals(v.Type()):
		x = v.Addr().Interface() // as encoding/json calls a pointer's method
	default:
		x = v.Interface()
	}
	b, err := json.Marshal(x)
	if err != nil {
		return err
	}
	indentCompactAt(w, b, depth)
	return nil
}

// marshals reports whether t (or *t) writes its own JSON.
func marshals(t reflect.Type) bool {
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	if t.Kind() != reflect.Pointer {
		p := reflect.PointerTo(t)
		return p.Implements(marshalerType) || p.Implements(textMarshalerType)
	}
	return false
}

func writeSlice(w *bufio.Writer, v reflect.Value, depth, levels int) error {
	return writeArray(w, v.Len(), depth, func(i int) error {
		return writePieces(w, v.Index(i), depth+1, levels-1)
	})
}

// A jsonField is a struct field as encoding/json writes it.
type jsonField struct {
	name string
	v    reflect.Value
}

func writeStruct(w *bufio.Writer, v reflect.Value, depth, levels int) error {
	fields := jsonFields(v, nil)
	if len(fields) == 0 {
		w.WriteString("{}")
		return nil
	}
	in := strings.Repeat("  ", depth+1)
	w.WriteString("{\n")
	for i, f := range fields {
		if i > 0 {
			w.WriteString(",\n")
		}
		name, err := json.Marshal(f.name)
		if err != nil {
			return err
		}
		w.WriteString(in)
		w.Write(name)
		w.WriteString(": ")
		if err := writePieces(w, f.v, depth+1, levels-1); err != nil {
			return err
		}
	}
	w.WriteString("\n" + in[2:] + "}")
	return nil
}

// jsonFields appends the fields of struct v that encoding/json writes,
// in its order: exported fields by their tag's name, "-" and empty
// omitempty ones left out, untagged embedded structs' fields in place.
// (Enough for the summary's types: no field names collide.)
func jsonFields(v reflect.Value, out []jsonField) []jsonField {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, opts, skip := jsonTag(sf)
		if skip {
			continue
		}
		fv := v.Field(i)
		if sf.Anonymous && name == "" {
			if fieldType(sf).Kind() == reflect.Struct {
				if fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						continue
					}
					fv = fv.Elem()
				}
				out = jsonFields(fv, out)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if strings.Contains(","+opts+",", ",omitempty,") && emptyJSON(fv) {
			continue
		}
		out = append(out, jsonField{name, fv})
	}
	return out
}

// plainStruct reports whether jsonFields writes t's fields as
// encoding/json does: no tag option but omitempty, names of letters,
// digits, '_' and '-', no struct embedded under a name, no two fields
// of one name (encoding/json keeps the shallower, or none). Others are
// marshalled whole.
func plainStruct(t reflect.Type) bool {
	seen := map[string]bool{}
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			name, opts, skip := jsonTag(sf)
			if skip {
				continue
			}
			if opts != "" && opts != "omitempty" || !plainName(name) {
				return false
			}
			ft := fieldType(sf)
			if sf.Anonymous && ft.Kind() == reflect.Struct {
				if name != "" || !walk(ft) {
					return false
				}
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if seen[name] {
				return false
			}
			seen[name] = true
		}
		return true
	}
	return walk(t)
}

// jsonTag is the name and the options of field sf's json tag, and
// whether encoding/json leaves the field out ("-").
func jsonTag(sf reflect.StructField) (name, opts string, skip bool) {
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", "", true
	}
	name, opts, _ = strings.Cut(tag, ",")
	return name, opts, false
}

// fieldType is the type of field sf, or what it points to.
func fieldType(sf reflect.StructField) reflect.Type {
	if sf.Type.Kind() == reflect.Pointer {
		return sf.Type.Elem()
	}
	return sf.Type
}

func plainName(s string) bool {
	for _, c := range s {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// emptyJSON is encoding/json's test for omitempty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
