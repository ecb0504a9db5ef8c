// Package switchasic models a 51.2 Tb/s switch ASIC on 512 lanes of 112G
// PAM4 SerDes (FACTS 4): port modes and pipes, forwarding tables, ECMP
// hashing, packet spraying and dynamic load balancing, the traffic manager
// and egress scheduling, with every stage's latency in cycles.
//
// Numbers come from FACTS sections 1.5, 2.7, 4 and 7; each exported name
// says which row it rests on, with the FACTS tag (S sourced, E derived or
// estimated, U recalled but not re-checked).
package switchasic
