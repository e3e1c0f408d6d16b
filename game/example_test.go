package game_test

import (
	"fmt"

	"hostfall/game"
	"hostfall/game/ai"
)

// A game loop: every turn, collect the commands (here from bots; in a
// networked game from the session's committed turn), step, and read events.
func Example() {
	w, err := game.NewWorld(game.FreeForAll(7, 2))
	if err != nil {
		panic(err)
	}
	bots := []*ai.Bot{ai.New(0, ai.Hard, 1), ai.New(1, ai.Easy, 2)}
	trained := 0
	for w.Turn() < 2400 { // two minutes of play
		var cmds []game.Command
		for _, b := range bots {
			cmds = append(cmds, b.Think(w)...)
		}
		w.Step(cmds)
		for _, ev := range w.Events() {
			if ev.Kind == game.EvTrained {
				trained++
			}
		}
	}
	fmt.Println(w.Turn(), trained > 0, w.Over())
	// Output: 2400 true false
}

func ExampleDecodeCommand() {
	b, _ := game.Command{Kind: game.CmdMove, Units: []game.UnitID{65537}, X: 10, Y: 12}.MarshalBinary()
	c, err := game.DecodeCommand(3, b) // the network says slot 3 sent it
	fmt.Println(c.Player, c.Kind, c.Units, c.X, c.Y, err)
	_, err = game.DecodeCommand(3, []byte{9, 1, 0})
	fmt.Println(err)
	// Output:
	// 3 move [65537] 10 12 <nil>
	// bad command: command encoding version 9 is newer than this build (1); update Hostfall
}
