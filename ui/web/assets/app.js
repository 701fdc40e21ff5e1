// archlab serve: grows the sequence diagram one step at a time. Buttons,
// and the keys a presenter's clicker sends: Space plays or pauses, → ↓
// PageDown go forward, ← ↑ PageUp go back, Home and End jump; B branches
// here (the state page before the step shown).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("DOMContentLoaded", function () {
    // The language switch keeps the step the class is at.
    var sw = document.getElementById("lang-switch");
    if (sw) {
      sw.addEventListener("click", function () {
        if (sw.tagName === "A") { sw.href = sw.href.split("#")[0] + location.hash; }
        else if (sw.form) { sw.form.action = "/file" + location.hash; }
      });
    }
    var run = document.getElementById("run");
    var total = run ? Number(run.dataset.steps) : 0;
    if (!total) {
      if (run) { run.classList.add("revealed", "done"); }
      return;
    }
    var steps = Array.prototype.slice.call(document.querySelectorAll("#diagram g.step"));
    var notes = Array.prototype.slice.call(document.querySelectorAll("#diagram g.note"));
    var rows = Array.prototype.slice.call(document.querySelectorAll("#rows li"));
    var caption = document.getElementById("caption");
    var counter = document.getElementById("counter");
    var play = document.getElementById("play");
    var cur = 0, timer = null;
    var box = document.getElementById("diagram");
    var svg = box.querySelector("svg");
    // The counters' values, the marks and the lessons are revealed when
    // the run reaches the steps that read them (the verdict phase), the
    // verdict only at the end: the class guesses before the ending.
    var revealAt = total;
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].hasAttribute("data-verdict")) { revealAt = i + 1; break; }
    }
    // The diagram is as wide as its panel (CSS): it never scrolls
    // sideways; a long run scrolls down.
    // The participants stay at the top while the run scrolls under them.
    var heads = svg.querySelector("g.heads");
    function stick() {
      var scale = Number(svg.getAttribute("width")) / svg.getBoundingClientRect().width;
      heads.setAttribute("transform", "translate(0," + (box.scrollTop * scale) + ")");
    }
    box.addEventListener("scroll", stick);

    function show(n) {
      cur = Math.max(0, Math.min(total, n));
      steps.forEach(function (g) {
        var s = Number(g.dataset.step);
        g.classList.toggle("shown", s <= cur);
        g.classList.toggle("current", s === cur);
      });
      notes.forEach(function (g) { g.classList.toggle("shown", Number(g.dataset.step) <= cur); });
      caption.textContent = "";
      if (cur === 0) {
        caption.textContent = caption.dataset.start;
      } else {
        var row = rows[cur - 1];
        Array.prototype.forEach.call(row.children, function (c) { caption.appendChild(c.cloneNode(true)); });
        caption.className = "caption " + row.dataset.tone;
      }
      counter.textContent = cur + " / " + total;
      // Branch here: the state page of the state before this step.
      var branch = document.getElementById("branch");
      if (branch) {
        var to = cur === 0 ? run.dataset.branch : rows[cur - 1].dataset.branch;
        branch.hidden = !to;
        if (to) { branch.href = to; }
      }
      run.classList.toggle("revealed", cur >= revealAt);
      run.classList.toggle("done", cur >= total);
      history.replaceState(null, "", "#step=" + cur);
      if (cur > 0) {
        var g = steps[cur - 1];
        var r = g.getBoundingClientRect(), b = box.getBoundingClientRect();
        var hh = heads.getBoundingClientRect().height;
        if (r.bottom > b.bottom - 8) {
          // Down far enough to show the step's end, never so far that its
          // first line slips under the participants' heads.
          box.scrollTop += Math.min(r.bottom - b.bottom + 16, r.top - b.top - hh - 8);
        } else if (r.top < b.top + hh) {
          box.scrollTop -= b.top + hh - r.top + 16;
        }
        stick(); // now, not at the scroll event's frame: the heads never lag
      }
      if (cur >= total) {
        pause();
        // The payoff in view: the side panel scrolls to the lessons and
        // the verdict (the what-if form, folded to its heading, stays at
        // its foot; style.css).
        var side = document.querySelector(".side"), first = document.getElementById("checks") || document.getElementById("verdict");
        if (side && first) { side.scrollTop += first.getBoundingClientRect().top - side.getBoundingClientRect().top; }
      }
    }
    function pause() {
      if (timer) { clearInterval(timer); timer = null; }
      play.textContent = "▶ " + play.dataset.play;
      play.classList.remove("on");
    }
    function start() {
      if (cur >= total) { show(0); }
      timer = setInterval(function () { show(cur + 1); }, 1500);
      play.textContent = "‖ " + play.dataset.pause;
      play.classList.add("on");
      show(cur + 1);
    }
    function toggle() { if (timer) { pause(); } else { start(); } }

    document.getElementById("next").addEventListener("click", function () { pause(); show(cur + 1); });
    document.getElementById("prev").addEventListener("click", function () { pause(); show(cur - 1); });
    document.getElementById("first").addEventListener("click", function () { pause(); show(0); });
    document.getElementById("last").addEventListener("click", function () { pause(); show(total); });
    play.addEventListener("click", toggle);
    document.addEventListener("keydown", function (e) {
      var t = e.target.tagName;
      if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) { return; }
      switch (e.key) {
        case " ": case "Spacebar": toggle(); break;
        case "ArrowRight": case "ArrowDown": case "PageDown": pause(); show(cur + 1); break;
        case "ArrowLeft": case "ArrowUp": case "PageUp": pause(); show(cur - 1); break;
        case "Home": pause(); show(0); break;
        case "End": pause(); show(total); break;
        case "b": case "B":
          var br = document.getElementById("branch");
          if (!br || br.hidden) { return; }
          location.href = br.href;
          break;
        default: return;
      }
      e.preventDefault();
      if (document.activeElement && document.activeElement.tagName === "BUTTON") { document.activeElement.blur(); }
    });
    var m = /^#step=(\d+)$/.exec(location.hash);
    show(m ? Number(m[1]) : 0);
  });
})();
