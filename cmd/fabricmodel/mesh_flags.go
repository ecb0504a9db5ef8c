package main

import (
	"fmt"
	"math"

	"github.com/fabricmodel/fabricmodel/rtlmodel/mesh"
	"github.com/urfave/cli/v2"
)

// maxMeshRouters bounds --width × --height: each router and its endpoint
// take about 26 KB (their links, stats and queues), so the largest mesh
// takes about 1.7 GB, and a run of it a minute per burst.
const maxMeshRouters = 1 << 16

// maxMeshMean bounds --burst-mean and --gap-mean: the traffic draws from
// 1 to 2·mean-1, which must stay a count the model can hold.
const maxMeshMean = 1 << 30

// meshConfig is the mesh of mesh's flags, refusing sizes and counts that
// are no mesh (negative, zero) and meshes too large to build.
func meshConfig(c *cli.Context) (mesh.Config, error) {
	cfg := mesh.DefaultConfig()
	cfg.Engine.Seed = c.Uint64("seed")
	cfg.Width, cfg.Height = c.Int("width"), c.Int("height")
	cfg.Traffic.Bursts = c.Int("bursts")
	cfg.Traffic.BurstMean, cfg.Traffic.GapMean = c.Int("burst-mean"), c.Int("gap-mean")
	cfg.BufferDepth = c.Int("buffer")
	cfg.Engine.AlwaysTick = c.Bool("always-tick")
	cfg.Engine.ShuffleEval = c.Bool("shuffle")
	for _, f := range []struct {
		flag     string
		value    int
		min, max int
		what     string
	}{
		{"width", cfg.Width, 1, maxMeshRouters, "routers"},
		{"height", cfg.Height, 1, maxMeshRouters, "routers"},
		{"bursts", cfg.Traffic.Bursts, 1, math.MaxInt32, "bursts"},
		{"burst-mean", cfg.Traffic.BurstMean, 1, maxMeshMean, "flits"},
		{"gap-mean", cfg.Traffic.GapMean, 1, maxMeshMean, "cycles"},
		{"buffer", cfg.BufferDepth, 1, math.MaxInt32, "flits"},
	} {
		if f.value < f.min || f.value > f.max {
			return cfg, fmt.Errorf("--%s %d: a number of %s from %d to %d", f.flag, f.value, f.what, f.min, f.max)
		}
	}
	switch n := cfg.Width * cfg.Height; {
	case n < 2:
		return cfg, fmt.Errorf("--width %d --height %d: one router; a mesh has at least 2", cfg.Width, cfg.Height)
	case n > maxMeshRouters:
		return cfg, fmt.Errorf("--width %d --height %d: %d routers; a mesh has at most %d (about 26 KB each)",
			cfg.Width, cfg.Height, n, maxMeshRouters)
	}
	return cfg, nil
}
