// Package verify checks RTL against the model: it reads a VCD that an RTL
// simulator wrote, cuts it into transactions, drives the block's golden
// model with the inputs it finds, and compares the outputs the RTL produced
// with the ones the model expects. It also goes the other way and writes
// stimulus and expected outputs for an RTL testbench to replay.
//
// # Signal map
//
// A YAML file (see [LoadMap]) names the golden model ([Block]), the clock
// and the edge that samples it, the reset and its polarity, and the signals
// that form the input and output transactions: single-beat ports with a
// valid (and optionally a ready) and one signal per field, or multi-beat
// AXI-Stream frames (tdata, tkeep, tlast, tuser). A signal is a
// hierarchical name as the VCD has it, optionally with a bit slice
// ("tb.dut.data[15:8]"), or a constant ("0x11"). Decoding is strict: an
// unknown key is an error naming it, its line and the keys its mapping
// takes ("map.yaml:4: bogus: unknown key; a signal map takes block, ...").
//
// # Extraction
//
// Signals are sampled at each active clock edge with the values they held
// just before it, as a flip-flop sees them ([Sampler]); memory stays
// bounded by the number of mapped signals, whatever the length of the
// trace. A cycle counts every active edge from the first one, reset cycles
// included.
//
// # Golden models
//
// [Blocks] lists the registered golden models. Each is a thin adapter over
// the real model code (packet, serdes, nic400g, pipeline, switchasic) with a
// documented transaction format: the fields of its input and output ports
// and their widths ([PortSpec]).
//
// # Scoreboards
//
// Outputs are compared in order and cycle-exact, in order within a latency
// window, or out of order matched by a key field, with per-field masks
// (don't-care bits). An x or z in a compared bit of an output is reported
// as a divergence of its own, never compared as a value.
//
// # Report
//
// [Run] returns a [Result]: the transaction counts and cycles, or the first
// [Divergence] with its cycle, time, signal, expected and observed values
// and a window of cycles around it showing the expected and the observed
// transactions per cycle. [Result.WriteJUnit] writes JUnit XML.
//
// # Vectors
//
// [GenerateVectors] draws random inputs for a block, runs its golden model
// and [Vectors.WriteDir] writes stimulus and expected outputs as $readmemh
// hex and JSON Lines, with a manifest describing the packing.
package verify
