// The balance page's progress: polls the job (data-poll) every second and reloads the
// page when it is finished or lost. A static file: the Content-Security-Policy runs no
// inline script.
document.addEventListener("DOMContentLoaded", () => {
  const bar = document.getElementById("balance-progress");
  const count = document.getElementById("balance-count");
  if (!bar || !bar.dataset.poll) return;
  function poll() {
    fetch(bar.dataset.poll, { credentials: "same-origin" })
      .then((r) => r.json())
      .then((s) => {
        bar.value = s.done;
        count.textContent =
          s.done + " of " + s.total + " campaigns played…" + (s.left ? " " + s.left + "." : "");
        if (s.finished || s.stale) {
          window.location.reload();
        } else {
          setTimeout(poll, 1000);
        }
      })
      .catch(() => setTimeout(poll, 3000));
  }
  setTimeout(poll, 1000);
});
