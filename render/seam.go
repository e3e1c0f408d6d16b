package render

import (
	"time"

	"hostfall/client"
)

// Client is the seam the screens read and act through; see package
// client for the interface and its values.
type Client = client.Client

// turnLength is how long a turn lasts by default (session TurnTicks 5 at
// 10 ms a tick): drawing interpolates over it until the client says more.
const turnLength = 50 * time.Millisecond
