// The ConnectX page: draws the game the server holds and sends the person's clicks to its JSON API.
// Columns are 0-based in the API (as Kaggle numbers them) and shown from 1.
"use strict";

const $ = (id) => document.getElementById(id);
const SYMBOLS = ["", "x", "o"];
let options = null;   // GET /api/options
let game = null;      // the last state the server sent
let busy = false;     // a move, take-back or new game is on its way: clicks wait
let analysisFor = ""; // which position the shown values belong to ("session/ply")
let wordsColumn = null; // the column whose value's words are shown under it (tapped), or null

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (failure) {
    throw new Error("the server cannot be reached (is connectx serve still running?)");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (failure) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function setStatus(text, thinking) {
  $("status").textContent = text;
  $("status").classList.toggle("thinking", Boolean(thinking));
}

function playerName(seat) {
  if (game.opponent === "human") return `Player ${seat + 1} (${seat === 0 ? "X" : "O"})`;
  return game.people.includes(seat) ? "you" : game.names[seat];
}

function describeTurn() {
  if (game.over) return game.result;
  if (game.opponent === "human") return `${playerName(game.to_move)} to move: click a column.`;
  return `Your move (you are ${game.people[0] === 0 ? "X, red" : "O, yellow"}): click a column.`;
}

function drawBoard() {
  const board = $("board"), numbers = $("numbers");
  board.replaceChildren();
  numbers.replaceChildren();
  const last = game.moves.length ? game.moves[game.moves.length - 1] : null;
  const winning = new Set(game.winning_line);
  $("game").style.setProperty("--columns", game.columns);
  for (let column = 0; column < game.columns; column++) {
    const cells = document.createElement("div");
    cells.className = "column";
    cells.dataset.column = column;
    cells.tabIndex = 0;
    cells.title = `play column ${column + 1}`;
    let top = true;
    for (let row = 0; row < game.rows; row++) {
      const cell = document.createElement("div");
      const mark = game.board[row * game.columns + column];
      cell.className = "cell " + SYMBOLS[mark];
      if (winning.has(row * game.columns + column)) cell.classList.add("winning");
      if (mark && top) {
        if (column === last) cell.classList.add("last");
        top = false;
      }
      cell.dataset.row = row;
      cells.appendChild(cell);
    }
    cells.addEventListener("click", () => play(column));
    cells.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") play(column); });
    board.appendChild(cells);
    const number = document.createElement("div");
    number.className = "number";
    number.textContent = column + 1;
    numbers.appendChild(number);
  }
  board.classList.toggle("locked", busy || game.over);
}

function drawValues(values, best) {
  const row = $("values");
  row.replaceChildren();
  if (!game) return;
  for (let column = 0; column < game.columns; column++) {
    const cell = document.createElement("div");
    cell.className = "value";
    cell.dataset.column = column;
    const value = values ? values[column] : null;
    if (value) {
      for (const line of value.lines) {  // the word over its count or depth: neighbours never read as one value
        const text = document.createElement("span");
        text.textContent = line;
        cell.appendChild(text);
      }
      cell.title = `column ${column + 1}: ${value.text} (score ${value.exact ? value.score : value.lower + ".." + value.upper})`;
      cell.dataset.lower = value.lower;
      cell.dataset.upper = value.upper;
      if (value.exact) cell.dataset.score = value.score;
      if (value.outcome !== null) cell.classList.add(["loss", "draw", "win"][value.outcome + 1]);
      if (best && best.includes(column)) cell.classList.add("best");
    } else if (values) {
      cell.textContent = game.board[column] ? "full" : "…";  // row 0 is the top: a stone there fills the column
    }
    row.appendChild(cell);
  }
  showValueWords(wordsColumn);
}

// A value's words (its title, which only a mouse can hover) in a bubble under it, for a tap or a click; the bubble
// follows the value as the analysis refines it and lets taps through to the board.
function showValueWords(column) {
  const bubble = $("value-words");
  const cell = column === null ? null : $("values").querySelector(`.value[data-column="${column}"]`);
  wordsColumn = cell && cell.title ? column : null;
  bubble.hidden = wordsColumn === null;
  if (bubble.hidden) return;
  bubble.textContent = cell.title;
  const frame = $("game").getBoundingClientRect(), box = cell.getBoundingClientRect();
  bubble.style.top = `${box.bottom - frame.top}px`;
  bubble.style.left = `${Math.max(0, Math.min(box.left - frame.left, frame.width - bubble.offsetWidth))}px`;
}

function drawResult() {
  const banner = $("result");
  banner.hidden = !game.over;
  if (!game.over) return;
  banner.textContent = game.result;
  const mine = game.winner !== null && game.opponent !== "human" && game.people.includes(game.winner);
  const theirs = game.winner !== null && game.opponent !== "human" && !mine;
  banner.className = game.winner === null ? "draw" : theirs ? "loss" : "win";
  if (mine) banner.textContent = "🎉 " + game.result;
}

function draw() {
  drawBoard();
  drawResult();
  setStatus(game.over ? "" : describeTurn());
  $("take-back").disabled = busy || !game.can_take_back;
  for (const [id, format] of [["download-json", "json"], ["download-html", "html"]]) {
    const link = $(id);
    link.href = `/api/replay?session=${encodeURIComponent(game.session)}&format=${format}`;
    link.classList.toggle("disabled", busy);
  }
  $("moves").textContent = game.moves.length
    ? "Moves: " + (game.position !== null ? game.position : game.moves.map((c) => c + 1).join(" "))
    : "";
  const link = shareLink();
  $("share").href = link;
  history.replaceState(null, "", link);
  refreshAnalysis();
}

function shareLink() {
  const params = new URLSearchParams({
    opponent: game.opponent, rows: game.rows, columns: game.columns, inarow: game.inarow,
    first: game.people.includes(0) ? "you" : "opponent",
  });
  if (game.position) params.set("pos", game.position);
  return "?" + params.toString();
}

async function refreshAnalysis() {
  const note = $("analysis-note");
  if (!$("analysis-switch").checked || !game || game.over) {
    analysisFor = "";
    drawValues(null);
    note.hidden = true;
    return;
  }
  const key = `${game.session}/${game.moves.length}/${$("seconds").value}`;
  if (key === analysisFor) return;
  analysisFor = key;
  drawValues(null);
  note.hidden = false;
  const seconds = Number($("seconds").value);
  note.textContent = `Analysing (up to ${seconds} s)…`;
  const shown = new Array(game.columns).fill(null);
  const current = () => key === `${game.session}/${game.moves.length}/${$("seconds").value}` &&
    $("analysis-switch").checked;
  try {
    await streamEvents("/api/analysis/stream", JSON.stringify({session: game.session, seconds: seconds}),
      (kind, data) => {
        if (!current()) return;
        if (kind === "column") {  // an estimate first, then what the proofs show, column by column
          shown[data.column] = data.value;
          drawValues(shown, null);
        } else if (kind === "done") {
          drawValues(data.values, data.best);
          const exact = data.values.filter((v) => v).every((v) => v.exact);
          const open = data.best.length ? "" : ` No column is proven best yet: ${data.open.map((c) => c + 1).join(", ")} `
            + "could still be.";
          note.textContent = `${data.mover} to move. ` + (exact ? "Every value is exact."
            : `Where ${data.seconds} s were not enough, the best bound proven is shown, or an estimate.`) + open;
        } else if (kind === "error") {
          throw new Error(data.error);
        }
      });
  } catch (failure) {
    analysisFor = "";
    note.hidden = true;
    showError(failure.message);
  }
}

async function act(path, body, thinking) {
  if (busy) return;
  busy = true;
  showError("");
  if (game) draw();
  if (thinking) setStatus(thinking, true);
  try {
    game = await api(path, body);
  } catch (failure) {
    showError(failure.message);
  } finally {
    busy = false;
    if (game) draw();
  }
}

function play(column) {
  if (!game || busy || game.over) return;
  const thinking = game.opponent === "human" ? "" : `${game.opponent} is thinking`;
  act("/api/move", {session: game.session, column: column, ply: game.moves.length}, thinking);
}

function newGame(position) {
  const body = {
    opponent: $("opponent").value, rows: Number($("rows").value), columns: Number($("columns").value),
    inarow: Number($("inarow").value), first: $("first").value,
  };
  if (position) body.position = position;
  const thinking = body.first === "opponent" && body.opponent !== "human" ? `${body.opponent} is thinking` : "";
  act("/api/new", body, thinking);
}

// An uploaded episode's analysis. What goes wrong is said in the upload's own status line, where the person is
// looking, and the previous result stays until a new analysis starts to replace it.
async function upload(file) {
  const status = $("upload-status"), bar = $("upload-progress");
  const say = (text, failed) => {
    status.textContent = text;
    status.classList.toggle("failed", Boolean(failed));
  };
  if (file.size > options.max_upload) {
    say(`${file.name} is ${(file.size / 1e6).toFixed(1)} MB; the limit is ${options.max_upload / 1e6} MB ` +
        "(a Kaggle ConnectX episode is far smaller)", true);
    return;
  }
  const seconds = Number($("seconds").value);
  say(`Analysing ${file.name} (up to ${seconds} s a move)…`);
  try {
    let total = 1;
    await streamEvents(`/api/upload/stream?seconds=${seconds}`, await file.text(), (kind, data) => {
      if (kind === "start") {
        total = data.plies;
        bar.max = total;
        bar.removeAttribute("value");  // indeterminate: the rows come only once the whole game is analysed
        bar.hidden = false;
        say(`Analysing ${file.name}: ${total} moves, up to ${seconds} s each; they are shown once all agree…`);
        $("upload-moves").querySelector("tbody").replaceChildren();
        $("upload-summary").textContent = "";
        $("upload-result").hidden = false;
        $("upload-page").hidden = true;
      } else if (kind === "ply") {
        addUploadRow(data);
        bar.value = $("upload-moves").querySelector("tbody").children.length;
      } else if (kind === "done") {
        showUpload(data, file.name);
        say("");
      } else if (kind === "error") {
        throw new Error(data.error);
      }
    });
  } catch (failure) {
    say(`${file.name}: ${failure.message}`, true);
  } finally {
    bar.hidden = true;
  }
}

// POST body to path and hand each server-sent event (its name and decoded JSON data) to onEvent as it arrives.
async function streamEvents(path, body, onEvent) {
  let response;
  try {
    response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: body});
  } catch (failure) {
    throw new Error("the server cannot be reached (is connectx serve still running?)");
  }
  if (!response.ok) {
    let data = null;
    try { data = await response.json(); } catch (failure) { /* not JSON: the status says it */ }
    throw new Error((data && data.error) || `the server answered ${response.status}`);
  }
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, {stream: true});
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const kind = /^event: (.*)$/m.exec(event), data = /^data: (.*)$/m.exec(event);
      if (kind && data) onEvent(kind[1], JSON.parse(data[1]));
    }
  }
}

// One move of an uploaded game in the table: its values, and for a flagged move the best columns and the punishing line.
function addUploadRow(ply) {
  const row = document.createElement("tr");
  row.dataset.ply = ply.ply;
  if (ply.flagged) row.className = "flagged";
  const best = ply.best.length ? `best: ${ply.best.join(", ")}` : `no best proven yet; open: ${ply.open.join(", ")}`;
  // A stone of the line ("O 3") is never split over two lines: a no-break space between its mark and column.
  const line = ply.line_text ? `; punished by ${ply.line_text.replace(/ (?=\d)/g, "\u00a0")}` : "";
  const note = ply.flagged ? `changed the outcome; ${best}${line}` : "";
  const headings = $("upload-moves").querySelectorAll("thead th");
  [ply.ply, `${ply.mover} ${ply.column}`, ply.before, ply.after, note].forEach((text, index) => {
    const cell = document.createElement("td");
    cell.textContent = text;
    cell.dataset.label = headings[index].textContent;  // shown before the text where a phone stacks the row
    row.appendChild(cell);
  });
  $("upload-moves").querySelector("tbody").appendChild(row);
}

function showUpload(answer, name) {
  const body = $("upload-moves").querySelector("tbody");
  if (body.children.length !== answer.plies.length) {  // the rows streamed in already, unless some were missed
    body.replaceChildren();
    for (const ply of answer.plies) addUploadRow(ply);
  }
  const flagged = answer.plies.filter((ply) => ply.flagged);
  $("upload-summary").textContent = `${name}: ${answer.columns}x${answer.rows} board, ${answer.inarow} in a row, ` +
    `${answer.plies.length} moves, analysed at up to ${answer.seconds} s a move. ` + (flagged.length
    ? `${flagged.length} move${flagged.length === 1 ? "" : "s"} changed the outcome: ` +
      flagged.map((ply) => `ply ${ply.ply} (${ply.mover} ${ply.column})`).join(", ") + "."
    : "No move changed the outcome.");
  $("upload-page").srcdoc = answer.html;
  $("upload-page").hidden = false;
  $("upload-result").hidden = false;
}

// The analysis frame is sandboxed: its page cannot reach this one, nor this one read it, but it posts how tall it is
// and where its links lead. The frame is made as tall as its page and this page scrolls, so that on a phone there
// is one scroll, never a scrolling page inside the scrolling page.
function followAnalysisFrame(event) {
  const frame = $("upload-page");
  const said = event.data;
  if (event.source !== frame.contentWindow || !said || typeof said !== "object") return;
  if (said.analysis === "height" && Number.isFinite(said.height) && said.height >= 100) {  // not before its layout
    frame.style.height = `${Math.min(said.height, 200000) + frame.offsetHeight - frame.clientHeight}px`;
  } else if (said.analysis === "show" && Number.isFinite(said.top)) {
    window.scrollTo(0, frame.getBoundingClientRect().top + window.scrollY + frame.clientTop + said.top);
  }
}

async function start() {
  try {
    options = await api("/api/options");
  } catch (failure) {
    showError(failure.message);
    return;
  }
  const select = $("opponent");
  for (const opponent of options.opponents) {
    const option = document.createElement("option");
    option.value = opponent.name;
    option.textContent = opponent.name;
    option.title = opponent.summary;
    select.appendChild(option);
  }
  for (const seconds of options.time_choices) {
    const option = document.createElement("option");
    option.value = seconds;
    option.textContent = `${seconds} s`;
    $("seconds").appendChild(option);
  }
  $("seconds").value = options.analysis_seconds;
  for (const id of ["rows", "columns", "inarow"]) {
    $(id).min = id === "inarow" ? 2 : options.sides[0];
    $(id).max = options.sides[1];
  }
  const params = new URLSearchParams(location.search);
  const defaults = options.defaults;
  select.value = params.get("opponent") || defaults.opponent;
  if (!select.value) select.value = defaults.opponent;
  for (const id of ["rows", "columns", "inarow"]) $(id).value = params.get(id) || defaults[id];
  $("first").value = params.get("first") === "opponent" ? "opponent" : "you";
  $("setup").addEventListener("submit", (event) => { event.preventDefault(); newGame(""); });
  $("take-back").addEventListener("click", () => act("/api/undo", {session: game.session}, ""));
  $("analysis-switch").addEventListener("change", () => refreshAnalysis());
  document.addEventListener("click", (event) => {  // a value shows its words; a second tap, or any other, hides them
    const cell = event.target.closest("#values .value");
    const column = cell ? Number(cell.dataset.column) : null;
    showValueWords(column === wordsColumn ? null : column);
  });
  $("seconds").addEventListener("change", () => refreshAnalysis());
  window.addEventListener("message", followAnalysisFrame);
  $("upload").addEventListener("change", (event) => { if (event.target.files.length) upload(event.target.files[0]); });
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT" || !game) return;
    if (/^[1-9]$/.test(event.key)) play(Number(event.key) - 1);
    if (event.key === "u" && game.can_take_back) act("/api/undo", {session: game.session}, "");
  });
  newGame(params.get("pos") || "");
}

start();
