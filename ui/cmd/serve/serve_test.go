package serve

import "testing"

// TestLoopback pins what serve must never do: take an empty or wildcard
// host (--addr :0, 0.0.0.0:8017, [::]:8017) for loopback. Those listen on
// every interface, so serve warns that the page is reachable from the
// network (serve_addr.txtar), and answers for this machine's addresses.
func TestLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "127.0.0.1": true, "127.0.0.2": true, "::1": true,
		"": false, "0.0.0.0": false, "::": false, "192.168.1.10": false, "example.com": false, "localhost.example.com": false,
	} {
		if got := loopback(host); got != want {
			t.Errorf("loopback(%q) = %v, want %v", host, got, want)
		}
	}
	if got := serveHosts("127.0.0.1"); len(got) != 1 || got[0] != "127.0.0.1" {
		t.Errorf("serveHosts(127.0.0.1) = %v", got)
	}
	for _, wild := range []string{"", "0.0.0.0", "::"} {
		for _, h := range serveHosts(wild) {
			if h == "" || h == "0.0.0.0" || h == "::" {
				t.Errorf("serveHosts(%q) answers for %q", wild, h)
			}
		}
	}
}
