package render

import "slices"

// The looping tracks of each screen (package sound's names): calm music
// on the browser and in the lobby, the game track over wind and birds in
// play, the replay and the end screen.
var (
	menuMusic = []string{"music.menu"}
	gameMusic = []string{"music.game", "ambience.wind"}
)

// playMusic asks for the screen's tracks when the screen changes; the
// sound server crossfades and loops them, so nothing is asked per frame.
func (a *App) playMusic() {
	if a.opt.Sound == nil {
		return
	}
	want := menuMusic
	if a.screen == scrGame {
		want = gameMusic
	}
	if slices.Equal(want, a.music) {
		return
	}
	a.music = want
	a.opt.Sound.Music(want...)
}
