package verify

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteBlocks describes every registered block: its summary, parameters
// with their defaults, and the fields of its input and output ports.
func WriteBlocks(w io.Writer) error {
	var b strings.Builder
	for _, blk := range Blocks() {
		fmt.Fprintf(&b, "%s\n  %s\n", blk.Name, blk.Summary)
		for _, p := range blk.Params {
			fmt.Fprintf(&b, "  param %s (default %d; %s): %s\n", p.Name, p.Default, p.Allowed(), p.Doc)
		}
		writePortDoc(&b, "input", &blk.Input)
		writePortDoc(&b, "output", &blk.Output)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writePortDoc(b *strings.Builder, side string, p *PortSpec) {
	fmt.Fprintf(b, "  %s (%s): %s\n", side, p.Kind, p.Doc)
	for _, f := range p.Fields {
		fmt.Fprintf(b, "    %-8s %2d bits  %s\n", f.Name, f.Width, f.Doc)
	}
}

// ParseParams parses name=value pairs (values decimal, 0x, 0b or 0o); a
// name given twice is an error.
func ParseParams(pairs []string) (map[string]uint64, error) {
	out := map[string]uint64{}
	first := map[string]string{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("parameter %q: write name=value", p)
		}
		if f, dup := first[k]; dup {
			return nil, fmt.Errorf("parameter %q: %s given twice (first %q)", p, k, f)
		}
		first[k] = p
		n, err := strconv.ParseUint(strings.ReplaceAll(strings.TrimSpace(v), "_", ""), 0, 64)
		if err != nil {
			return nil, fmt.Errorf("parameter %q: value is not an unsigned 64-bit number", p)
		}
		out[k] = n
	}
	return out, nil
}
