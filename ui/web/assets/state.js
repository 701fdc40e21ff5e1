// archlab serve, a state page: the keyboard picks the next step. A number
// picks the action with that number (type two digits quickly for 10 and
// up); Backspace goes one step back; a step of the diagram, clicked, opens
// the state before it; ? opens the help. Every state is a URL, so the
// browser's own Back works too.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var page = document.getElementById("state");
    if (!page) { return; }
    var actions = Array.prototype.slice.call(document.querySelectorAll("#actions > li"));
    var typed = "", timer = null;

    // pick takes action n: follows its link, or focuses its number.
    function pick(n) {
      var li = actions[n - 1];
      if (!li) { return; }
      var a = li.querySelector("a.act");
      if (a) { location.href = a.href; return; }
      var input = li.querySelector("input[type=number]");
      if (input) { input.focus(); input.select(); }
    }
    // digit collects a number: it is taken at once when no longer number
    // starts with it, else after a short pause.
    function digit(d) {
      typed += d;
      if (timer) { clearTimeout(timer); timer = null; }
      var n = Number(typed);
      if (n * 10 > actions.length || typed.length >= 2) {
        typed = "";
        pick(n);
        return;
      }
      timer = setTimeout(function () { typed = ""; timer = null; pick(n); }, 700);
    }

    document.addEventListener("keydown", function (e) {
      var t = e.target.tagName;
      if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) {
        if (e.key === "Escape" && t === "INPUT") { e.target.blur(); }
        return;
      }
      if (/^[0-9]$/.test(e.key)) {
        digit(e.key);
      } else if (e.key === "Backspace") {
        if (!page.dataset.parent) { return; }
        location.href = page.dataset.parent;
      } else if (e.key === "?") {
        var help = document.getElementById("help");
        if (help) { help.open = !help.open; }
      } else {
        return;
      }
      e.preventDefault();
    });

    // A step of the diagram opens the state before it: branch there.
    var rows = {};
    Array.prototype.forEach.call(document.querySelectorAll("#rows li"), function (li) {
      rows[li.dataset.step] = li.dataset.branch;
    });
    Array.prototype.forEach.call(document.querySelectorAll("#diagram g.step"), function (g) {
      var to = rows[g.dataset.step];
      if (!to) { return; }
      g.classList.add("link");
      g.addEventListener("click", function () { location.href = to; });
    });
    // The last step's rows are in view: the end of the last one, and as
    // much before it as fits. Again once the fonts have loaded, which
    // changes the diagram's height.
    // Each diagram's participants stay at its top while it scrolls, as
    // on a drill's page: a state page names its lifelines at every step.
    function headsOf(box) {
      var svg = box.querySelector("svg");
      return svg ? svg.querySelector("g.heads") : null;
    }
    Array.prototype.forEach.call(document.querySelectorAll(".diagram"), function (box) {
      if (!headsOf(box)) { return; }
      box.addEventListener("scroll", function () { stick(box); });
    });
    function stick(box) {
      var svg = box.querySelector("svg"), heads = headsOf(box);
      if (!heads) { return; }
      var scale = Number(svg.getAttribute("width")) / svg.getBoundingClientRect().width;
      heads.setAttribute("transform", "translate(0," + (box.scrollTop * scale) + ")");
    }
    function reveal() {
      var cur = document.querySelectorAll("#diagram g.step.current");
      var box = document.getElementById("diagram");
      if (!cur.length || !box) { return; }
      var first = cur[0].getBoundingClientRect(), last = cur[cur.length - 1].getBoundingClientRect();
      var b = box.getBoundingClientRect();
      var heads = headsOf(box), hh = heads ? heads.getBoundingClientRect().height : 0;
      if (last.bottom > b.bottom) {
        box.scrollTop += Math.min(last.bottom - b.bottom + 16, first.top - b.top - hh - 8);
      }
      stick(box);
    }
    reveal();
    if (document.fonts && document.fonts.ready) { document.fonts.ready.then(reveal); }
  });
})();
