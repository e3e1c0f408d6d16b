// Package ui is the game screen's logic with no window: the camera and its
// limits, the layout of the screen, the minimap's mapping, selection (click,
// box, shift, double-click), control groups, orders from the mouse and the
// keyboard, the command card, and the sounds and notices the world's events
// call for. Its tests drive it with scripted Input values against real
// worlds; package render samples the window's input once a frame into an
// Input, calls Game.Update, and draws from the Game's fields and the Scene.
//
// Coordinates: screen vectors are pixels from the window's top-left corner
// (y down); world vectors are tiles from the map's top-left corner.
package ui
