// The table's page: draws the view the host sends over the WebSocket, nothing more.
// Legal moves come in the view (from the engine); this page only offers them: buttons for
// the moves that name no card, clicks on cards for the ones that do. Every string from the
// host is set as text (textContent), never as markup.
(function () {
  "use strict";
  const app = document.getElementById("app");
  const tableId = app.dataset.table;
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  const $ = (id) => document.getElementById(id);
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  let ws = null;
  let view = null;
  let received = 0;
  let selection = [];          // [owner, pos] in the order clicked
  let flashes = {};            // "owner/pos" -> {card, until}
  let retry = 500;
  let noticeTimer = null;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function cardFace(node, code) {
    node.textContent = "";
    node.classList.remove("back", "red", "empty");
    if (code === null || code === undefined) { node.classList.add("back"); return; }
    const suit = SUITS[code.slice(-1)];
    const rank = suit && code.length >= 2 ? code.slice(0, -1) : code;
    node.appendChild(el("span", "rank", rank));
    if (suit) node.appendChild(el("span", "suit", suit));
    if (code.slice(-1) === "H" || code.slice(-1) === "D") node.classList.add("red");
  }

  function notice(text, keep) {
    const box = $("notice");
    box.textContent = text;
    box.hidden = false;
    if (noticeTimer) clearTimeout(noticeTimer);
    if (!keep) noticeTimer = setTimeout(() => { box.hidden = true; }, 7000);
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(scheme + "://" + location.host + "/t/" + encodeURIComponent(tableId) + "/ws");
    ws.onopen = () => { retry = 500; send({ hello: token }); };
    ws.onmessage = (msg) => {
      const data = JSON.parse(msg.data);
      if (data.type === "view") {
        view = data;
        received = performance.now();
        const now = Date.now();
        for (const f of data.flashes || []) {
          flashes[f.owner + "/" + f.pos] = { card: f.card, until: now + f.seconds * 1000 };
          setTimeout(render, f.seconds * 1000 + 20);
        }
        keepSelection();
        render();
      } else if (data.type === "refused") {
        notice("Not played: " + data.message, false);
      } else if (data.type === "error") {
        notice(data.message, true);
      }
    };
    ws.onclose = () => {
      $("turn").textContent = "connection lost, reconnecting…";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 4000);
    };
  }

  function placed() { return (view && view.moves || []).filter((m) => m.places.length > 0); }

  function keepSelection() {
    const ok = new Set();
    for (const m of placed()) for (const p of m.places) ok.add(p[0] + "/" + p[1]);
    selection = selection.filter((p) => ok.has(p[0] + "/" + p[1]));
  }

  function sameSet(a, b) {
    if (a.length !== b.length) return false;
    const keys = new Set(a.map((p) => p[0] + "/" + p[1]));
    return b.every((p) => keys.has(p[0] + "/" + p[1]));
  }

  function matching() { return placed().find((m) => sameSet(m.places, selection)) || null; }

  function play(move) {
    const event = Object.assign({}, move.event);
    if (event.type === "replace" && event.positions.length > 1) {
      event.into = selection.length ? selection[0][1] : event.positions[0];
      if (view.choose_end) {
        const end = document.querySelector("input[name=end]:checked");
        event.end = end ? end.value : "right";
      }
    }
    selection = [];
    send({ move: event });
  }

  function toggle(owner, pos) {
    const i = selection.findIndex((p) => p[0] === owner && p[1] === pos);
    if (i >= 0) selection.splice(i, 1); else selection.push([owner, pos]);
    render();
  }

  function renderPlayers() {
    const box = $("players");
    box.textContent = "";
    const clickable = new Set();
    for (const m of placed()) for (const p of m.places) clickable.add(p[0] + "/" + p[1]);
    const now = Date.now();
    for (const p of view.players) {
      const row = view.rows[p.name];
      const seat = el("div", "seat");
      if (p.name === view.to_play) seat.classList.add("toplay");
      if (p.name === view.me) seat.classList.add("mine");
      if (!p.active) seat.classList.add("out");
      const head = el("div", "seathead");
      head.appendChild(el("span", "name", p.name));
      if (p.name === view.me) head.appendChild(el("span", "tag you", "you"));
      if (p.bot) head.appendChild(el("span", "tag", p.stand_in ? "bot for them: " + p.bot : "bot: " + p.bot));
      if (p.presence === "invited") head.appendChild(el("span", "tag", "not here yet"));
      if (p.presence === "away") head.appendChild(el("span", "tag warn", "away " + Math.ceil(p.away_in || 0) + " s"));
      if (p.presence === "gone" && !p.stand_in && p.active) head.appendChild(el("span", "tag warn", "left"));
      if (!p.active) head.appendChild(el("span", "tag warn", "forfeited"));
      if (view.caller === p.name) head.appendChild(el("span", "tag cabo", "called Cabo"));
      head.appendChild(el("span", "score", (view.scores[p.name] ?? 0) + " pts"));
      seat.appendChild(head);
      const cards = el("div", "row");
      (row || []).forEach((code, pos) => {
        const key = p.name + "/" + pos;
        const slot = el("div", "slot");
        const card = el("button", "card");
        card.type = "button";
        const flash = flashes[key];
        let shown = code;
        if ((shown === null || shown === undefined) && flash && flash.until > now) {
          shown = flash.card;
          card.classList.add("flash");
        }
        cardFace(card, shown);
        card.setAttribute("aria-label", p.name + " card " + pos);
        card.dataset.owner = p.name;
        card.dataset.pos = String(pos);
        if (clickable.has(key)) {
          card.classList.add("pick");
          card.addEventListener("click", () => toggle(p.name, pos));
        } else {
          card.disabled = true;
        }
        if (selection.some((s) => s[0] === p.name && s[1] === pos)) card.classList.add("chosen");
        slot.appendChild(card);
        slot.appendChild(el("div", "pos", pos));
        cards.appendChild(slot);
      });
      if (row && row.length === 0) cards.appendChild(el("span", "muted", "no cards"));
      if (!row) cards.appendChild(el("span", "muted", view.status === "waiting" ? "waiting for the deal" : "not in this round"));
      seat.appendChild(cards);
      box.appendChild(seat);
    }
  }

  function hintText() {
    const kinds = new Set(placed().map((m) => m.kind));
    const power = view.pending_power;
    if (kinds.has("peek")) return "Choose the cards of yours to look at, then confirm.";
    if (kinds.has("replace")) return "Click the card(s) of yours to replace (several must all be the same value), or use a button.";
    if (power === "peek") return "Click one of your cards to look at it, or skip.";
    if (power === "spy") return "Click another player's card to look at it, or skip.";
    if (power === "swap") return "Click one of your cards and one of another player's to swap them blind, or skip.";
    if (kinds.has("snap")) return "You may click a card to snap it onto the discard pile.";
    return "";
  }

  function renderActions() {
    const buttons = $("buttons");
    buttons.textContent = "";
    const mine = view.moves || [];
    for (const m of mine.filter((x) => x.places.length === 0)) {
      const b = el("button", m.kind === "cabo" ? "move cabo" : "move", m.label);
      b.type = "button";
      b.addEventListener("click", () => play(m));
      buttons.appendChild(b);
    }
    const match = matching();
    if (match) {
      let label = match.label;
      if (match.kind === "replace" && match.places.length > 1) label += " (the drawn card goes to card " + selection[0][1] + ")";
      const b = el("button", "move confirm", label);
      b.type = "button";
      b.addEventListener("click", () => play(match));
      buttons.appendChild(b);
    }
    if (selection.length) {
      const c = el("button", "quiet", "Clear the choice");
      c.type = "button";
      c.addEventListener("click", () => { selection = []; render(); });
      buttons.appendChild(c);
    }
    if (view.status === "between_rounds" && view.me && !view.confirmed.includes(view.me)) {
      const b = el("button", "move confirm", "Ready for the next round");
      b.type = "button";
      b.addEventListener("click", () => send({ confirm: true }));
      buttons.appendChild(b);
    }
    const now = Date.now();
    const shown = Object.values(flashes).filter((f) => f.until > now);
    $("hint").textContent = shown.length
      ? "Remember the card" + (shown.length > 1 ? "s" : "") + " shown: " + (shown.length > 1 ? "they turn" : "it turns") +
        " back over in a few seconds. " + hintText()
      : hintText();
    const multi = match && match.kind === "replace" && match.places.length > 1;
    $("endchoice").hidden = !(multi && view.choose_end);
  }

  function renderPiles() {
    $("deckcount").textContent = view.deck_size + (view.deck_size === 1 ? " card" : " cards");
    const discard = $("discard");
    if (view.discard) cardFace(discard, view.discard); else { discard.textContent = ""; discard.className = "card empty"; }
    $("discardcount").textContent = view.discard_count + (view.discard_count === 1 ? " card" : " cards");
    const holding = view.drawn !== null && view.drawn !== undefined;
    $("drawnpile").hidden = !holding;
    if (holding) {
      cardFace($("drawn"), view.drawn);
      $("drawncaption").textContent = (view.to_play === view.me ? "you hold" : view.to_play + " holds") +
        (view.drawn_source === "discard" ? " (from the pile)" : "");
    }
  }

  function renderScores() {
    const table = $("scores");
    table.textContent = "";
    const names = view.players.map((p) => p.name);
    const head = el("tr");
    head.appendChild(el("th", null, "round"));
    for (const n of names) head.appendChild(el("th", null, n));
    const thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    const body = el("tbody");
    for (const r of view.rounds) {
      const tr = el("tr");
      tr.appendChild(el("td", null, r.round + (r.caller ? " (" + r.caller + " called)" : "")));
      for (const n of names) tr.appendChild(el("td", null, n in r.points ? r.points[n] : "–"));
      body.appendChild(tr);
    }
    const total = el("tr", "total");
    total.appendChild(el("td", null, "total"));
    for (const n of names) total.appendChild(el("td", null, view.scores[n] ?? 0));
    body.appendChild(total);
    table.appendChild(body);
    const links = $("links");
    links.textContent = "";
    if (view.status === "over") {
      const a = el("a", null, "The game's timeline");
      a.href = "/t/" + encodeURIComponent(tableId) + "/timeline";
      links.appendChild(a);
    }
  }

  function turnText() {
    if (view.status === "waiting") return "Waiting for every person to open their invitation";
    if (view.status === "over") return "The match is over: " + view.winners.join(", ") + (view.winners.length === 1 ? " wins" : " win");
    if (view.status === "between_rounds") return "Round " + view.round + " is over";
    if (view.peeking && view.peeking.length) {
      if (view.me && view.peeking.includes(view.me)) return "Choose which of your cards to look at";
      return "Waiting for " + view.peeking.join(", ") + " to look at their cards";
    }
    if (view.to_play === view.me) {
      if (view.phase === "drawn") return "Your turn: place the drawn card or discard it";
      if (view.phase === "power") return "Your turn: use the " + view.pending_power + " power or skip it";
      return "Your turn: draw a card" + (view.caller ? "" : " or call Cabo");
    }
    const who = view.players.find((p) => p.name === view.to_play);
    return (view.to_play || "") + (who && who.bot ? " (bot) is playing" : " is playing");
  }

  function renderTimer() {
    if (!view) return;
    const gone = (performance.now() - received) / 1000;
    const timer = $("timer");
    timer.classList.remove("low");
    if (view.deadline_in !== null) {
      const left = Math.max(0, Math.ceil(view.deadline_in - gone));
      timer.textContent = left + " s";
      if (left <= 10) timer.classList.add("low");
    } else if (view.between_in !== null) {
      timer.textContent = "next round in " + Math.max(0, Math.ceil(view.between_in - gone)) + " s";
    } else {
      timer.textContent = view.step ? "" : "no time limit";
    }
  }

  function render() {
    if (!view) return;
    $("title").textContent = view.ruleset + " · " + view.mode;
    $("round").textContent = view.round ? "round " + view.round : "";
    $("turn").textContent = turnText();
    $("turn").classList.toggle("mine", view.to_play === view.me && !!view.me);
    renderPlayers();
    renderPiles();
    renderActions();
    renderScores();
    renderTimer();
    const feed = $("feed");
    feed.textContent = "";
    for (const line of view.feed.slice().reverse()) feed.appendChild(el("li", null, line));
    const playing = !!view.me && view.status !== "over";
    $("me").textContent = view.me ? "You are " + view.me + "." : "You are watching.";
    $("leave").hidden = !playing;
    $("load").hidden = !playing;
  }

  $("leave").addEventListener("click", () => { $("leavesure").hidden = false; });
  $("leavesure").addEventListener("click", () => { $("leavesure").hidden = true; send({ leave: true }); });
  $("load").addEventListener("click", () => send({ load: true }));
  setInterval(renderTimer, 250);
  connect();
})();
