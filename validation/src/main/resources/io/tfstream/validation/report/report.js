(function () {
  'use strict';
  var filter = document.getElementById('filter');
  var sort = document.getElementById('sort');
  var reverse = document.getElementById('reverse');
  var chart = document.getElementById('chart');
  var shown = document.getElementById('shown');
  var tables = Array.prototype.slice.call(document.querySelectorAll('table.features'));

  // Numbers sort largest first, features without one last; names sort A to Z; ties by name.
  function compare(key) {
    return function (a, b) {
      var na = a.getAttribute('data-name');
      var nb = b.getAttribute('data-name');
      if (key !== 'name') {
        var x = parseFloat(a.getAttribute('data-' + key));
        var y = parseFloat(b.getAttribute('data-' + key));
        var xn = isNaN(x);
        var yn = isNaN(y);
        if (xn !== yn) return xn ? 1 : -1;
        if (!xn && x !== y) return y - x;
      }
      return na < nb ? -1 : na > nb ? 1 : 0;
    };
  }

  function apply() {
    var q = filter.value.trim().toLowerCase();
    var visible = 0;
    var all = 0;
    tables.forEach(function (t) {
      var bodies = Array.prototype.slice.call(t.tBodies);
      bodies.sort(compare(sort.value));
      if (reverse.checked) bodies.reverse();
      var count = 0;
      bodies.forEach(function (b) {
        t.appendChild(b);
        var hide = q !== '' && b.getAttribute('data-name').toLowerCase().indexOf(q) < 0;
        b.hidden = hide;
        if (!hide) count++;
      });
      t.parentNode.querySelector('.count').textContent =
        count === bodies.length ? String(count) : count + ' of ' + bodies.length;
      visible += count;
      all += bodies.length;
    });
    shown.textContent = visible === all ? all + ' features' : visible + ' of ' + all + ' features shown';
  }

  filter.addEventListener('input', apply);
  sort.addEventListener('change', apply);
  reverse.addEventListener('change', apply);
  chart.addEventListener('change', function () {
    document.body.setAttribute('data-chart', chart.value);
  });
  apply();
})();
