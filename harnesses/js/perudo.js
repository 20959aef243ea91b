#!/usr/bin/env node
// A small Liar's Dice engine in JavaScript behind the perudo-rules harness protocol
// (spec/harness.schema.json, docs/conformance.rst): JSON lines on stdin and stdout.
// It implements two editions: openspiel-liars-dice (two seats, one round, the highest
// face wild) and textarena-liars-dice (no wilds, neither quantity nor face may fall,
// the seat after the caller opens). Run it through the kit:
//   perudo-rules conform --engine "node harnesses/js/perudo.js"
"use strict";
const readline = require("readline");

// The claims are data beside this file (claims.json), which tests/test_conform.py also reads:
// "any" lists the knobs these editions accept every value of (the runner seats the players,
// deals and names the opener; no re-roll is ever asked for); "common" and each edition the
// values they implement. A knob no claim names is one the protocol lets a claim leave out:
// these editions never read it (no Calza, no palifico: the knob table's read_when).
const CLAIMS = require("./claims.json");

function claim(edition) {
  const c = {};
  for (const p of CLAIMS.any) c[p] = "*";
  Object.assign(c, CLAIMS.common, CLAIMS[edition]);
  return c;
}

let g = null; // {ed, dice, toMove, bid, over}

function seatsWithDice() { return g.dice.map((c, s) => (c.length ? s : -1)).filter((s) => s >= 0); }
function nextSeat(s) {
  const n = g.dice.length;
  for (let i = 1; i <= n; i++) { const t = (s + i) % n; if (g.dice[t].length) return t; }
  return s;
}
function total() { return g.dice.reduce((a, c) => a + c.length, 0); }
function raises(q, f) { // is (q, f) a legal bid over the standing bid?
  if (q < 1 || f < 1 || f > 6) return false;
  const b = g.bid;
  if (g.ed === "openspiel") {
    if (q > total()) return false;
    return !b || q > b.q || (q === b.q && f > b.f);
  }
  return !b || (q >= b.q && f >= b.f && (q !== b.q || f !== b.f));
}
function legal(seat) {
  if (!g || g.toMove === null || seat !== g.toMove) return [];
  const out = [];
  const top = g.ed === "openspiel" ? total() : total() + 1;
  for (let q = 1; q <= top; q++) for (let f = 1; f <= 6; f++) if (raises(q, f)) out.push(`${seat}:${q}x${f}`);
  if (g.bid) out.push(`${seat}:dudo`);
  return out;
}
function act(text) {
  const m = /^(\d+):(?:(\d+)x(\d+)|(dudo|calza))$/.exec(text);
  if (!m || g.toMove === null) return {illegal: "not now"};
  const seat = +m[1];
  if (seat !== g.toMove) return {illegal: "play.turn"};
  if (m[4] === "calza") return {illegal: "calza.enabled"};
  if (m[4] !== "dudo") {
    const q = +m[2], f = +m[3];
    if (!raises(q, f)) return {illegal: "bidding.order"};
    g.bid = {q, f, p: seat};
    g.toMove = nextSeat(seat);
    return {ok: true};
  }
  if (!g.bid) return {illegal: "play.bid_needed"};
  const wild = g.ed === "openspiel" ? 6 : null;
  let count = 0;
  for (const cup of g.dice) for (const d of cup) if (d === g.bid.f || (d === wild && g.bid.f !== wild)) count++;
  const loser = count >= g.bid.q ? seat : g.bid.p;
  const before = g.dice.map((c) => c.length);
  g.dice[loser] = g.dice[loser].slice(1);
  const after = g.dice.map((c) => c.length);
  const alive = seatsWithDice();
  let winner = null, next = null;
  if (alive.length === 1) winner = alive[0];
  else if (g.ed === "openspiel") winner = alive.find((s) => s !== loser);
  else next = nextSeat(seat);
  g.toMove = null;
  g.next = next;
  g.bid = null;
  return {ok: true, outcome: {delta: after.map((a, s) => a - before[s]), next, palifico: false,
    eliminated: before.map((b, s) => (b && !after[s] ? s : -1)).filter((s) => s >= 0), winner}};
}

function handle(req) {
  switch (req.cmd) {
    case "hello":
      return {name: "perudo.js", version: "1", claims: [claim("openspiel"), claim("textarena")]};
    case "start": {
      const ed = req.edition["end.condition"] === "single_round" ? "openspiel" : "textarena";
      if (req.palifico) return {skip: "no palifico rounds here"};
      g = {ed, dice: req.dice.map((c) => c.slice()), toMove: req.first_player, bid: null};
      return {ok: true};
    }
    case "legal": return {actions: legal(req.seat)};
    case "act": return act(req.action);
    case "roll":
      g.dice = req.dice.map((c) => c.slice());
      g.toMove = g.next;
      return {ok: true};
    default: return {error: `unknown command ${req.cmd}`};
  }
}

const rl = readline.createInterface({input: process.stdin});
rl.on("line", (line) => {
  if (!line.trim()) return;
  const req = JSON.parse(line);
  if (req.cmd === "quit") { rl.close(); return; }
  process.stdout.write(JSON.stringify(handle(req)) + "\n");
});
