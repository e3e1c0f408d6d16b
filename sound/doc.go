// Package sound is Hostfall's sound server: seed 001's design on beep v2.
//
// # Using it
//
//	bank, names, err := sound.Embedded()           // the game's sounds, see below
//	srv, err := sound.New(bank, sound.Options{Sink: sound.Speaker()})
//	defer srv.Close()
//	srv.SetViewPoint(camX, camY)                    // every frame
//	srv.PlayAt(sound.Request{Sound: names.ForName("soldier.select"),
//		Origin: sound.Origin(unitID), Selection: true}, unitX, unitY)
//	srv.Play(sound.Request{Sound: names.ForName("ui.click"), Power: 1, IsVolume: true})
//	srv.SetVolume(0.5)
//	srv.SetCategoryVolume(sound.Voices, 0.8)
//	srv.SetMusic(names.ForName("music.menu"))        // loops; crossfades on change
//
// A window names its cues in plain values; NewCuer(srv, names) turns each
// into the request above (Cue(name, origin, selection, at, x, y): PlayAt when
// placed, Play at full volume otherwise), so neither package imports the
// other.
//
// Play never blocks: requests go into a bounded FIFO that the mixing side
// drains at the start of each chunk it mixes. When the FIFO is full, the oldest
// request is dropped. The rest of the design:
//
//   - Sounds: a simple sound has one sample; a group plays one of its samples at
//     random; a two-groups sound is a unit's selection voice. Selecting the same
//     origin again and again plays three random lines of the first group, then the
//     second ("annoyed") group in order, then starts over; any other selection
//     request resets the sequence. The random source is seeded (Options.Seed).
//   - Volume: Request.Power is a volume when IsVolume is set, otherwise the
//     distance to the view point (PlayAt computes it); volume falls linearly from
//     1 at the view point to 0 at the sound's range, which the global maximum
//     range caps. The global volume scales the mix and can change while sounds
//     play.
//   - Noise reduction: a request whose origin (a unit) is still playing something
//     is dropped; requests without an origin are kept.
//   - Channels: at most Options.MaxChannels sounds are mixed at once. The next
//     request is dropped, unless it is a selection: the player just clicked and
//     waits for an answer, so it takes over the channel nearest its end.
//   - Sinks: Speaker() (falls back to Silent with one logged warning when there
//     is no sound card), WAVFile(path), Silent() — both paced in real time by one
//     goroutine of the server — and Pull(), where the caller mixes by calling
//     Stream (seed 001's WriteSound). Close stops that goroutine before it
//     returns. On the speaker, the mixing runs on the speaker's goroutine, and a
//     request waits at most one speaker read plus its 50 ms buffer to be heard;
//     on the silent and WAV sinks, at most one 10 ms period (Options.Period).
//
// Demo is `hostfall sounds`: it lists the sound names, or plays named sounds
// in turn as selections through the speaker, or renders them to a WAV file.
//
// # Sound names
//
// Registered by RegisterAssets from assets/sounds (made by assets/gen-sounds.sh).
// UNIT is each of worker, soldier and archer:
//
//	UNIT.select             two-groups selection voice (UNIT.selected, then UNIT.annoyed)
//	UNIT.selected           group of ≥ 3 selection lines ("Yes, my lord?")
//	UNIT.annoyed            group of ≥ 3 annoyed lines, said in order
//	UNIT.ack                group: acknowledges an order ("Right away.")
//	UNIT.ready              trained ("Ready to work!")
//	UNIT.attack             group: pick, sword clash, bow and arrow
//	UNIT.death              group: death cries
//	base.select             base selected (horn)
//	barracks.select         barracks selected (drums)
//	building.construct      hammering, while a worker builds
//	building.done           "Work complete."
//	building.under_attack   "We are under attack!"
//	building.destroyed      rumble of a falling building
//	ui.click                button click
//	ui.chat                 a chat line arrived
//	ui.error                refused action
//	ui.not_enough_resources "Not enough resources."
//	ui.player_left          "A player left."
//	ui.host_changed         chime and "The host has changed."
//	ui.victory              fanfare and "Victory!"
//	ui.defeat               falling fanfare and "You have been defeated."
//	music.menu              looping calm track (browser, lobby), 40 s
//	music.game              looping in-game track, 60 s
//	ambience.wind           looping wind and birds under music.game, 20 s
//
// The three looping tracks are not files: package compose writes them from
// a seed when Embedded runs (about 0.25 s of a core at 44.1 kHz, spread over
// the cores; 21 MB of memory as float32, nothing added to the binary).
// SetMusic plays them: it crossfades from the tracks playing to the ones
// named over MusicFade, loops them seamlessly and mixes them at the music
// category's volume.
//
// Origins: use the unit's id for its voice. Give its weapon sounds no origin (or
// another one) if they should not wait for its voice to end.
package sound
