package explore

import (
	"fmt"
	"sort"
)

// Pareto returns the points no other point dominates on metrics x and y,
// each minimised (maxX/maxY false) or maximised, sorted by x (best first).
// A point dominates another when it is at least as good on both and
// better on one; points with equal values on both are all kept.
func Pareto(r *Results, x string, maxX bool, y string, maxY bool) ([]Result, error) {
	type xy struct {
		res  Result
		a, b float64 // oriented so that smaller is better
	}
	var pts []xy
	for _, p := range r.Points {
		vx, okx := p.Metric(x)
		vy, oky := p.Metric(y)
		if !okx || !oky {
			return nil, fmt.Errorf("pareto: point %s lacks %s or %s", p.ID, x, y)
		}
		if maxX {
			vx = -vx
		}
		if maxY {
			vy = -vy
		}
		pts = append(pts, xy{p, vx, vy})
	}
	sort.SliceStable(pts, func(i, j int) bool {
		if pts[i].a != pts[j].a {
			return pts[i].a < pts[j].a
		}
		return pts[i].b < pts[j].b
	})
	var front []Result
	for i, p := range pts {
		dominated := false
		for j, q := range pts {
			if i != j && q.a <= p.a && q.b <= p.b && (q.a < p.a || q.b < p.b) {
				dominated = true
				break
			}
		}
		if !dominated {
			front = append(front, p.res)
		}
	}
	return front, nil
}

// ParetoOf is Pareto with the goals of a sweep file's pareto section.
func ParetoOf(r *Results, p ParetoSpec) ([]Result, error) {
	return Pareto(r, p.X, p.XGoal == "max", p.Y, p.YGoal == "max")
}
