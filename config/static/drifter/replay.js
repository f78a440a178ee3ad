// The replay viewer's keys: ← and → step, Home and End jump (the links do the work, so the
// viewer works without this file too).
document.addEventListener("keydown", (event) => {
  const tag = (event.target && event.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) {
    return;
  }
  const ids = { ArrowLeft: "prev-step", ArrowRight: "next-step", Home: "first-step", End: "last-step" };
  const link = ids[event.key] && document.getElementById(ids[event.key]);
  if (link) {
    event.preventDefault();
    link.click();
  }
});
