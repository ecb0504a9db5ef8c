package yamlfile

import (
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// keysAt lists the keys the mapping at the dotted path of a file decoded
// into type top takes ("" for the top, "parameters.0" for an item of a
// list), in the order the types declare them; nil when the path names no
// mapping of fixed keys (a map, or a yaml.Node that takes anything).
func keysAt(top reflect.Type, path string) []string {
	t := top
	if t == nil {
		return nil
	}
	if path != "" {
		for _, k := range strings.Split(path, ".") {
			if t = KeyType(t, k); t == nil {
				return nil
			}
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == reflect.TypeFor[yaml.Node]() {
		return nil
	}
	return yamlKeys(t)
}

// KeyType follows one key (an index for a list) from type t to the type
// of its value; nil when t has no such key.
func KeyType(t reflect.Type, key string) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if _, err := strconv.Atoi(key); err == nil {
			return t.Elem()
		}
		return nil
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, inline := yamlTag(f)
			if inline {
				if ft := KeyType(f.Type, key); ft != nil {
					return ft
				}
				continue
			}
			if name == key {
				return f.Type
			}
		}
	}
	return nil
}

// yamlKeys lists the YAML keys of struct type t, those of inlined structs
// in their place.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline := yamlTag(f)
		switch {
		case inline && f.Type.Kind() == reflect.Struct:
			keys = append(keys, yamlKeys(f.Type)...)
		case name != "":
			keys = append(keys, name)
		}
	}
	return keys
}

// yamlTag returns the key a struct field decodes from ("" for none: an
// unexported field or one tagged "-") and whether it is inlined. Like the
// YAML library, it reads embedded structs of unexported types too.
func yamlTag(f reflect.StructField) (name string, inline bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false
	}
	name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return "", false
	}
	if strings.Contains(","+opts+",", ",inline,") {
		return "", true
	}
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name, false
}
