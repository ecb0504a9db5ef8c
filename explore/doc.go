// Package explore runs architecture-exploration sweeps over the models.
//
// A sweep file (YAML, strict) names an evaluator (budget, incast, or one
// registered later), the parameters to vary and how (grid, random or
// Latin-hypercube design), a sweep seed and the metrics to collect. The
// design expands into points; each point has a stable id and a seed derived
// from the sweep seed and its parameter values, so the same file always
// gives the same points with the same seeds.
//
// Points are independent simulations. Run evaluates them on a worker pool
// and writes one result file per point atomically (temporary file, then
// rename); a rerun skips points whose result file exists, so an interrupted
// sweep resumes where it stopped. A shard (i/N) is a fixed partition of the
// points, which is how a SLURM array job divides a sweep among its tasks
// (SlurmScript writes that job). Merge gathers the result files into one
// CSV and one JSON, checking every point is present exactly once; its
// output depends only on the sweep and the results, never on how or where
// the points ran.
//
// Reports on merged results: Table (points and metrics), Pareto (the front
// of two metrics, each minimised or maximised) and Plot (a PNG of a metric
// against a swept parameter, one line per value of another).
package explore
