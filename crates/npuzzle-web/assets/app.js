'use strict';
// The npuzzle page: a board you can play by click, tap or arrow keys, scramble, load, solve
// (through the server's API) and watch solved step by step.

const $ = (id) => document.getElementById(id);
const boardEl = $('board');

const S = {
  w: 3, h: 3,
  cells: [],        // row-major tiles, 0 = gap
  moves: 0,         // moves made on the board
  tiles: [],        // tile elements by label
  sol: null,        // { letters, i } while a solution is loaded
  timer: null,
  busy: false,
  version: 0,       // bumped on every change of the board: a late answer for an old one is dropped
};

const OFFSET = { u: [-1, 0], d: [1, 0], l: [0, -1], r: [0, 1] };
const INVERSE = { u: 'd', d: 'u', l: 'r', r: 'l' };

function goalCells(w, h) {
  const c = [];
  for (let i = 1; i < w * h; i++) c.push(i);
  c.push(0);
  return c;
}

function judgeLine(cells) {
  return cells.map((t) => (t === 0 ? 'x' : String(t))).join(' ');
}

function isGoal() {
  return S.cells.every((t, i) => t === (i === S.cells.length - 1 ? 0 : i + 1));
}

// Classic parity test against the standard goal (blank last).
function solvable(cells, w, h) {
  const tiles = cells.filter((t) => t !== 0);
  let inv = 0;
  for (let i = 0; i < tiles.length; i++)
    for (let j = i + 1; j < tiles.length; j++) if (tiles[i] > tiles[j]) inv++;
  if (w % 2 === 1) return inv % 2 === 0;
  const rowFromBottom = h - Math.floor(cells.indexOf(0) / w);
  return (inv + rowFromBottom) % 2 === 1;
}

function buildTiles() {
  boardEl.innerHTML = '';
  S.tiles = [];
  boardEl.style.aspectRatio = `${S.w} / ${S.h}`;
  for (let t = 1; t < S.w * S.h; t++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'tile';
    b.textContent = String(t);
    b.dataset.tile = String(t);
    b.tabIndex = -1;
    b.setAttribute('aria-label', `Tile ${t}`);
    b.style.width = `${100 / S.w}%`;
    b.style.height = `${100 / S.h}%`;
    b.addEventListener('click', () => clickTile(t));
    boardEl.appendChild(b);
    S.tiles[t] = b;
  }
  sizeFont();
}

function sizeFont() {
  const cell = boardEl.clientWidth / S.w;
  for (const b of S.tiles) if (b) b.style.fontSize = `${Math.max(10, cell * 0.4)}px`;
}

function render() {
  S.cells.forEach((t, p) => {
    if (t === 0) return;
    const b = S.tiles[t];
    const r = Math.floor(p / S.w);
    const c = p % S.w;
    b.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
    b.classList.toggle('home', t === p + 1);
    b.setAttribute('aria-label', `Tile ${t}, row ${r + 1}, column ${c + 1}`);
  });
  const solved = isGoal();
  boardEl.dataset.state = judgeLine(S.cells);
  boardEl.dataset.solved = String(solved);
  $('move-count').textContent = String(S.moves);
  $('solved-badge').hidden = !(solved && S.moves > 0);
  const playing = S.timer !== null;
  $('play').textContent = playing ? 'Pause' : 'Play';
  $('back').disabled = !S.sol || S.sol.i === 0;
  $('forward').disabled = !S.sol || S.sol.i >= S.sol.letters.length;
  $('play').disabled = !S.sol;
}

// Moves the gap one step ('u', 'd', 'l', 'r'); returns false when that leaves the board.
function step(letter) {
  const b = S.cells.indexOf(0);
  const r = Math.floor(b / S.w) + OFFSET[letter][0];
  const c = (b % S.w) + OFFSET[letter][1];
  if (r < 0 || r >= S.h || c < 0 || c >= S.w) return false;
  const q = r * S.w + c;
  S.cells[b] = S.cells[q];
  S.cells[q] = 0;
  S.version++;
  return true;
}

// A move made by the player: counts, and drops any loaded solution.
function playerMove(letter) {
  if (!step(letter)) return false;
  S.moves++;
  dropSolution();
  render();
  if (isGoal()) status(`Solved in ${S.moves} moves.`);
  return true;
}

function clickTile(t) {
  const p = S.cells.indexOf(t);
  const b = S.cells.indexOf(0);
  const [pr, pc, br, bc] = [Math.floor(p / S.w), p % S.w, Math.floor(b / S.w), b % S.w];
  // A tile in the gap's row or column slides (with any tiles between) toward the gap.
  let letter = null;
  let count = 0;
  if (pr === br) { letter = pc > bc ? 'r' : 'l'; count = Math.abs(pc - bc); }
  if (pc === bc) { letter = pr > br ? 'd' : 'u'; count = Math.abs(pr - br); }
  if (!letter) return;
  for (let i = 0; i < count; i++) playerMove(letter);
}

function status(text) { $('status').textContent = text; }
function showError(text) { $('error').textContent = text; }

function dropSolution() {
  stop();
  S.sol = null;
}

function stop() {
  if (S.timer !== null) clearInterval(S.timer);
  S.timer = null;
}

function interval() { return 1000 / Number($('speed').value); }

function forward() {
  if (!S.sol || S.sol.i >= S.sol.letters.length) { stop(); render(); return; }
  step(S.sol.letters[S.sol.i]);
  S.sol.i++;
  S.moves++;
  if (S.sol.i >= S.sol.letters.length) {
    stop();
    status(`Solved: ${S.sol.letters.length} moves${S.sol.optimal ? ' (optimal)' : ''}.`);
  }
  render();
}

function back() {
  if (!S.sol || S.sol.i === 0) return;
  stop();
  S.sol.i--;
  step(INVERSE[S.sol.letters[S.sol.i]]);
  S.moves = Math.max(0, S.moves - 1);
  render();
}

function play() {
  if (!S.sol) return;
  if (S.timer !== null) { stop(); render(); return; }
  if (S.sol.i >= S.sol.letters.length) return;
  boardEl.style.setProperty('--slide', `${Math.min(150, interval() * 0.8)}ms`);
  S.timer = setInterval(forward, interval());
  render();
}

function load(cells, w, h) {
  dropSolution();
  if (w !== S.w || h !== S.h || S.tiles.length !== w * h) {
    S.w = w; S.h = h;
    $('size').value = `${w}x${h}`;
    buildTiles();
  }
  S.cells = cells.slice();
  S.version++;
  S.moves = 0;
  $('details').hidden = true;
  // A new board appears at once; only moves slide.
  boardEl.classList.add('instant');
  render();
  requestAnimationFrame(() => requestAnimationFrame(() => boardEl.classList.remove('instant')));
}

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({ message: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.message || `HTTP ${res.status}`);
  return data;
}

async function scramble() {
  showError('');
  try {
    const data = await api(`/api/scramble?width=${S.w}&height=${S.h}`);
    load(data.board.split(' ').map((t) => (t === 'x' ? 0 : Number(t))), data.width, data.height);
    status('Scrambled. Slide the tiles, or press Solve.');
  } catch (e) {
    status(`Could not scramble: ${e.message}`);
  }
}

function describeStats(d) {
  const name = d.algorithm + (d.heuristic ? ` + ${d.heuristic}` : '') + (d.databases ? ` (${d.databases})` : '');
  const ms = d.stats.elapsed / 1000;
  return `${name}: ${d.stats.expanded.toLocaleString()} states expanded in ${ms < 1 ? ms.toFixed(3) : ms.toFixed(1)} ms`;
}

async function askSolver() {
  return api('/api/solve', { board: judgeLine(S.cells), width: S.w, height: S.h });
}

async function solve() {
  if (S.busy) return;
  showError('');
  if (isGoal()) { status('Already solved.'); return; }
  S.busy = true;
  $('solve').disabled = true;
  status('Solving…');
  try {
    const asked = S.version;
    const d = await askSolver();
    if (S.version !== asked) {
      status('The board changed while the solver worked: press Solve again.');
      return;
    }
    S.sol = { letters: d.moves, i: 0, optimal: d.optimal };
    $('details').hidden = false;
    $('solution-length').textContent = String(d.length);
    $('optimal').textContent = d.optimal ? '(optimal)' : '(not optimal: constructive solver)';
    $('moves').textContent = d.moves;
    $('tiles').textContent = d.tiles_notation;
    $('stats').textContent = describeStats(d);
    status(`Playing ${d.length} moves…`);
    play();
  } catch (e) {
    status(`No solution: ${e.message}`);
  } finally {
    S.busy = false;
    $('solve').disabled = false;
    render();
  }
}

async function hint() {
  if (S.busy || isGoal()) return;
  S.busy = true;
  try {
    const asked = S.version;
    const d = await askSolver();
    if (S.version !== asked) {
      status('The board changed while the solver worked: ask for a hint again.');
      return;
    }
    const letter = d.moves[0];
    const b = S.cells.indexOf(0);
    const tile = S.cells[b + OFFSET[letter][0] * S.w + OFFSET[letter][1]];
    const dir = { u: 'down', d: 'up', l: 'right', r: 'left' }[letter];
    playerMove(letter);
    status(`Hint: tile ${tile} slid ${dir}. ${d.length - 1} moves to go${d.optimal ? '' : ' (by the constructive solver)'}.`);
  } catch (e) {
    status(`No hint: ${e.message}`);
  } finally {
    S.busy = false;
  }
}

// Reads a typed board: returns { cells, w, h } or throws an Error with a clear message.
function parseBoard(text) {
  const tokens = text.trim().split(/\s+/).filter((t) => t.length > 0);
  if (tokens.length === 0) throw new Error('Type the tiles row by row, e.g. 2 3 4 1 5 x 7 6 8.');
  let w = S.w;
  let h = S.h;
  const side = Math.round(Math.sqrt(tokens.length));
  if (tokens.length !== w * h) {
    if (side * side !== tokens.length || side < 2) {
      throw new Error(`${tokens.length} tiles do not make a board: a ${S.w}×${S.h} board has ${S.w * S.h}.`);
    }
    if (side > 10) throw new Error('Boards up to 10×10 are played here.');
    w = side; h = side;
  }
  const n = w * h;
  const seen = new Map();
  const cells = tokens.map((t, i) => {
    let v;
    if (t === 'x' || t === 'X' || t === '0') v = 0;
    else if (/^\d+$/.test(t)) v = Number(t);
    else throw new Error(`"${t}" (tile ${i + 1}) is not a number or x.`);
    if (v >= n) throw new Error(`Tile ${v} is out of range: a ${w}×${h} board has tiles 1 to ${n - 1}.`);
    if (seen.has(v)) throw new Error(v === 0 ? 'There are two gaps (x).' : `Tile ${v} appears twice.`);
    seen.set(v, i);
    return v;
  });
  if (!seen.has(0)) throw new Error('There is no gap: mark it with x or 0.');
  if (!solvable(cells, w, h)) {
    throw new Error('This board cannot be solved: two tiles are swapped relative to any reachable position.');
  }
  return { cells, w, h };
}

function loadTyped(event) {
  event.preventDefault();
  try {
    const { cells, w, h } = parseBoard($('board-input').value);
    load(cells, w, h);
    showError('');
    status('Board loaded. Press Solve to see the optimal solution.');
  } catch (e) {
    showError(e.message);
  }
}

function reset() {
  load(goalCells(S.w, S.h), S.w, S.h);
  showError('');
  status('Reset to the goal. Scramble to play.');
}

function changeSize() {
  const [w, h] = $('size').value.split('x').map(Number);
  S.w = w; S.h = h;
  buildTiles();
  reset();
}

document.addEventListener('keydown', (e) => {
  const tag = (e.target && e.target.tagName) || '';
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  // Arrow keys slide a tile into the gap: the gap moves the other way.
  const letter = { ArrowUp: 'd', ArrowDown: 'u', ArrowLeft: 'r', ArrowRight: 'l' }[e.key];
  if (letter) {
    e.preventDefault();
    playerMove(letter);
  }
});

$('scramble').addEventListener('click', scramble);
$('reset').addEventListener('click', reset);
$('solve').addEventListener('click', solve);
$('hint').addEventListener('click', hint);
$('play').addEventListener('click', play);
$('forward').addEventListener('click', () => { stop(); forward(); });
$('back').addEventListener('click', back);
$('speed').addEventListener('input', () => { if (S.timer !== null) { stop(); play(); } });
$('size').addEventListener('change', changeSize);
$('load-form').addEventListener('submit', loadTyped);
window.addEventListener('resize', sizeFont);

buildTiles();
reset();
