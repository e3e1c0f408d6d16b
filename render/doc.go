// Package render is Hostfall's window: the lobby browser, the lobby, the game
// with its HUD and minimap, and the network overlays, drawn with pixel v2.
//
// The screens read and act through a Client (package client); they never run
// the session or step the world. UI logic that needs no window — camera,
// selection, control groups, orders, layout, minimap mapping — lives in
// render/ui and is tested there.
//
// # A frame: update, then draw
//
// Run samples the window's input once a frame into a ui.Input and hands it
// to App.Frame, which runs two steps, as ebitengine's Update and Draw do:
//
//   - update (App.update, then the shown screen's update): the client's
//     events, the input and the client's state go in; client calls, sound
//     cues, the screens' own state and a small view of what to show come
//     out. Nothing is drawn.
//   - draw (App.draw, then the shown screen's draw): it draws from what
//     update left and nothing else. It calls no client and acts on no
//     input; the pointer only lights up what it is over.
//
// Each screen lays itself out once a frame in update — a struct of the
// rectangles it hit-tests (lobbyLayout, browserLayout, the end screen's
// endButtons) — and its draw step draws into the same rectangles, so what
// is drawn and what takes clicks cannot drift apart. The lobby's and the
// browser's input steps are pure: the input, the view and the layout go in,
// intents come out (lobbyIntent, browserIntent: a client call to make, a
// click to sound), and apply carries them out; their tests run without a
// window. The game screen's input step is ui.Game.Update, whose ui.Result
// act carries out the same way.
//
// Run waits for input between the frames of an idle screen (App.idle:
// every screen but the game), so the browser and the lobby draw four
// frames a second when nothing happens and at once on input.
//
// The world is read in update under the client's View lock into a ui.Scene
// (and the terrain and fog textures), with positions interpolated between
// the last two turns, so the frame rate never changes the game.
//
// # Options and the first game
//
// The options (options.go) show over the browser (its Options button) or
// the game (the menu's Options entry) and take the frame's input while
// they show. Their draft of the settings takes effect at once: the card's
// keys (App.keys, copied into ui.Game.Keys), the window's mode and size
// (Run applies App.display), Options.OnSettings (the wiring sets the sound
// server's volumes). Save hands an edit to Options.SaveSettings; Back
// applies the settings of when they opened. The how-to (howto.go) shows
// over the first game when Options.HowTo says so, and on F1: modal and
// pausing the game when nobody else plays; beside a game with other
// people, translucent and taking neither the keyboard nor the map (the
// first such game shows a hint to press F1 instead). The command card's
// tool-tips are drawn there too.
//
// # Saved games and replays
//
// The browser's Load game and Replays (files.go) list what
// Options.Library reads from the data dir, over the browser and taking its
// input as the options do. A save resumes through client.GameLoader; a
// replay plays on a client of its own (Library.OpenReplay): App.cl is
// that client while it plays, App.home the browser's, and closing the
// viewer gives the window back to the browser's client (with no home,
// `hostfall replay FILE`, it ends the program).
//
// # Sounds
//
// The screens emit ui.Cue values — a sound's name, its origin, whether it is
// a selection voice, where on the map — to Options.Sound, an interface this
// package declares in plain values. render never imports package sound: the
// wiring passes a sound.Cuer, which turns a cue into a sound.Request.
//
// # Drawing
//
// pixel needs the main OS thread: call Run inside opengl.Run (Open does).
// Drawing batches everything of one kind into one draw call (a layer): the
// terrain is a cached texture, units one quad each from a sprite atlas
// drawn at start-up, off-screen units culled. Layers are drawn in order
// (App.flush): the map, the HUD, the screen's text, then what floats over
// it (banners, the network panel) with its own text, then modal panels
// with theirs, so nothing of a layer below shows through one above.
package render
