#!/usr/bin/env bash
# The menu, settings, load, hand-over and result screenshots of the README,
# each from a prepared data directory. Run from the repository root after
# `cargo build --release`; writes docs/screenshots/*.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
bob="${CARGO_TARGET_DIR:-target}/release/bob"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
data="$(mktemp -d)"
shot() { xvfb-run -a -s "-screen 0 1600x900x24" "$bob" screenshot training "$@"; }

# An unfinished game: the first moves of a script, journaled.
mkdir -p "$data/journals" "$data/saves"
"$bob" script tests/scripts/first_moves.ron --journal "$data/journals/training.ron" >/dev/null
BOB_DATA_DIR="$data" shot docs/screenshots/menu-resume.png --screen menu

# Two saves with their summaries, and one whose last line was cut.
summary='summary:Some((title:"Training: The Hedges of Saint-Martin",turn:1,phase:"Operations Phase",side_to_act:"Axis",orders:8,saved:"2026-11-26 04:30:00 UTC"))'
sed "1s/summary:None/$summary/" "$data/journals/training.ron" > "$data/saves/first-moves.ron"
"$bob" script tests/scripts/first_fire.ron --journal "$data/saves/first-fire.ron" >/dev/null
head -c 300 "$data/journals/training.ron" > "$data/saves/cut.ron"
BOB_DATA_DIR="$data" shot docs/screenshots/load.png --screen load

# A damaged settings file: reported, kept, defaults in force.
printf '(\n    hand_over: true,\n    dice_seconds: "fast",\n)\n' > "$data/settings.ron"
BOB_DATA_DIR="$data" shot docs/screenshots/settings.png --screen settings
rm "$data/settings.ron"

shot docs/screenshots/hand-over.png --screen hand-over
shot docs/screenshots/result.png --screen result
rm -rf "$data"
