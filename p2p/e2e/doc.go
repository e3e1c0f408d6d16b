// Package e2e holds Hostfall's multi-process network tests: real hostfall
// processes in Linux network namespaces (internal/netns) find each other
// with mDNS, play, lose their host to SIGKILL, play through netem delay and
// loss, play against the Windows build under Wine (internal/wine), and reach each other from behind NAT through a relay. The tests need
// root and skip with a message otherwise; -short skips them too.
//
// The same scenarios measure the network figures of `make bench`
// (scripts/bench.d/lan.sh runs TestBenchLAN with HFLAN_BENCH=1;
// scripts/bench.d/lanreturn.sh TestBenchLANRejoin and TestBenchLANHeal).
package e2e
