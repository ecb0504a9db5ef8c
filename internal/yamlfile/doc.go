// Package yamlfile reads the model's YAML files (scenarios, sweeps,
// budget overrides) one way: UTF-8 text holding exactly one document,
// decoded strictly, with the YAML library's errors said in the file's own
// terms: the dotted key they are about, its line, and what the key takes,
// rather than Go's type names ("line 8: workload.bogus: unknown key;
// workload takes kind, bytes, ..." instead of "line 8: field bogus not
// found in type fabric.ScenarioWorkload").
//
// Errors about a line of a file are *Error values (several joined with
// errors.Join); Locate puts the file's name and the line in front.
package yamlfile
