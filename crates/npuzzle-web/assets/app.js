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
  sol: null,        // { letters, i, optimal, spans } while a solution is loaded
  timer: null,
  busy: false,
  version: 0,       // bumped on every change of the board: a late answer for an old one is dropped
  loads: 0,         // typed boards sent to be read: only the latest one's answer is used
  userSpeed: 3,     // the speed the player chose (a long answer may play faster than it)
};

// Playback speeds offered by the slider, in moves per second.
const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120];
// A solution that would take longer than this to play starts at a faster speed.
const LONGEST_PLAYBACK_S = 30;

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
    const home = t === p + 1;
    b.classList.toggle('home', home);
    b.setAttribute('aria-label', `Tile ${t}, row ${r + 1}, column ${c + 1}${home ? ', home' : ''}`);
  });
  const solved = isGoal();
  boardEl.dataset.state = judgeLine(S.cells);
  boardEl.dataset.solved = String(solved);
  $('move-count').textContent = String(S.moves);
  $('solved-badge').hidden = !(solved && S.moves > 0);
  const playing = S.timer !== null;
  const atStart = !S.sol || S.sol.i === 0;
  const atEnd = !S.sol || S.sol.i >= S.sol.letters.length;
  $('play').textContent = playing ? 'Pause' : 'Play';
  $('back').disabled = atStart;
  $('restart').disabled = atStart;
  $('forward').disabled = atEnd;
  $('end').disabled = atEnd;
  $('play').disabled = !S.sol;
  highlightMove();
}

// Marks the next move of the loaded solution (and the ones played) in the move list, and
// scrolls the list (only the list) to keep it in view.
function highlightMove() {
  if (!S.sol || !S.sol.spans) return;
  const { spans, i } = S.sol;
  const prev = S.sol.shown;
  if (prev !== undefined && prev !== i) {
    const lo = Math.min(prev, i);
    const hi = Math.max(prev, i);
    for (let k = lo; k <= hi && k < spans.length; k++) spans[k].className = k < i ? 'done' : '';
  } else if (prev === undefined) {
    spans.forEach((sp, k) => { sp.className = k < i ? 'done' : ''; });
  }
  S.sol.shown = i;
  const box = $('moves');
  if (i < spans.length) {
    const cur = spans[i];
    cur.className = 'current';
    const top = cur.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }
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
  if (S.sol) {
    dropSolution();
    status('Your move: the solution is put away. Press Solve for one from here.');
  } else {
    status('Your move. Press Hint or Solve when you want help.');
  }
  render();
  if (isGoal()) status(`Solved in ${plural(S.moves, 'move')}.`);
  return true;
}

function plural(n, word) {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
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
  $('details').hidden = true;
}

function stop() {
  if (S.timer !== null) clearInterval(S.timer);
  S.timer = null;
}

function speed() { return SPEEDS[Number($('speed').value)] || 8; }
function interval() { return 1000 / speed(); }
function showSpeed() { $('speed-value').textContent = `${speed()} moves/s`; }

function showProgress() {
  if (!S.sol) return;
  const n = S.sol.letters.length;
  // While playing, the status changes with every move: screen readers hear it when playback
  // stops, not on every move.
  $('status').setAttribute('aria-live', S.timer !== null && S.sol.i < n ? 'off' : 'polite');
  if (S.sol.i === 0 && S.timer === null) {
    status(`Paused at the start of ${plural(n, 'move')}. Play, or step through them.`);
  } else if (S.sol.i >= n) {
    status(`Solution played: ${plural(n, 'move')}${S.sol.optimal ? ', the fewest possible' : ''}.`);
  } else if (S.timer !== null) {
    status(`Playing the solution: move ${S.sol.i + 1} of ${n.toLocaleString()}.`);
  } else {
    status(`Paused at move ${S.sol.i} of ${n.toLocaleString()}. Play, step, or skip to the end.`);
  }
}

// Advances the solution by `count` moves (all at once, without animation, when more than one).
function forward(count = 1) {
  if (!S.sol || S.sol.i >= S.sol.letters.length) { stop(); render(); showProgress(); return; }
  const many = count > 1;
  if (many) boardEl.classList.add('instant');
  for (let k = 0; k < count && S.sol.i < S.sol.letters.length; k++) {
    step(S.sol.letters[S.sol.i]);
    S.sol.i++;
    S.moves++;
  }
  if (S.sol.i >= S.sol.letters.length) stop();
  render();
  showProgress();
  if (many) settle();
}

function back(count = 1) {
  if (!S.sol || S.sol.i === 0) return;
  stop();
  const many = count > 1;
  if (many) boardEl.classList.add('instant');
  for (let k = 0; k < count && S.sol.i > 0; k++) {
    S.sol.i--;
    step(INVERSE[S.sol.letters[S.sol.i]]);
    S.moves = Math.max(0, S.moves - 1);
  }
  render();
  showProgress();
  if (many) settle();
}

// Lets the board jump without sliding for one frame, then restores the animation.
function settle() {
  requestAnimationFrame(() => requestAnimationFrame(() => boardEl.classList.remove('instant')));
}

function play() {
  if (!S.sol) return;
  if (S.timer !== null) { stop(); render(); showProgress(); return; }
  // At the end, Play replays from the start.
  if (S.sol.i >= S.sol.letters.length) back(Infinity);
  boardEl.style.setProperty('--slide', `${Math.min(150, interval() * 0.8)}ms`);
  S.timer = setInterval(() => forward(), interval());
  render();
  showProgress();
}

function load(cells, w, h) {
  dropSolution();
  if (w !== S.w || h !== S.h || S.tiles.length !== w * h) {
    S.w = w; S.h = h;
    selectSize(w, h);
    buildTiles();
  }
  S.cells = cells.slice();
  S.version++;
  S.moves = 0;
  // A new board appears at once; only moves slide.
  boardEl.classList.add('instant');
  render();
  settle();
}

// Shows `w`×`h` in the size selector, adding it when it is not one of the listed sizes.
function selectSize(w, h) {
  const value = `${w}x${h}`;
  const select = $('size');
  if (![...select.options].some((o) => o.value === value)) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = `${w} × ${h}`;
    select.appendChild(o);
  }
  select.value = value;
}

// What the page says for the server's error codes.
const FRIENDLY = {
  busy: 'The server is busy with other searches; try again in a moment.',
  time_limit: 'This board needs a longer search than this server allows.',
  unsolvable: 'This board cannot reach the goal.',
};

async function api(path, body) {
  let res;
  try {
    res = await fetch(path, body === undefined ? {} : {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
  } catch (e) {
    throw new Error('The server cannot be reached.');
  }
  const data = await res.json().catch(() => ({ message: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(FRIENDLY[data.error] || data.message || `HTTP ${res.status}`);
  return data;
}

async function scramble() {
  showError('');
  try {
    const data = await api(`/api/scramble?width=${S.w}&height=${S.h}`);
    load(cellsOf(data.board), data.width, data.height);
    $('board-input').value = '';
    status('Scrambled. Slide the tiles, or press Solve.');
  } catch (e) {
    status(`Could not scramble: ${e.message}`);
  }
}

const ALGORITHM_NAMES = {
  table: 'complete table', idastar: 'IDA*', astar: 'A*', bfs: 'breadth-first search',
  bidirectional: 'bidirectional BFS', greedy: 'greedy best-first', large: 'constructive solver', near: 'near-optimal solver',
};

function describeStats(d) {
  const name = (ALGORITHM_NAMES[d.algorithm] || d.algorithm)
    + (d.heuristic ? ` + ${d.heuristic}` : '') + (d.databases ? ` (databases ${d.databases})` : '');
  const ms = d.stats.elapsed / 1000;
  const time = ms < 1 ? `${ms.toFixed(3)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
  return `${name}: ${plural(d.stats.expanded, 'state')} expanded in ${time}.`;
}

// Fills the result panel with an answer: the move list (one element per move, so that the
// current one can be highlighted), the tile notation folded away, and the solver's figures.
function showAnswer(d) {
  const box = $('moves');
  box.textContent = '';
  const frag = document.createDocumentFragment();
  const spans = [];
  for (const letter of d.moves) {
    const sp = document.createElement('span');
    sp.textContent = letter;
    frag.appendChild(sp);
    spans.push(sp);
  }
  box.appendChild(frag);
  box.scrollTop = 0;
  $('solution-length').textContent = d.length.toLocaleString();
  $('optimal').textContent = d.optimal ? 'optimal' : 'not optimal';
  $('optimal').classList.toggle('warn', !d.optimal);
  $('note').hidden = !d.note;
  $('note').textContent = d.note ? `${d.note[0].toUpperCase()}${d.note.slice(1)}.` : '';
  $('tiles').textContent = d.tiles;
  $('tiles-box').open = d.tiles.length <= 80;
  $('stats').textContent = describeStats(d);
  $('details').hidden = false;
  return spans;
}

// Picks a playback speed at which `n` moves take at most LONGEST_PLAYBACK_S (if the chosen one
// is slower).
function speedFor(n) {
  let k = S.userSpeed;
  while (k < SPEEDS.length - 1 && n / SPEEDS[k] > LONGEST_PLAYBACK_S) k++;
  $('speed').value = String(k);
  showSpeed();
}

async function askSolver() {
  return api('/api/solve', { board: judgeLine(S.cells), width: S.w, height: S.h });
}

async function solve() {
  if (S.busy) return;
  showError('');
  // The solution for this board is already here: play it from where it stands.
  if (S.sol) {
    if (S.sol.i >= S.sol.letters.length) { status('Already solved.'); return; }
    if (S.timer === null) play();
    return;
  }
  if (isGoal()) { status('Already solved: scramble, or slide some tiles first.'); return; }
  S.busy = true;
  $('solve').disabled = true;
  $('hint').disabled = true;
  status('Solving…');
  try {
    const asked = S.version;
    const d = await askSolver();
    if (S.version !== asked) {
      status('The board changed while the solver worked, so its answer was dropped.');
      return;
    }
    S.sol = { letters: d.moves, i: 0, optimal: d.optimal, spans: null };
    S.sol.spans = showAnswer(d);
    speedFor(d.length);
    render();
    play();
  } catch (e) {
    status(`No solution: ${e.message}`);
  } finally {
    S.busy = false;
    $('solve').disabled = false;
    $('hint').disabled = false;
    render();
  }
}

async function hint() {
  if (S.busy || isGoal()) return;
  S.busy = true;
  $('solve').disabled = true;
  $('hint').disabled = true;
  status('Thinking…');
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
    const left = d.length - 1;
    status(left === 0
      ? `Hint: tile ${tile} slid ${dir}. Solved!`
      : `Hint: tile ${tile} slid ${dir}. ${plural(left, 'move')} to go${d.optimal ? '' : ' (by the near-optimal solver)'}.`);
  } catch (e) {
    status(`No hint: ${e.message}`);
  } finally {
    S.busy = false;
    $('solve').disabled = false;
    $('hint').disabled = false;
  }
}

// A board in judge form ("2 3 4 1 5 x 7 6 8") as cells, 0 for the blank.
function cellsOf(judgeLine) {
  return judgeLine.split(' ').map((t) => (t === 'x' ? 0 : Number(t)));
}

// Loads a typed board. The server reads it by the library's rules (and says what is wrong
// with it); the page only keeps the board's size when the tile count fits it, so that a 3 × 2
// board can be typed into a 3 × 2 game.
async function loadTyped(event) {
  event.preventDefault();
  // Any space (a pasted no-break or full-width one too), comma or semicolon separates tiles.
  const text = $('board-input').value.replace(/[\s,;]+/g, ' ');
  const count = text.split(' ').filter((t) => t.length > 0).length;
  const body = { board: text };
  if (count === S.w * S.h) { body.width = S.w; body.height = S.h; }
  const version = S.version;
  const load_ = ++S.loads;
  // Only the latest Load, on the board it was asked on, changes the page.
  const current = () => load_ === S.loads && S.version === version;
  try {
    if (count === 0) throw new Error('Type the tiles row by row, e.g. 2 3 4 1 5 x 7 6 8.');
    if (count > 100) throw new Error('Boards up to 10 × 10 are played here.');
    status('Reading the board…');
    const d = await api('/api/board', body);
    if (!current()) return;
    if (d.width > 10 || d.height > 10) throw new Error('Boards up to 10 × 10 are played here.');
    load(cellsOf(d.board), d.width, d.height);
    showError('');
    status(isGoal()
      ? 'Board loaded: it is already solved. Scramble, or slide some tiles.'
      : 'Board loaded. Press Solve to see the solution.');
  } catch (e) {
    if (!current()) return;
    showError(e.message);
    status('The board was not changed.');
  } finally {
    // How many typed boards were read, loaded or refused (the answer comes from the server).
    const input = $('board-input');
    input.dataset.read = String(Number(input.dataset.read || 0) + 1);
  }
}

function reset(message = 'Back at the goal. Scramble to play again.') {
  load(goalCells(S.w, S.h), S.w, S.h);
  showError('');
  status(message);
}

function changeSize() {
  const [w, h] = $('size').value.split('x').map(Number);
  S.w = w; S.h = h;
  buildTiles();
  reset(`A ${w} × ${h} board at the goal. Scramble to play.`);
}

document.addEventListener('keydown', (e) => {
  // Arrows play only where they have no other job: on the page itself or the board (not in
  // the move list, a field, or on a button).
  if (e.target !== document.body && e.target !== boardEl && e.target !== document.documentElement) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  // Arrow keys slide a tile into the gap: the gap moves the other way.
  const letter = { ArrowUp: 'd', ArrowDown: 'u', ArrowLeft: 'r', ArrowRight: 'l' }[e.key];
  if (letter) {
    e.preventDefault();
    playerMove(letter);
  }
});

$('scramble').addEventListener('click', scramble);
$('reset').addEventListener('click', () => reset());
$('solve').addEventListener('click', solve);
$('hint').addEventListener('click', hint);
$('play').addEventListener('click', play);
$('forward').addEventListener('click', () => { stop(); forward(); });
$('back').addEventListener('click', () => back());
$('restart').addEventListener('click', () => back(Infinity));
$('end').addEventListener('click', () => { stop(); forward(Infinity); });
$('speed').addEventListener('input', () => {
  S.userSpeed = Number($('speed').value);
  showSpeed();
  if (S.timer !== null) { stop(); play(); }
});
$('size').addEventListener('change', changeSize);
$('load-form').addEventListener('submit', loadTyped);
window.addEventListener('resize', sizeFont);

buildTiles();
showSpeed();
load(goalCells(S.w, S.h), S.w, S.h);
