// Command fabricmodel is the command-line front end of the fabricmodel
// simulator. It holds no model logic: each command parses flags, builds a
// model from the packages, runs it and prints what the model computed.
//
// Commands:
//
//	fabricmodel run    run the kernel's demonstration model (an 8x8
//	                   credit-flow-controlled mesh in two clock domains)
//	                   and print its summary and speed
//
// Run "fabricmodel help <command>" for the flags of a command.
package main
