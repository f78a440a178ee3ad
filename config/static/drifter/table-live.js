/* The table page, live (templates/simulator/play/game.html; issue #26).
   - The push channel: a WebSocket to /ws/tables/<id>/ says "hello" with the version the page
     shows and "ping" every TABLE_HEARTBEAT_SECONDS (the seat's person is here). A "table"
     message with a newer version fetches the page's #play again over HTTP (play:live, the same
     Django templates and redaction as the page) and the table talk's lines.
   - While the socket is down: the table's version is polled (GET /api/v1/games/<id>/version/,
     which also says the person is here) every TABLE_POLL_SECONDS, and the socket reconnects
     with a growing backoff.
   - Whose turn: the tab's title says "Your turn — ..." when it is yours; an optional sound
     (WebAudio, off unless the box is ticked; the choice is kept in localStorage).
   - The clock: #play-clock counts down to its data-deadline.
   - The table talk's list shows its newest lines. */
(function () {
  "use strict";

  var root = document.getElementById("table-page");
  if (!root) return;
  var SOUND_KEY = "drifter.turn-sound";
  var live = root.dataset.live === "1";
  var pollEvery = Math.max(1, Number(root.dataset.pollSeconds) || 3) * 1000;
  var beatEvery = Math.max(1, Number(root.dataset.heartbeatSeconds) || 10) * 1000;
  var baseTitle = root.dataset.title || document.title;
  var socket = null;
  var beat = null;
  var poller = null;
  var backoff = 1000;
  var posts = 0; // decisions of the page's own forms in flight: a refetch waits for them
  var pending = null; // true: the table changed meanwhile, fetch it once the answer is in
  var lastStatus = null;

  function play() { return document.getElementById("play"); }

  function shownVersion() {
    var el = play();
    return el ? Number(el.dataset.version) : -1;
  }

  function say(text) {
    var el = document.getElementById("play-live");
    if (el) el.textContent = text;
  }

  // --- whose turn: the title, the sound ---------------------------------------------------

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function chime() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      var ctx = new Ctx();
      [660, 880].forEach(function (freq, i) {
        var osc = ctx.createOscillator();
        var gain = ctx.createGain();
        var start = ctx.currentTime + i * 0.18;
        osc.type = "sine";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
        osc.connect(gain).connect(ctx.destination);
        osc.start(start);
        osc.stop(start + 0.17);
      });
      window.setTimeout(function () { ctx.close(); }, 800);
    } catch (e) { /* no sound where the browser allows none */ }
  }

  function turnChanged() {
    var el = play();
    var status = el ? el.dataset.status : "";
    var mine = status === "your_turn";
    document.title = (mine ? "Your turn — " : "") + baseTitle;
    if (mine && lastStatus !== null && lastStatus !== "your_turn" && soundOn()) chime();
    lastStatus = status;
    tick();
  }

  var box = document.getElementById("turn-sound");
  if (box) {
    box.checked = soundOn();
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (box.checked) chime();
    });
  }

  // --- the clock --------------------------------------------------------------------------

  function left(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s >= 3600) {
      var h = Math.floor(s / 3600);
      return h + " h " + Math.floor((s % 3600) / 60) + " min left";
    }
    var sec = s % 60;
    return Math.floor(s / 60) + ":" + (sec < 10 ? "0" : "") + sec + " left";
  }

  function tick() {
    var clock = document.getElementById("play-clock");
    if (!clock || !clock.dataset.deadline) return;
    var deadline = Date.parse(clock.dataset.deadline);
    if (!isNaN(deadline)) clock.textContent = "· " + left(deadline - Date.now());
  }
  window.setInterval(tick, 1000);

  // --- fetching the table again -----------------------------------------------------------

  // htmx drops a request to an element that has one in flight, so a version announced while
  // the table is being fetched is kept in `latest` and fetched once the answer is in.
  var latest = -1;
  var fetching = false;
  var RETRY_MS = 300;
  var talkFetching = false;
  var talkAgain = false;

  function refresh(version) {
    latest = Math.max(latest, version);
    fetchTable();
    fetchTalk();
  }

  function fetchTable() {
    if (latest <= shownVersion() || fetching || !play()) return;
    if (posts) { pending = true; return; }
    fetching = true;
    var before = shownVersion();
    window.htmx.ajax("GET", root.dataset.liveUrl, { target: "#play", swap: "outerHTML" })
      .finally(function () {
        fetching = false;
        // Never straight again from here: a request htmx drops settles at once, and asking
        // again in the same turn would spin the page; one that brought nothing newer waits.
        window.setTimeout(fetchTable, shownVersion() > before ? 0 : RETRY_MS);
      });
  }

  function fetchTalk() {
    if (!document.getElementById("talk-lines")) return;
    if (talkFetching) { talkAgain = true; return; }
    talkFetching = true;
    talkAgain = false;
    window.htmx.ajax("GET", root.dataset.talkUrl, {
      target: "#talk-lines", select: "#talk-lines", swap: "outerHTML",
    }).finally(function () {
      talkFetching = false;
      if (talkAgain) window.setTimeout(fetchTalk, RETRY_MS);
    });
  }

  // A decision posted from the table's forms and a refetch must not cross: the refetch waits
  // for the decision's answer (which is the newer table) and is dropped if it lands during it.
  var counted = new WeakSet();
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("#play form")) {
      counted.add(event.detail.xhr);
      posts += 1;
    }
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (!counted.has(event.detail.xhr)) return;
    counted.delete(event.detail.xhr);
    posts -= 1;
    if (!posts && pending !== null) { pending = null; fetchTable(); }
  });
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var info = event.detail.pathInfo;
    if (posts && info && info.requestPath === root.dataset.liveUrl) {
      event.detail.shouldSwap = false; // a decision's answer is on its way: it is newer
      pending = true;
    }
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "play") turnChanged();
  });
  // The table talk shows its newest lines: the list is scrolled to its end when it changes.
  function talkToEnd() {
    var lines = document.getElementById("talk-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }
  document.body.addEventListener("htmx:afterSettle", function (event) {
    var id = event.detail.target && event.detail.target.id;
    if (id === "talk" || id === "talk-lines") talkToEnd();
  });
  talkToEnd();

  // --- the push channel, and polling while it is down --------------------------------------

  function startPolling() {
    if (poller) return;
    poller = window.setInterval(function () {
      fetch(root.dataset.versionUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (body) { if (body && body.version > shownVersion()) refresh(body.version); })
        .catch(function () { /* the network is down: the next poll tries again */ });
    }, pollEvery);
  }

  function stopPolling() {
    if (poller) window.clearInterval(poller);
    poller = null;
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + window.location.host + root.dataset.wsPath);
    } catch (e) {
      socket = null;
      startPolling();
      return;
    }
    socket.addEventListener("open", function () {
      backoff = 1000;
      stopPolling();
      say("");
      // The page renders its own table (over HTTP): the version and the talk are all it needs.
      socket.send(JSON.stringify({ type: "hello", version: shownVersion(), game: false }));
      beat = window.setInterval(function () {
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
      }, beatEvery);
    });
    socket.addEventListener("message", function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "table") {
        if (message.version > shownVersion()) refresh(message.version);
        else if (message.talk && message.talk.length) fetchTalk();
      }
    });
    socket.addEventListener("close", function (event) {
      if (beat) window.clearInterval(beat);
      beat = null;
      socket = null;
      if (event.code === 4404) return; // the table is gone, or no longer yours to watch
      say("Live updates paused: checking the table every few seconds.");
      startPolling();
      window.setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 30000);
    });
  }

  turnChanged();
  if (live && window.WebSocket) connect();
  else if (live) startPolling();
})();
