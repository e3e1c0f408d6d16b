package cli

import (
	"errors"
	"slices"
	"testing"

	"hostfall/game"
)

// --teams names a team for every player or none; anything else is a usage
// error, never a partial list.
func TestTeams(t *testing.T) {
	for _, tt := range []struct {
		s       string
		players int
		want    []game.Team
		err     error
	}{
		{"", 4, nil, nil},
		{"0,1,0,1", 4, []game.Team{0, 1, 0, 1}, nil},
		{" 2 , 3", 2, []game.Team{2, 3}, nil},
		{"0,1", 3, nil, ErrUsage},
		{"0,x", 2, nil, ErrUsage},
		{"0,-1", 2, nil, ErrUsage},
		{"0,256", 2, nil, ErrUsage},
	} {
		got, err := Teams(tt.s, tt.players)
		if !errors.Is(err, tt.err) || !slices.Equal(got, tt.want) {
			t.Errorf("Teams(%q, %d) = %v, %v; want %v, %v", tt.s, tt.players, got, err, tt.want, tt.err)
		}
	}
}

// Whatever --teams says, the answer is a team per player or a usage error.
func FuzzTeams(f *testing.F) {
	for _, s := range []string{"", "0,1,0,1", "7", ",", "1,,2", "99999999999"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, players int) {
		got, err := Teams(s, players)
		switch {
		case err != nil && !errors.Is(err, ErrUsage):
			t.Fatalf("Teams(%q, %d): %v is not a usage error", s, players, err)
		case err == nil && s != "" && len(got) != players:
			t.Fatalf("Teams(%q, %d) = %v: not one team a player", s, players, got)
		}
	})
}
