//! `xqa screen` in the report schema: the JSON object of a screened game (`cycles`, the game
//! header, the error object) and the driver over paths that writes them.

use super::schema::{self, versioned};
use crate::record::{Format, GameEntry, walk};
use crate::rules::screen::{GameScreen, ScreenOptions, ScreenSummary};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

/// The object `xqa screen --json` prints for one game: `{"schema":1,"header","plies","error",
/// "undetermined","cycles","limit"}`. Each cycle is the cycle `adjudicate` gives, with
/// `first_ply`-`last_ply` (the plies of its moves, as the text report numbers them), their move
/// numbers, `ruling_due`, and the moves of one loop as move objects (`moves`, and as lists
/// `moves_iccs`, `moves_chinese`).
pub fn game_json(g: &GameScreen, entry: &GameEntry, options: &ScreenOptions) -> Value {
    let start = entry.game.start;
    let moves = entry.game.main_moves();
    let all = schema::move_objects(&start, &moves[..g.plies.min(moves.len())]);
    let error =
        match super::problem(entry).filter(|e| e.kind != crate::record::error::kind::NO_MOVES) {
            Some(e) => schema::error_object(&e),
            None => match &g.error {
                Some(message) => {
                    let mut e = schema::plain_error("illegal_move", message);
                    e["file"] = entry.source.clone().into();
                    e["game"] = (entry.index + 1).into();
                    e["ply"] = (g.plies + 1).into();
                    e
                }
                None => Value::Null,
            },
        };
    let cycles: Vec<Value> = g
        .incidents
        .iter()
        .map(|i| {
            let mut c = serde_json::to_value(i).expect("cycle serialises");
            let end = i.cycle.end_ply;
            let first = end + 1 - i.moves_iccs.len().max(1);
            schema::add_cycle_span(&mut c, &i.cycle, &start);
            c["moves"] = all.get(first - 1..end).map_or(json!([]), |s| json!(s));
            c
        })
        .collect();
    versioned(json!({
        "header": schema::header(entry),
        "plies": g.plies,
        "error": error,
        "undetermined": g.undetermined,
        "cycles": cycles,
        "limit": g.limit,
        "early_draw": g.early_draw,
        "event": options.event.as_ref().map(|e| e.event.clone()),
        "time_control": options.event.as_ref().and_then(|e| e.time_control.clone()),
    }))
}

/// Games screened per parallel batch.
const BATCH: usize = 64;

/// Screens every game of the paths (files, directories, `-` for standard input), writing the
/// reported games to `out` in input order: text lines, or one JSON object per line
/// ([`game_json`]). Invalid records are reported with what could be screened of them.
pub fn screen(
    paths: &[PathBuf],
    options: &ScreenOptions,
    lang: super::text::TextLang,
    out: &mut dyn Write,
) -> io::Result<ScreenSummary> {
    let started = Instant::now();
    let walk::Expanded {
        inputs,
        errors: missing,
        skipped,
    } = walk::expand_all(paths);
    let mut summary = ScreenSummary::default();
    let mut io_err: Option<io::Error> = None;
    // The event the games are screened under, first (each JSON object names it).
    if let (Some(e), false) = (&options.event, options.json) {
        for &l in lang.langs() {
            out.write_all(e.line(l).as_bytes())?;
        }
    }
    // Directory entries that are not regular files, and files that hold no game record: said,
    // with their path (as `validate` says them), but not games.
    for w in &skipped {
        summary.skipped += 1;
        if options.json {
            super::write_skipped(out, true, w)?;
        } else {
            out.write_all(super::text::skipped_line(w, lang).as_bytes())?;
        }
    }
    let mut emit = |g: &GameScreen, entry: &GameEntry, s: &mut ScreenSummary| -> io::Result<()> {
        if super::is_not_a_record(entry) {
            s.not_records += 1;
            if options.json {
                super::write_not_a_record(out, true, &entry.source)?;
            } else {
                out.write_all(super::text::not_a_record_line(&entry.source, lang).as_bytes())?;
            }
            return Ok(());
        }
        s.games += 1;
        s.plies += g.plies;
        s.incidents += g.incidents.len();
        s.rulings_due += g.incidents.iter().filter(|i| i.ruling_due).count();
        s.undetermined_moves += g.undetermined.len();
        if g.error.is_some() {
            s.invalid += 1;
        }
        if g.unreadable {
            s.unreadable += 1;
        }
        if g.has_incident() {
            s.games_with_incidents += 1;
        }
        if g.early_draw.is_some() {
            s.early_draws += 1;
        }
        if options.json {
            if options.all || g.has_incident() || g.error.is_some() {
                serde_json::to_writer(&mut *out, &game_json(g, entry, options))?;
                out.write_all(b"\n")?;
            }
        } else {
            let problem = g.error.as_ref().and_then(|_| super::problem(entry));
            let text = super::text::screen_text(g, &entry.game.start, problem.as_ref(), lang);
            out.write_all(text.as_bytes())?;
        }
        Ok(())
    };
    for e in missing {
        let entry = GameEntry::failed(&e.source.clone(), 0, Format::Pgn, e);
        emit(&GameScreen::of(&entry, options), &entry, &mut summary)?;
    }
    let mut batch: Vec<GameEntry> = Vec::with_capacity(BATCH);
    let mut flush = |batch: &mut Vec<GameEntry>, s: &mut ScreenSummary| -> io::Result<()> {
        let done: Vec<GameScreen> = batch
            .par_iter()
            .map(|e| GameScreen::of(e, options))
            .collect();
        for (g, e) in done.iter().zip(batch.iter()) {
            emit(g, e, s)?;
        }
        batch.clear();
        Ok(())
    };
    // (Reading stops once the output fails: a closed pipe, or a Python iterator closed.)
    walk::for_each_game_while(&inputs, |entry| {
        batch.push(entry);
        if batch.len() >= BATCH
            && let Err(e) = flush(&mut batch, &mut summary)
        {
            io_err = Some(e);
        }
        io_err.is_none()
    });
    if let Some(e) = io_err {
        return Err(e);
    }
    flush(&mut batch, &mut summary)?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}
