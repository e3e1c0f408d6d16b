#!/usr/bin/env bash
# Rebuilds every sound under assets/sounds/ from nothing: voices with espeak-ng,
# effects synthesized with sox. The output is the same on every run (sox -R
# seeds its noise generators, -D turns dithering off), so `git diff` after a run
# shows only what a change to this script changed.
#
# Files: mono, 22,050 Hz, 16-bit, silence trimmed, peak at -1 dBFS. A file named
# NAME.N.wav is sample N of the group NAME; a unit's NAME.selected and
# NAME.annoyed groups make its NAME.select two-groups sound (see sound/doc.go).
#
# The music and ambience are not made here: sound/compose writes them from a
# seed when the game starts (40 + 60 + 20 s would add ~5 MB of WAV to the
# binary for what a few hundred lines of Go compose in ~0.1 s a track);
# `hostfall sounds --wav FILE music.menu` renders one to listen to.
#
# espeak-ng and sox are needed only here, not to build or test the game; they
# are installed with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")"

out=sounds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

install_tools() {
  local missing=()
  command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
  command -v sox >/dev/null 2>&1 || missing+=(sox)
  [ "${#missing[@]}" -eq 0 ] && return 0
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "gen-sounds: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

n=0
# finish IN NAME [EFFECT…]: applies the effects, converts to the stored format,
# trims silence at both ends and normalizes.
finish() {
  local in=$1 name=$2
  shift 2
  sox -R -D "$in" -r 22050 -c 1 -b 16 -e signed-integer "$out/$name.wav" \
    remix - "$@" \
    silence 1 0.005 1% reverse silence 1 0.005 1% reverse \
    gain -n -1
  n=$((n + 1))
}

# say NAME VOICE PITCH SPEED TEXT [EFFECT…]
say() {
  local name=$1 voice=$2 pitch=$3 speed=$4 text=$5
  shift 5
  espeak-ng -v "$voice" -p "$pitch" -s "$speed" -w "$tmp/say.wav" "$text"
  # Pauses inside a line are cut to 0.1 s: the game needs short lines.
  finish "$tmp/say.wav" "$name" silence -l 1 0.005 0.4% -1 0.1 0.4% "$@"
}

# synth FILE SECONDS SOX-SYNTH-ARGS…: a synthesized piece in $tmp, one generator
# per channel, mixed down to mono.
synth() {
  local file=$1 len=$2
  shift 2
  sox -R -D -n -r 22050 -c "$(channels "$@")" "$tmp/raw.wav" synth "$len" "$@"
  sox -R -D "$tmp/raw.wav" -c 1 "$tmp/$file.wav" remix -
}

# channels counts the generator types in synth arguments: one channel each.
channels() {
  local c=0 a
  for a in "$@"; do
    case $a in sine | square | triangle | sawtooth | trapezium | exp | whitenoise | pinknoise | brownnoise | pluck | tpdfnoise) c=$((c + 1)) ;; esac
  done
  echo "$c"
}

# Voices: one speaker per kind of unit, an announcer for buildings and the UI.
worker=(en-gb-x-gbclan+m3 38 185)
soldier=(en-gb-scotland+m7 28 180)
archer=(en-us+f3 62 190)
herald=(en-gb-x-rp+m1 45 180)

unit_voice() { # unit kind: the voice lines of one unit kind
  local unit=$1
  local -n v=$unit
  local -n sel=${unit}_selected ann=${unit}_annoyed ack=${unit}_ack
  local i
  for i in "${!sel[@]}"; do say "$unit.selected.$((i + 1))" "${v[@]}" "${sel[$i]}"; done
  for i in "${!ann[@]}"; do say "$unit.annoyed.$((i + 1))" "${v[@]}" "${ann[$i]}"; done
  for i in "${!ack[@]}"; do say "$unit.ack.$((i + 1))" "${v[@]}" "${ack[$i]}"; done
}

worker_selected=("Yes, my lord?" "What is it?" "Hmm?")
worker_annoyed=("I'm working!" "Stop poking me." "Got a war to run?")
worker_ack=("Right away." "Okay." "As you wish.")
soldier_selected=("Sir?" "Orders?" "Ready.")
soldier_annoyed=("I'm no toy." "Bored now." "Poke me again.")
soldier_ack=("For the realm!" "Moving out." "Aye.")
archer_selected=("Yes?" "My bow is yours." "Eyes open.")
archer_annoyed=("Apple on your head?" "You block my aim." "Fingers slip.")
archer_ack=("On my way." "In sight." "Done.")

units() {
  unit_voice worker
  unit_voice soldier
  unit_voice archer
  say worker.ready "${worker[@]}" "Ready to work!"
  say soldier.ready "${soldier[@]}" "Ready for battle!"
  say archer.ready "${archer[@]}" "Bow at the ready!"

  # Deaths: short cries, pitched down and given some room.
  say worker.death.1 "${worker[@]}" "Aargh!" pitch -200 gain -4 reverb 30
  say worker.death.2 "${worker[@]}" "Ooh!" pitch -300 gain -4 reverb 30
  say soldier.death.1 "${soldier[@]}" "Urgh!" pitch -300 gain -4 reverb 30
  say soldier.death.2 "${soldier[@]}" "Aaah!" pitch -400 gain -4 reverb 30
  say archer.death.1 "${archer[@]}" "Aah!" pitch -100 gain -4 reverb 30
  say archer.death.2 "${archer[@]}" "Oh no!" pitch -200 gain -4 reverb 30
}

weapons() {
  local i f
  # Worker: a pick striking rock, a thud and a short ring.
  for i in 1 2; do
    f=$((700 + 250 * i))
    synth thud 0.06 brownnoise
    synth ring 0.3 sine "$f" sine $((f * 27 / 10))
    sox -R -D -m -v 0.5 "$tmp/thud.wav" -v 0.5 "$tmp/ring.wav" "$tmp/pick.wav" fade 0 -0 0.28
    finish "$tmp/pick.wav" "worker.attack.$i" lowpass 4000
  done
  # Soldier: swords clashing, a noise burst and inharmonic metal ringing.
  for i in 1 2 3; do
    f=$((2600 + 300 * i))
    synth hit 0.05 whitenoise
    synth ring 0.6 sine "$f" sine $((f * 146 / 100)) sine $((f * 188 / 100))
    sox -R -D -m -v 0.4 "$tmp/hit.wav" -v 0.6 "$tmp/ring.wav" "$tmp/clash.wav" fade 0 -0 0.55
    finish "$tmp/clash.wav" "soldier.attack.$i" highpass 800
  done
  # Archer: a bow string's twang, then the arrow's whoosh.
  for i in 1 2; do
    synth twang 0.25 pluck $((100 + 20 * i))
    synth whoosh 0.35 pinknoise
    sox -R -D "$tmp/whoosh.wav" "$tmp/whoosh2.wav" bandpass $((1200 + 300 * i)) 1.5q fade q 0.15 -0 0.2
    sox -R -D "$tmp/twang.wav" "$tmp/whoosh2.wav" "$tmp/bow.wav"
    finish "$tmp/bow.wav" "archer.attack.$i"
  done
}

buildings() {
  # Base: a low horn chord.
  synth horn 0.9 sawtooth 110 sawtooth 138.6 sawtooth 164.8
  finish "$tmp/horn.wav" base.select lowpass 1200 fade 0.05 -0 0.3
  # Barracks: two war-drum hits.
  synth drum 0.25 sine 70 brownnoise
  sox -R -D "$tmp/drum.wav" "$tmp/drum1.wav" lowpass 400 fade 0 -0 0.22
  sox -R -D "$tmp/drum1.wav" "$tmp/drum1.wav" "$tmp/drums.wav"
  finish "$tmp/drums.wav" barracks.select
  # Construction: three hammer knocks.
  synth knock 0.05 brownnoise sine 420
  sox -R -D "$tmp/knock.wav" "$tmp/knock1.wav" lowpass 2500 fade 0 -0 0.04 pad 0 0.13
  sox -R -D "$tmp/knock1.wav" "$tmp/knock1.wav" "$tmp/knock1.wav" "$tmp/hammer.wav"
  finish "$tmp/hammer.wav" building.construct
  # Done: a chime, then the herald.
  chime done 880 1320
  espeak-ng -v "${herald[0]}" -p "${herald[1]}" -s "${herald[2]}" -w "$tmp/say.wav" "Work complete."
  sox -R -D "$tmp/done.wav" "$tmp/say.wav" "$tmp/done2.wav"
  finish "$tmp/done2.wav" building.done
  say building.under_attack "${herald[@]}" "We are under attack!"
  # Destroyed: a long falling rumble.
  synth rumble 1.2 brownnoise
  finish "$tmp/rumble.wav" building.destroyed lowpass 300 fade 0 -0 1.0
}

# chime FILE F1 F2: two bell-like notes into $tmp/FILE.wav, resampled for the herald to follow.
chime() {
  synth c1 0.12 sine "$2" sine $(($2 * 2))
  synth c2 0.25 sine "$3" sine $(($3 * 2))
  sox -R -D "$tmp/c1.wav" "$tmp/c1m.wav" fade 0 -0 0.1
  sox -R -D "$tmp/c2.wav" "$tmp/c2m.wav" fade 0 -0 0.22
  sox -R -D "$tmp/c1m.wav" "$tmp/c2m.wav" -r 22050 "$tmp/$1.wav" gain -6
}

ui() {
  synth click 0.04 sine 1800 pinknoise
  finish "$tmp/click.wav" ui.click fade 0 -0 0.035
  synth chat 0.12 sine 1200
  finish "$tmp/chat.wav" ui.chat fade 0.01 -0 0.08
  synth buzz 0.12 square 140
  sox -R -D "$tmp/buzz.wav" -p pad 0 0.05 | sox -R -D - "$tmp/buzz.wav" "$tmp/err.wav"
  finish "$tmp/err.wav" ui.error lowpass 1500 gain -6
  say ui.not_enough_resources "${herald[@]}" "Not enough resources."
  say ui.player_left "${herald[@]}" "A player left."
  chime host 660 990
  espeak-ng -v "${herald[0]}" -p "${herald[1]}" -s "${herald[2]}" -w "$tmp/say.wav" "The host has changed."
  sox -R -D "$tmp/host.wav" "$tmp/say.wav" "$tmp/host2.wav"
  finish "$tmp/host2.wav" ui.host_changed
  # Victory: a rising fanfare, then the herald. Defeat: a falling one.
  fanfare up 262 330 392 523
  espeak-ng -v "${herald[0]}" -p "${herald[1]}" -s "${herald[2]}" -w "$tmp/say.wav" "Victory!"
  sox -R -D "$tmp/up.wav" "$tmp/say.wav" "$tmp/victory.wav"
  finish "$tmp/victory.wav" ui.victory
  fanfare down 392 330 262 196
  espeak-ng -v "${herald[0]}" -p "${herald[1]}" -s "${herald[2]}" -w "$tmp/say.wav" "You have been defeated."
  sox -R -D "$tmp/down.wav" "$tmp/say.wav" "$tmp/defeat.wav"
  finish "$tmp/defeat.wav" ui.defeat
}

# fanfare FILE F1 F2 F3 F4: four brassy notes into $tmp/FILE.wav.
fanfare() {
  local file=$1 parts=() f i=0
  shift
  for f in "$@"; do
    i=$((i + 1))
    synth "note$i" 0.12 sawtooth "$f" square "$f"
    sox -R -D "$tmp/note$i.wav" "$tmp/note${i}m.wav" lowpass 2000 fade 0.01 -0 0.03
    parts+=("$tmp/note${i}m.wav")
  done
  sox -R -D "${parts[@]}" "$tmp/$file.wav" gain -6
}

install_tools
rm -f "$out"/*.wav
mkdir -p "$out"
units
weapons
buildings
ui
echo "gen-sounds: $n sounds, $(du -ck "$out"/*.wav | tail -n1 | cut -f1) KiB in $out/"
