// The battle sheet's "Print this sheet" button (a static file, not an inline onclick:
// the Content-Security-Policy runs no inline script).
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
});
