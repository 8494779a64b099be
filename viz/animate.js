// The player: shows frame i of DATA.frames (time, label, map and legend)
// and steps, plays and seeks. It reads nothing but the page itself.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("data").textContent);
  var frames = DATA.frames;
  var $ = function (id) { return document.getElementById(id); };
  var slider = $("slider"), play = $("play"), speed = $("speed"), map = $("map");
  var cur = 0, timer = null;
  slider.max = String(frames.length - 1);

  // A relation letter's color, the same for every frame.
  function hue(ch) {
    var c = ch.toLowerCase().charCodeAt(0);
    if (ch === "#") return "hsl(0, 0%, 45%)";
    return "hsl(" + ((c - 97) * 137 % 360) + ", 65%, 38%)";
  }

  // The map as text nodes, with the letters of its page rows colored: the
  // map's textContent is exactly show pool's text.
  function drawMap(text) {
    map.textContent = "";
    var lines = text.split("\n");
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i] + (i < lines.length - 1 ? "\n" : "");
      var m = /^( *\d+ page  )(.*)$/s.exec(line);
      if (!m) { map.appendChild(document.createTextNode(line)); continue; }
      map.appendChild(document.createTextNode(m[1]));
      var cells = m[2], j = 0;
      while (j < cells.length) {
        var k = j;
        while (k < cells.length && cells[k] === cells[j]) k++;
        var ch = cells[j];
        if (ch === "." || ch === "\n" || ch === " ") {
          map.appendChild(document.createTextNode(cells.slice(j, k)));
        } else {
          var s = document.createElement("span");
          s.style.color = hue(ch);
          if (ch !== ch.toLowerCase()) s.className = "dirty";
          s.textContent = cells.slice(j, k);
          map.appendChild(s);
        }
        j = k;
      }
    }
  }

  function show(i) {
    cur = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[cur];
    $("counter").textContent = (cur + 1) + " / " + frames.length;
    $("time").textContent = f.t;
    $("recorded").textContent = f.n + " of " + DATA.recorded;
    $("label").textContent = f.l;
    drawMap(f.m + "\n" + DATA.legends[f.g]);
    slider.value = String(cur);
  }

  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = "play";
  }

  function start() {
    if (cur === frames.length - 1) show(0);
    pause();
    play.textContent = "pause";
    timer = setInterval(function () {
      if (cur >= frames.length - 1) { pause(); return; }
      show(cur + 1);
    }, 1000 / Number(speed.value));
  }

  $("prev").addEventListener("click", function () { pause(); show(cur - 1); });
  $("next").addEventListener("click", function () { pause(); show(cur + 1); });
  play.addEventListener("click", function () { if (timer === null) start(); else pause(); });
  slider.addEventListener("input", function () { pause(); show(Number(slider.value)); });
  speed.addEventListener("change", function () { if (timer !== null) start(); });
  document.addEventListener("keydown", function (e) {
    if (e.target === speed) return;
    if (e.key === "ArrowLeft") { pause(); show(cur - 1); }
    else if (e.key === "ArrowRight") { pause(); show(cur + 1); }
    else if (e.key === "Home") { pause(); show(0); }
    else if (e.key === "End") { pause(); show(frames.length - 1); }
    else if (e.key === " ") { if (timer === null) start(); else pause(); }
    else return;
    e.preventDefault();
  });
  show(0);
})();
