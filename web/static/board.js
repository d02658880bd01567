// The board's live page: draws each state the server sends (docs/web.md) and, when this
// browser plays, turns drags and buttons into hand actions.  Plain script, no build step.
"use strict";
(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const TOP = 44, BOTTOM = 656, MID = 350, HEIGHT = 700;
  const COL = 64, STEP = 48, SHOWN = 5;
  const TOP_ROW = ["XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"];
  const BOTTOM_ROW = ["12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"];
  const ZONE_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
    "wait-white", "wait-black", "off-white", "off-black"];
  const PIPS = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]};

  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  window.trictracLatencies = [];

  let state = null;
  let canPlay = false;
  let webSides = [];
  let socket = null;
  let retry = 0;
  let drag = null;
  let lastPhase = null;
  const zones = [];  // per hal index: {g, stack, lamp, glow, own, geo, key}

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, cls, value) {
    const node = el("text", {x, y, class: cls}, parent);
    node.textContent = value;
    return node;
  }

  // -- the board, drawn once ----------------------------------------------------------------
  function columnX(c) { return c < 6 ? 24 + c * COL : 468 + (c - 6) * COL; }

  function geometry() {
    const geo = {};
    TOP_ROW.forEach((name, c) => {
      const x = columnX(c);
      geo[name] = {x, w: COL, top: true, cx: x + COL / 2, base: TOP + 28, dir: 1, r: 26,
        hit: [x, 0, COL, MID], label: 16, lamp: 36, own: 310, tri: [[x + 2, TOP], [x + COL - 2, TOP], [x + COL / 2, TOP + 250]]};
    });
    BOTTOM_ROW.forEach((name, c) => {
      const x = columnX(c);
      geo[name] = {x, w: COL, top: false, cx: x + COL / 2, base: BOTTOM - 28, dir: -1, r: 26,
        hit: [x, MID, COL, HEIGHT - MID], label: 684, lamp: 664, own: 390, tri: [[x + 2, BOTTOM], [x + COL - 2, BOTTOM], [x + COL / 2, BOTTOM - 250]]};
    });
    geo["wait-black"] = {cx: 438, base: MID - 30, dir: -1, r: 24, hit: [408, 0, 60, MID], label: 16, lamp: 36, word: "bar"};
    geo["wait-white"] = {cx: 438, base: MID + 30, dir: 1, r: 24, hit: [408, MID, 60, HEIGHT - MID], label: 684, lamp: 664, word: "bar"};
    geo["off-black"] = {cx: 912, base: TOP + 28, dir: 1, r: 24, hit: [864, 0, 112, MID], label: 16, lamp: 36, word: "off",
      tray: [876, TOP + 4, 72, MID - TOP - 14]};
    geo["off-white"] = {cx: 912, base: BOTTOM - 28, dir: -1, r: 24, hit: [864, MID, 112, HEIGHT - MID], label: 684, lamp: 664, word: "off",
      tray: [876, MID + 10, 72, BOTTOM - MID - 14]};
    return geo;
  }

  function defs() {
    const d = el("defs", {}, svg);
    const grad = (id, kind, stops, attrs) => {
      const g = el(kind, Object.assign({id}, attrs || {}), d);
      stops.forEach(([o, c]) => el("stop", {offset: o, "stop-color": c}, g));
    };
    grad("wood-dark", "linearGradient", [["0", "#5b3519"], ["0.5", "#6e4220"], ["1", "#4a2a12"]], {x1: 0, y1: 0, x2: 1, y2: 1});
    grad("wood-light", "linearGradient", [["0", "#d9b07a"], ["0.35", "#cfa36b"], ["0.7", "#ddb886"], ["1", "#c99a60"]], {x1: 0, y1: 0, x2: 1, y2: 0.3});
    grad("ivory", "radialGradient", [["0", "#fffdf6"], ["0.75", "#efe6d2"], ["1", "#d8ccb0"]], {cx: "40%", cy: "35%", r: "65%"});
    grad("ebony", "radialGradient", [["0", "#5a5a5a"], ["0.6", "#262626"], ["1", "#0b0b0b"]], {cx: "40%", cy: "35%", r: "65%"});
  }

  function drawBoard() {
    svg.textContent = "";
    defs();
    el("rect", {x: 0, y: 0, width: 976, height: HEIGHT, rx: 14, class: "frame"}, svg);
    el("rect", {x: 24, y: TOP, width: 384, height: BOTTOM - TOP, class: "field"}, svg);
    el("rect", {x: 468, y: TOP, width: 384, height: BOTTOM - TOP, class: "field"}, svg);
    el("rect", {x: 408, y: TOP, width: 60, height: BOTTOM - TOP, class: "bar"}, svg);
    const geo = geometry();
    [...TOP_ROW, ...BOTTOM_ROW].forEach((name, i) => {
      const g = geo[name];
      el("polygon", {points: g.tri.map((p) => p.join(",")).join(" "), class: (i + (g.top ? 0 : 1)) % 2 ? "pt-b" : "pt-a"}, svg);
    });
    el("rect", {...rect([876, TOP + 4, 72, MID - TOP - 14]), class: "tray"}, svg);
    el("rect", {...rect([876, MID + 10, 72, BOTTOM - MID - 14]), class: "tray"}, svg);
    el("g", {id: "dice-layer"}, svg);
    ZONE_NAMES.forEach((name, index) => {
      const g = geo[name];
      const group = el("g", {"data-zone": index, "data-name": name, "data-white": 0, "data-black": 0}, svg);
      el("rect", {...rect(g.hit), class: "hit"}, group);
      const glow = g.tri
        ? el("polygon", {points: g.tri.map((p) => p.join(",")).join(" "), class: "glow", "data-colour": "off", "data-mode": "off"}, group)
        : el("rect", {...rect(g.tray || [g.cx - 28, g.dir > 0 ? MID + 6 : TOP + 6, 56, MID - TOP - 12]), rx: 6, class: "glow", "data-colour": "off", "data-mode": "off"}, group);
      const stack = el("g", {class: "stack"}, group);
      text(group, g.cx, g.label, "label", g.word || name);
      const lamp = el("circle", {cx: g.cx, cy: g.lamp, r: 6, class: "lamp", "data-light": index, "data-colour": "off", "data-mode": "off"}, group);
      const own = g.own ? text(group, g.cx, g.own, "own", "") : null;
      zones[index] = {g: group, stack, lamp, glow, own, geo: g, key: null, name};
    });
    el("g", {id: "drag-layer"}, svg);
  }

  function rect([x, y, width, height]) { return {x, y, width, height}; }

  // -- drawing a state ----------------------------------------------------------------------
  function drawStack(zone, counts) {
    const key = counts === null ? "?" : counts.join(",") + (webSides.join(",") + canPlay);
    if (zone.key === key) return;
    zone.key = key;
    zone.stack.textContent = "";
    const g = zone.geo;
    if (counts === null) {
      zone.g.setAttribute("data-white", "");
      zone.g.setAttribute("data-black", "");
      zone.g.setAttribute("data-unreadable", "true");
      text(zone.stack, g.cx, g.base + g.dir * STEP, "unreadable", "?");
      return;
    }
    zone.g.removeAttribute("data-unreadable");
    const [white, black] = counts;
    zone.g.setAttribute("data-white", white);
    zone.g.setAttribute("data-black", black);
    const both = white > 0 && black > 0;
    let slot = 0;
    for (const [colour, count, cap] of [["white", white, both ? 3 : SHOWN], ["black", black, both ? 2 : SHOWN]]) {
      const drawn = Math.min(count, cap);
      for (let k = 0; k < drawn; k++, slot++) {
        const cy = g.base + g.dir * slot * STEP;
        const mine = handPlays();
        el("circle", {cx: g.cx, cy, r: g.r, class: "checker" + (mine ? " mine" : ""), "data-colour": colour}, zone.stack);
        if (k === drawn - 1 && count > drawn) text(zone.stack, g.cx, cy, "count on-" + colour, count);
      }
    }
  }

  function drawDice(dice, turn) {
    const layer = $("dice-layer");
    layer.textContent = "";
    const colour = turn === "black" ? "black" : "white";
    dice.forEach((face, i) => {
      const x = 660 + (i - (dice.length - 1) / 2) * 62, y = MID;
      el("rect", {x: x - 23, y: y - 23, width: 46, height: 46, rx: 8, class: "die " + colour}, layer);
      (PIPS[face] || []).forEach(([dx, dy]) => el("circle", {cx: x + dx * 12, cy: y + dy * 12, r: 4.5, class: "pip " + colour}, layer));
    });
  }

  function setText(id, value) {
    const node = $(id);
    const v = value === null || value === undefined ? "" : String(value);
    if (node.textContent !== v) node.textContent = v;
  }

  const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");

  function draw(s) {
    state = s;
    const names = s.zone_names || ZONE_NAMES;
    const side = s.turn === "black" ? "black" : "white";
    const own = (s.own_points || {})[side] || {};
    names.forEach((name, i) => {
      const zone = zones[i];
      if (!zone) return;
      drawStack(zone, s.zones ? s.zones[i] : [0, 0]);
      const light = s.lights ? s.lights[i] : null;
      for (const node of [zone.lamp, zone.glow]) {
        node.setAttribute("data-colour", light ? light.colour : "off");
        node.setAttribute("data-mode", light ? light.mode : "off");
      }
      if (zone.own) zone.own.textContent = own[name] !== undefined ? own[name] : "";
    });
    const rally = String(s.rules || "").startsWith("rally");
    for (const i of [24, 25]) zones[i].g.querySelector(".label").textContent = rally ? "pool" : "bar";
    const dice = s.dice || [];
    drawDice(dice, s.turn);
    setText("dice", dice.join(" "));
    setText("message", s.message);
    setText("computer", s.computer_play ? `The computer plays ${s.computer_play}: carry it out as lit` : "");
    drawHints(s.hints || []);
    setText("warning", s.warning ? `⚠ ${s.warning.reason}: ${s.warning.message}` : "");
    const between = {"setup": "Setting up", "opening": "Opening roll", "game over": "Game over", "restore": "Restoring"};
    setText("turn", s.turn && s.phase !== "game over" ? `${cap(s.turn)}'s turn` : (between[s.phase] || ""));
    setText("pip-white", s.pips ? s.pips.white : "");
    setText("pip-black", s.pips ? s.pips.black : "");
    const sc = s.score;
    setText("score", sc ? `White ${sc.white} – Black ${sc.black} · game ${sc.game} · ` +
      (sc.match_length ? `match to ${sc.match_length}` : "unlimited session") : "");
    const cube = s.cube;
    setText("cube", !cube || s.rules !== "backgammon" ? "—" : cube.offered_by
      ? `${cap(cube.offered_by)} doubles to ${cube.value * 2}: Done takes, Takeback passes`
      : (cube.owner ? `${cube.value}, ${cap(cube.owner)}'s` : `${cube.value}, in the middle`));
    setText("hand", s.hand ? `White ${s.hand.white} · Black ${s.hand.black}` : "");
    setText("xgid", s.xgid || "—");
    setText("position-id", s.position_id || "—");
    $("copy-xgid").disabled = !s.xgid;
    $("copy-position-id").disabled = !s.position_id;
    const p = s.players || {};
    const cpu = s.computer || {};
    const who = c => cpu[c] ? `${cpu[c]} (the computer; its checkers moved by ${p[c]})` : p[c];
    setText("players", p.white ? `White: ${who("white")} · Black: ${who("black")}` : "");
    drawMoves(s.turns || []);
    drawLink();
    drawButtons();
    if (s.phase === "game over" && lastPhase !== "game over") loadRecords();
    lastPhase = s.phase;
    document.body.dataset.version = s.version;
    if (typeof s.output_ms === "number") window.trictracLatencies.push(Date.now() - s.output_ms);
  }

  function drawHints(hints) {
    const list = $("hints");
    const lines = hints.map(h => `${h.play} (${h.equity >= 0 ? "+" : ""}${h.equity.toFixed(3)})`);
    if (list.dataset.lines === lines.join("|")) return;
    list.dataset.lines = lines.join("|");
    list.textContent = "";
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    }
  }

  function drawMoves(turns) {
    const list = $("moves");
    while (list.children.length > turns.length) list.lastChild.remove();
    turns.forEach((t, i) => {
      const line = `${cap(t.colour)} ${t.dice.join("-")}: ${t.play || "(no play)"}`;
      let item = list.children[i];
      if (!item) { item = document.createElement("li"); list.appendChild(item); }
      if (item.textContent !== line) { item.textContent = line; item.className = t.colour; }
    });
    if (turns.length) list.scrollTop = list.scrollHeight;
  }

  function drawLink() {
    const link = $("link");
    const open = socket && socket.readyState === WebSocket.OPEN;
    const board = state ? state.link : "";
    link.textContent = open ? `live · board ${board || "…"}` : "reconnecting…";
    link.className = "link" + (open ? (board === "lost" ? " lost" : "") : " down");
  }

  function drawButtons() {
    const browserPlays = canPlay && webSides.length > 0;
    const buttons = canPlay && (browserPlays || (state && state.link !== "simulated"));
    // the dice are thrown for the opening and by the side on roll (a throw during a play is
    // held by the controller: possible on the board, but a click here is rarely meant so)
    const phase = state ? state.phase : null;
    const mayThrow = phase === "opening" || (phase === "await roll" && webSides.includes(state.turn));
    $("throw").disabled = !(browserPlays && mayThrow);
    for (const id of ["done", "takeback", "menu"]) $(id).disabled = !buttons;
    svg.classList.toggle("playable", browserPlays);
    setText("mode", browserPlays ? `You play ${webSides.join(" and ")}: drag a checker, throw with the button.`
      : canPlay ? "" : "Watching only" + (token ? " (the token was not accepted)." : "."));
  }

  // -- records -------------------------------------------------------------------------------
  async function loadRecords() {
    try {
      const answer = await fetch("/api/records", {cache: "no-store"});
      const data = await answer.json();
      const list = $("records");
      list.textContent = "";
      for (const r of data.records || []) {
        const item = document.createElement("li");
        const a = document.createElement("a");
        a.href = "/api/records/" + encodeURIComponent(r.name);
        a.textContent = r.name;
        a.setAttribute("download", r.name);
        item.append(a, ` (${r.bytes} bytes)`);
        list.appendChild(item);
      }
      if (!list.children.length) list.innerHTML = "<li>none yet</li>";
    } catch (error) { /* the next game over or reconnect tries again */ }
  }

  // -- copy buttons --------------------------------------------------------------------------
  function copy(id, button) {
    const node = $(id);
    const value = node.textContent;
    const done = () => { button.textContent = "copied"; setTimeout(() => { button.textContent = "copy"; }, 1200); };
    const fallback = () => {
      const range = document.createRange();
      range.selectNodeContents(node);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      try { if (document.execCommand("copy")) done(); else button.textContent = "selected"; }
      catch (error) { button.textContent = "selected"; }
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(value).then(done, fallback);
    else fallback();
  }

  // -- the live feed -------------------------------------------------------------------------
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws` + (token ? "?token=" + encodeURIComponent(token) : "");
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => { retry = 0; drawLink(); loadRecords(); };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message.type === "hello") {
        canPlay = !!message.can_play;
        webSides = message.web_sides || [];
        drawButtons();
      } else if (message.type === "state") {
        draw(message.state);
      } else if (message.type === "error") {
        notice(message.message);
      }
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      canPlay = false;
      drawLink();
      drawButtons();
      const delay = Math.min(5000, 250 * 2 ** retry) * (0.75 + Math.random() * 0.5);
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, delay);
    };
  }

  function send(action) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(action));
    else notice("not connected: reconnecting…");
  }

  let noticeTimer = null;
  function notice(line) {
    const box = $("notice");
    box.textContent = line;
    box.classList.add("shown");
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => box.classList.remove("shown"), 3000);
  }

  // -- playing by hand -----------------------------------------------------------------------
  // A browser that plays a side is a hand over the whole board: it may lift any checker (a
  // hitter carries the opponent's blot to the bar or pool); the controller judges the board.
  function handPlays() { return canPlay && webSides.length > 0; }

  function svgPoint(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  }

  function zoneAt(event) {
    for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
      const zone = node.closest && node.closest("[data-zone]");
      if (zone && svg.contains(zone)) return zone.dataset.name;
    }
    return null;
  }

  svg.addEventListener("pointerdown", (event) => {
    const checker = event.target.closest && event.target.closest("circle.checker");
    if (!checker || drag || !handPlays()) return;
    event.preventDefault();
    const colour = checker.dataset.colour;
    const from = checker.closest("[data-zone]").dataset.name;
    const at = svgPoint(event);
    const ghost = el("circle", {cx: at.x, cy: at.y, r: checker.getAttribute("r"), class: "checker ghost", "data-colour": colour}, $("drag-layer"));
    drag = {colour, from, ghost, pointer: event.pointerId};
    try { svg.setPointerCapture(event.pointerId); } catch (error) { /* a synthetic pointer */ }
    send({type: "lift", zone: from, colour});
  });

  svg.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const at = svgPoint(event);
    drag.ghost.setAttribute("cx", at.x);
    drag.ghost.setAttribute("cy", at.y);
  });

  function drop(event, cancelled) {
    if (!drag || event.pointerId !== drag.pointer) return;
    const target = cancelled ? null : zoneAt(event);
    send({type: "place", zone: target || drag.from, colour: drag.colour});
    drag.ghost.remove();
    drag = null;
  }
  svg.addEventListener("pointerup", (event) => drop(event, false));
  svg.addEventListener("pointercancel", (event) => drop(event, true));

  $("throw").addEventListener("click", () => send({type: "throw"}));
  for (const button of ["done", "takeback", "menu"]) $(button).addEventListener("click", () => send({type: "press", button}));
  $("copy-xgid").addEventListener("click", (event) => copy("xgid", event.currentTarget));
  $("copy-position-id").addEventListener("click", (event) => copy("position-id", event.currentTarget));

  drawBoard();
  drawButtons();
  connect();
})();
