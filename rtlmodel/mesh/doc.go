// Package mesh is the kernel's demonstration and proof model: a
// credit-flow-controlled 2-D mesh of routers (dimension-order routing)
// with bursty, seeded traffic sources and sinks in a second clock domain.
//
// It exists to exercise every part of the kernel contract at once (two
// clock domains, credits, idle skipping with long gaps, per-component RNG
// streams) and to prove it: the full link trace must hash the same with
// idle skipping and always-tick, with shuffled and fixed Eval order, and
// across GOMAXPROCS. Its tests also hold two deliberately broken models: a
// ring whose credit loop deadlocks, and a component whose result depends on
// the Eval order, which the shuffled mode must catch.
package mesh
