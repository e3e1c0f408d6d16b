package session

// SRTTs exposes the host's smoothed round trips (ticks×8) to the tests.
func (n *Node) SRTTs() []int {
	var r []int
	if n.hs != nil {
		for _, pi := range n.hs.peers {
			r = append(r, pi.srtt8)
		}
	}
	return r
}

// RoleName exposes the node's role to debugging tests.
func (n *Node) RoleName() string { return n.role.String() }
