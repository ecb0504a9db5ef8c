package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/urfave/cli/v2"
)

// startTrace starts recording the frames of the --trace-flows flows when
// --trace asks for a trace; nil otherwise.
func startTrace(c *cli.Context, r *fabric.Run) (*rtlmodel.TraceRecorder, error) {
	if c.String("trace") == "" {
		if c.IsSet("trace-flows") {
			return nil, fmt.Errorf("--trace-flows %s: without --trace there is no trace to write", c.String("trace-flows"))
		}
		return nil, nil
	}
	ids, err := parseFlowIDs(c.String("trace-flows"))
	if err != nil {
		return nil, fmt.Errorf("--trace-flows %s: %w", c.String("trace-flows"), err)
	}
	rec, err := r.TraceFlows(ids)
	if err != nil {
		return nil, fmt.Errorf("--trace-flows %s: %w", c.String("trace-flows"), err)
	}
	return rec, nil
}

// writeTrace writes the recorded trace to --trace's file.
func writeTrace(c *cli.Context, rec *rtlmodel.TraceRecorder) error {
	if rec == nil {
		return nil
	}
	path := c.String("trace")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := rec.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("--trace %s: %w", path, err)
	}
	return f.Close()
}

// parseFlowIDs reads a comma-separated list of flow IDs and ranges
// ("0,3,8-11"), in the order given, without repeats.
func parseFlowIDs(s string) ([]int, error) {
	var ids []int
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first < 0 {
			return nil, fmt.Errorf("%q is not a flow ID (IDs are whole numbers from 0, ranges as 4-7)", part)
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(hi); err != nil || last < first {
				return nil, fmt.Errorf("%q is not a range of flow IDs (from a lower ID to a higher, as 4-7)", part)
			}
		}
		if last-first >= 1<<20 {
			return nil, fmt.Errorf("%q: more than %d flows", part, 1<<20)
		}
		for id := first; id <= last; id++ {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}
