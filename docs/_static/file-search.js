// Opened from file://, the browser blocks fetch() of another file, which Sphinx's search
// page uses for the summary under each result: list the results without it there.
if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined") {
  DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
}
