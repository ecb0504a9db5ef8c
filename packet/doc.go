// Package packet holds the bit-exact header formats, checksums and hashes
// that the NIC model, the switch model and RTL comparison share.
//
// Headers are encoded into and decoded from caller-owned byte slices and
// structs without allocation. Every decoder of outside input returns a
// *FieldError naming the header and field for malformed input and never
// panics. Field layouts and their sources are in FACTS.md section 1.
package packet
