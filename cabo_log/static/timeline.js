/* cabo-log timeline page: draws the charts (plotly.js) and drives the step-through table.
 * Reads its data from the JSON block #cabo-timeline-data; every string from the log is put
 * into the page with textContent, never as markup. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("cabo-timeline-data").textContent);
  var steps = data.steps;
  var FACE_UP = 1, OWNER_BLIND = 2, CHANGED = 4;
  var current = 0;
  var jumpButtons = [];   // [button, test]: disabled when no later step passes the test

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function valueColour(v) {
    var t = Math.max(0, Math.min(13, v)) / 13;
    return "hsl(" + Math.round(130 - 130 * t) + ", 60%, 48%)";
  }
  function cardBox(label, value, flags) {
    var box = el("div", "card");
    if (label === null) {
      box.classList.add("down");
      box.title = "face down: not seen";
    } else {
      box.textContent = label;
      if (/[\u2665\u2666]$/.test(label)) { box.classList.add("red"); }
      if (value !== null) {
        box.style.borderBottomColor = valueColour(value);
        box.title = "value " + value;
      }
    }
    if (flags & FACE_UP) { box.classList.add("up"); box.title += " (lies face up)"; }
    if (flags & OWNER_BLIND) { box.classList.add("blind"); box.title += " (its owner does not know it)"; }
    if (flags & CHANGED) { box.classList.add("changed"); }
    return box;
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  // One line of what this step changed against the one before: cards, piles, scores.
  function whatChanged(i) {
    var s = steps[i], before = i > 0 ? steps[i - 1] : null, parts = [];
    s.rows.forEach(function (row) {
      var moved = [];
      row.cards.forEach(function (c, pos) { if (c[2] & CHANGED) { moved.push(pos); } });
      if (moved.length) {
        parts.push(row.p + "'s card" + (moved.length === 1 ? " " : "s ") + moved.join(", "));
      }
    });
    if (before !== null) {
      before.rows.forEach(function (row) {
        var now = s.rows.filter(function (r) { return r.p === row.p; })[0];
        if (now && now.cards.length !== row.cards.length) {
          parts.push(row.p + ": " + row.cards.length + " \u2192 " + plural(now.cards.length, "card"));
        }
      });
      if (s.top !== before.top) {
        parts.push("discard top " + (before.top === null ? "none" : before.top) + " \u2192 " +
                   (s.top === null ? "none" : s.top));
      }
      if (s.deck !== before.deck) { parts.push("draw pile " + before.deck + " \u2192 " + s.deck); }
      Object.keys(s.scores).forEach(function (p) {
        var d = s.scores[p] - (before.scores[p] || 0);
        if (d) { parts.push(p + " score " + (d > 0 ? "+" : "") + d + " = " + s.scores[p]); }
      });
      s.out.forEach(function (p) {
        if (before.out.indexOf(p) < 0) { parts.push(p + " forfeited"); }
      });
    }
    if (s.held !== null && (before === null || before.held === null)) {
      parts.push(s.held.p + " holds a card");
    }
    return parts.length ? parts.join(" \u00b7 ") : "nothing on the table";
  }

  // --- the step view ------------------------------------------------------------------------
  var slider = $("step-slider");
  function render(i) {
    var s = steps[i];
    current = i;
    slider.value = String(i);
    $("step-where").textContent = "step " + s.n + " of " + steps.length + " \u00b7 line " + s.line;
    var story = $("step-story");
    story.textContent = "";
    var badge = el("span", "kind", s.kind);
    badge.style.background = data.kindColours[s.kind] || "#888";
    story.appendChild(badge);
    story.appendChild(document.createTextNode(s.text));
    var marked = data.analysis ? data.analysis.marks[String(s.n)] : null;
    if (marked) {  // timeline --analyse: this step's decision gave points away
      var note = el("span", "mark", " " + marked.mark + " " + marked.text);
      note.style.color = data.analysis.colours[marked.mark] || "#d62728";
      note.style.fontWeight = "bold";
      story.appendChild(note);
    }
    var changes = $("step-changes");
    if (!changes) {
      changes = el("p", "changes");
      changes.id = "step-changes";
      story.parentNode.insertBefore(changes, story.nextSibling);
    }
    changes.textContent = "";
    changes.appendChild(el("b", null, "changed:"));
    changes.appendChild(document.createTextNode(whatChanged(i)));
    if (window.history && window.history.replaceState && location.hash !== "#seq=" + s.n) {
      window.history.replaceState(null, "", "#seq=" + s.n);
    }

    var status = "Round " + s.round + (data.sheet ? "" : " \u00b7 turn " + s.turn);
    if (s.toPlay !== null) { status += " \u00b7 " + s.toPlay + " to play"; }
    if (s.caller !== null) { status += " \u00b7 " + s.caller + " called Cabo"; }
    if (s.roundEnd !== null) { status += " \u00b7 round over"; }
    $("step-status").textContent = status;

    var rows = $("step-rows");
    rows.textContent = "";
    s.rows.forEach(function (row) {
      var line = el("div", "row");
      if (row.p === s.toPlay) { line.classList.add("to-play"); }
      if (row.p === s.actor) { line.classList.add("actor"); }
      var who = el("div", "who", row.p);
      if (row.p === s.toPlay) { who.appendChild(el("span", "tag turn", "to play")); }
      if (row.p === s.caller) { who.appendChild(el("span", "tag cabo", "Cabo")); }
      line.appendChild(who);
      var cards = el("div", "cards");
      row.cards.forEach(function (c, pos) {
        var slot = el("div", "slot");
        slot.appendChild(cardBox(c[0], c[1], c[2]));
        slot.appendChild(el("span", "pos", pos));
        cards.appendChild(slot);
      });
      if (s.held !== null && s.held.p === row.p) {
        var slot = el("div", "slot");
        var box = cardBox(s.held.c, s.held.v, 0);
        box.classList.add("changed");
        slot.appendChild(box);
        slot.appendChild(el("span", "pos", "held"));
        cards.appendChild(slot);
      }
      if (row.cards.length === 0) { cards.appendChild(el("div", "card empty")); }
      line.appendChild(cards);
      var nums = el("div", "nums");
      var total = s.totals[row.p];
      if (total) {
        var what = data.viewer === null ? "hand " : "seen ";
        nums.appendChild(document.createTextNode(what));
        nums.appendChild(el("b", null, total[0]));
        if (total[1] > 0) { nums.appendChild(document.createTextNode(" + " + total[1] + " unseen")); }
        nums.appendChild(el("br"));
      }
      nums.appendChild(document.createTextNode("score "));
      nums.appendChild(el("b", null, s.scores[row.p]));
      line.appendChild(nums);
      rows.appendChild(line);
    });
    s.out.forEach(function (p) {
      var line = el("div", "row");
      var who = el("div", "who", p);
      who.appendChild(el("span", "tag out", "left"));
      line.appendChild(who);
      line.appendChild(el("div", "cards"));
      line.appendChild(el("div", "nums"));
      rows.appendChild(line);
    });

    var centre = $("step-centre");
    centre.textContent = "";
    if (data.sheet) {   // a score sheet shows the rows at a round's end, no piles
      jumpButtons.forEach(function (j) { j[0].disabled = nextWhere(j[1]) === null; });
      moveCursor(s.n);
      return;
    }
    var pile = el("div", "pile");
    pile.appendChild(s.top === null ? el("div", "card empty") : cardBox(s.top, s.topValue, 0));
    pile.appendChild(el("span", null, "discard (" + s.pile + ")"));
    centre.appendChild(pile);
    var deck = el("div", "pile");
    deck.appendChild(s.deck > 0 ? cardBox(null, null, 0) : el("div", "card empty"));
    deck.appendChild(el("span", null, "draw pile: " + plural(s.deck, "card")));
    centre.appendChild(deck);
    jumpButtons.forEach(function (j) { j[0].disabled = nextWhere(j[1]) === null; });
    moveCursor(s.n);
  }

  function go(i) {
    if (!steps.length) { return; }
    render(Math.max(0, Math.min(steps.length - 1, i)));
  }
  function fromHash() {   // #seq=N: the step of the event with that seq (0 = the header)
    var m = /seq=(\d+)/.exec(location.hash || "");
    return m ? stepIndex(Math.max(1, Number(m[1]))) : null;
  }
  function nextWhere(test) {
    for (var i = current + 1; i < steps.length; i++) { if (test(steps[i])) { return i; } }
    return null;
  }
  function stepIndex(n) {
    for (var i = 0; i < steps.length; i++) { if (steps[i].n >= n) { return i; } }
    return steps.length - 1;
  }

  // --- charts -------------------------------------------------------------------------------
  var cursorPending = null;
  function moveCursor(n) {
    var div = $("chart-events");
    if (!window.Plotly || !div || !div.data) { return; }
    if (cursorPending === null) {
      window.requestAnimationFrame(function () {
        var at = cursorPending;
        cursorPending = null;
        var update = { "shapes[0].x0": at, "shapes[0].x1": at };
        var axis = div.layout.xaxis || {};
        var range = axis.range;
        if (range && axis.autorange === false && (at < range[0] || at > range[1])) {
          var half = (range[1] - range[0]) / 2;   // zoomed in: keep the cursor in view
          update["xaxis.range"] = [at - half, at + half];
        }
        window.Plotly.relayout(div, update);
      });
    }
    cursorPending = n;
  }
  function drawCharts() {
    var config = { displaylogo: false, responsive: true,
                   modeBarButtonsToRemove: ["select2d", "lasso2d", "autoScale2d"] };
    Object.keys(data.figures).forEach(function (key) {
      var div = $("chart-" + key);
      var fig = data.figures[key];
      if (!div) { return; }
      if (!window.Plotly) {
        div.appendChild(el("div", "notice", "The chart needs plotly.js, which could not be " +
                                            "loaded (this page links it online)."));
        return;
      }
      window.Plotly.newPlot(div, fig.data, fig.layout, config).then(function () {
        div.on("plotly_click", function (ev) {
          if (ev && ev.points && ev.points.length && ev.points[0].customdata) {
            go(stepIndex(ev.points[0].customdata));
          }
        });
        if (key === "events" && steps.length) { moveCursor(steps[current].n); }
      });
    });
  }

  // --- wiring -------------------------------------------------------------------------------
  if (steps.length) {
    slider.max = String(steps.length - 1);
    slider.addEventListener("input", function () { go(Number(slider.value)); });
    $("step-first").addEventListener("click", function () { go(0); });
    $("step-prev").addEventListener("click", function () { go(current - 1); });
    $("step-next").addEventListener("click", function () { go(current + 1); });
    $("step-last").addEventListener("click", function () { go(steps.length - 1); });
    var select = $("step-round");
    var seen = {};
    steps.forEach(function (s, i) {
      if (s.round && !seen[s.round]) {
        seen[s.round] = true;
        var option = el("option", null, "round " + s.round);
        option.value = String(i);
        select.appendChild(option);
      }
    });
    select.addEventListener("change", function () {
      if (select.value !== "") { go(Number(select.value)); }
    });
    var jumps = el("span", "jumps");
    [["next Cabo call", function (s) { return s.kind === "cabo"; }],
     ["next power", function (s) { return s.kind === "power"; }],
     ["next round", function (s) { return s.type === "deal"; }]].forEach(function (j) {
      var button = el("button", null, j[0] + " \u203a");
      button.type = "button";
      button.addEventListener("click", function () {
        var at = nextWhere(j[1]);
        if (at !== null) { go(at); }
      });
      jumps.appendChild(button);
      jumpButtons.push([button, j[1]]);
    });
    select.parentNode.insertBefore(jumps, select.nextSibling);
    window.addEventListener("hashchange", function () {
      var at = fromHash();
      if (at !== null && at !== current) { go(at); }
    });
    document.addEventListener("keydown", function (ev) {
      var tag = (ev.target && ev.target.tagName) || "";
      if (tag === "SELECT" || tag === "INPUT" && ev.target !== slider) { return; }
      if (ev.target === slider) { return; }  // the slider handles its own arrow keys
      if (ev.key === "ArrowRight") { go(current + 1); ev.preventDefault(); }
      else if (ev.key === "ArrowLeft") { go(current - 1); ev.preventDefault(); }
      else if (ev.key === "Home") { go(0); ev.preventDefault(); }
      else if (ev.key === "End") { go(steps.length - 1); ev.preventDefault(); }
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-step]"), function (node) {
      node.addEventListener("click", function () {
        go(stepIndex(Number(node.getAttribute("data-step"))));
      });
    });
    var start = fromHash();
    go(start === null ? 0 : start);
  } else {
    $("step-story").textContent = "The log has no events after its header.";
  }
  drawCharts();
  window.caboTimeline = { go: go, current: function () { return current; }, steps: steps.length };
})();
