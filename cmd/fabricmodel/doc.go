// Command fabricmodel is the command-line front end of the fabricmodel
// simulator. It holds no model logic: each command parses flags, builds a
// model from the packages, runs it and prints what the model computed.
//
// Commands:
//
//	fabricmodel run      simulate a fabric scenario (YAML; the embedded
//	                     default when no file is given) and print flow and
//	                     job completion times, goodput, utilisation,
//	                     queues, PFC, ECN, trims, drops, retransmits,
//	                     packets received twice and the run's speed
//	fabricmodel mesh     run the kernel's demonstration model (an 8x8
//	                     credit-flow-controlled mesh in two clock domains)
//	                     and print its summary and speed
//	fabricmodel budget   latency, throughput and scale budgets computed
//	                     from the models (--set NAME=VALUE, --list)
//	fabricmodel explore  parameter sweeps run locally or as a SLURM array
//	                     job, merged and reported
//	fabricmodel verify   compare an RTL simulator's VCD with a block's
//	                     golden model; first divergence or a pass line
//	fabricmodel vectors  stimulus and expected outputs for an RTL
//	                     testbench ($readmemh hex and JSON Lines)
//
// Run "fabricmodel help <command>" for the flags of a command.
package main
