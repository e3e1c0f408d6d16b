package cli

import (
	"strconv"
	"strings"

	"hostfall/game"
)

// Teams reads --teams: a team for each of the players, or none.
func Teams(s string, players int) ([]game.Team, error) {
	if s == "" {
		return nil, nil
	}
	var teams []game.Team
	for _, f := range strings.Split(s, ",") {
		t, err := strconv.ParseUint(strings.TrimSpace(f), 10, 8)
		if err != nil {
			return nil, Usagef("--teams wants numbers 0 to 7, got %q", f)
		}
		teams = append(teams, game.Team(t))
	}
	if len(teams) != players {
		return nil, Usagef("--teams names %d teams for %d players", len(teams), players)
	}
	return teams, nil
}
