package explore

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is part I (0-based) of a sweep cut into N parts: the points whose
// design index is I modulo N. The zero Shard is the whole sweep.
type Shard struct{ I, N int }

// ParseShard reads "i/N" with 0 <= i < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/N with 0 <= i < N", s)
	}
	return Shard{I: i, N: n}, nil
}

// String writes the shard as i/N.
func (s Shard) String() string {
	if s.N == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Has reports whether the point at design index i is in the shard.
func (s Shard) Has(i int) bool { return s.N <= 1 || i%s.N == s.I }

// Select returns the shard's points, in design order.
func (s Shard) Select(pts []Point) []Point {
	var out []Point
	for _, p := range pts {
		if s.Has(p.Index) {
			out = append(out, p)
		}
	}
	return out
}
