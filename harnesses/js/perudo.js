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

// Planted bugs, for testing that the kit names the rule an engine breaks (tests/planted.py):
// PERUDO_PLANT=NAME breaks one rule; unset, the engine plays both editions as claimed.
//   quantity-cap     openspiel lists and takes bids above the dice in play (bidding.quantity_cap)
//   order            openspiel: the face may not fall, even at a higher quantity (bidding.order)
//   textarena-order  textarena: a higher quantity may name a lower face (bidding.order)
//   wild             openspiel counts no wild dice (wild.face)
//   who              any seat with dice may call dudo, the bidder too (challenge.who)
//   starter          textarena: the loser opens the next round, not the seat after the caller
//                    (round.starter)
//   single-round     openspiel: the game goes on after the first round, the loser opening
//                    the next (end.condition)
//   zero-bid         the opening bid may name zero dice: 0xF is listed and taken (play.bid_range)
//   after-end        once the game is over, the winner is offered 1xF and may bid (play.game_over)
//   exact            a dudo against an exact bid makes the bidder lose (challenge.exact)
//   dudo-first       dudo is listed before any bid (and refused when sent) (play.bid_needed)
const PLANTS = ["quantity-cap", "order", "textarena-order", "wild", "who", "starter",
  "single-round", "zero-bid", "after-end", "exact", "dudo-first"];
const PLANT = process.env.PERUDO_PLANT || "";
if (PLANT && !PLANTS.includes(PLANT)) {
  process.stderr.write(`perudo.js: PERUDO_PLANT=${PLANT} is none of ${PLANTS.join(", ")}\n`);
  process.exit(2);
}

function claim(edition) {
  const c = {};
  for (const p of CLAIMS.any) c[p] = "*";
  Object.assign(c, CLAIMS.common, CLAIMS[edition]);
  return c;
}

let g = null; // {ed, dice, toMove, bid, next, winner}

function seatsWithDice() { return g.dice.map((c, s) => (c.length ? s : -1)).filter((s) => s >= 0); }
function nextSeat(s) {
  const n = g.dice.length;
  for (let i = 1; i <= n; i++) { const t = (s + i) % n; if (g.dice[t].length) return t; }
  return s;
}
function total() { return g.dice.reduce((a, c) => a + c.length, 0); }
// bidding.order: quantity_then_face (openspiel) and neither_decreases (textarena)
function quantityThenFace(q, f, b) { return q > b.q || (q === b.q && f > b.f); }
function neitherDecreases(q, f, b) { return q >= b.q && f >= b.f && (q !== b.q || f !== b.f); }
function raises(q, f) { // is (q, f) a legal bid over the standing bid?
  if (q < (PLANT === "zero-bid" ? 0 : 1) || f < 1 || f > 6) return false;
  const b = g.bid;
  if (g.ed === "openspiel") {
    if (q > total() && PLANT !== "quantity-cap") return false;
    return !b || (PLANT === "order" ? neitherDecreases : quantityThenFace)(q, f, b);
  }
  return !b || (PLANT === "textarena-order" ? quantityThenFace : neitherDecreases)(q, f, b);
}
function mayCallOutOfTurn(seat) { // the plant "who": any seat with dice, against a bid
  return PLANT === "who" && g.toMove !== null && g.bid !== null && (g.dice[seat] || []).length > 0;
}
function legal(seat) {
  if (PLANT === "after-end" && g && g.winner === seat) return [1, 2, 3, 4, 5, 6].map((f) => `${seat}:1x${f}`);
  if (g && seat !== g.toMove && mayCallOutOfTurn(seat)) return [`${seat}:dudo`];
  if (!g || g.toMove === null || seat !== g.toMove) return [];
  const out = [];
  const top = g.ed === "openspiel" && PLANT !== "quantity-cap" ? total() : total() + 1;
  for (let q = PLANT === "zero-bid" ? 0 : 1; q <= top; q++) for (let f = 1; f <= 6; f++) if (raises(q, f)) out.push(`${seat}:${q}x${f}`);
  if (g.bid || PLANT === "dudo-first") out.push(`${seat}:dudo`);
  return out;
}
function act(text) {
  const m = /^(\d+):(?:(\d+)x(\d+)|(dudo|calza))$/.exec(text);
  if (m && m[2] && PLANT === "after-end" && g.winner === +m[1]) return {ok: true};
  if (!m || g.toMove === null) return {illegal: "not now"};
  const seat = +m[1];
  if (seat !== g.toMove && !(m[4] === "dudo" && mayCallOutOfTurn(seat))) return {illegal: "play.turn"};
  if (m[4] === "calza") return {illegal: "calza.enabled"};
  if (m[4] !== "dudo") {
    const q = +m[2], f = +m[3];
    if (!raises(q, f)) return {illegal: "bidding.order"};
    g.bid = {q, f, p: seat};
    g.toMove = nextSeat(seat);
    return {ok: true};
  }
  if (!g.bid) return {illegal: "play.bid_needed"};
  const wild = g.ed === "openspiel" && PLANT !== "wild" ? 6 : null;
  let count = 0;
  for (const cup of g.dice) for (const d of cup) if (d === g.bid.f || (d === wild && g.bid.f !== wild)) count++;
  const stands = PLANT === "exact" ? count > g.bid.q : count >= g.bid.q; // play.dudo
  const loser = stands ? seat : g.bid.p;
  const before = g.dice.map((c) => c.length);
  g.dice[loser] = g.dice[loser].slice(1);
  const after = g.dice.map((c) => c.length);
  const alive = seatsWithDice();
  let winner = null, next = null;
  if (alive.length === 1) winner = alive[0];
  else if (g.ed === "openspiel" && PLANT !== "single-round") winner = alive.find((s) => s !== loser);
  else if (g.ed === "openspiel" || PLANT === "starter") next = g.dice[loser].length ? loser : nextSeat(loser);
  else next = nextSeat(seat);
  g.toMove = null;
  g.next = next;
  g.winner = winner;
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
