/**
 * Read by Prism as it loads (so imported before it): the embed asks for tokens itself, so Prism must
 * not scan the page for `code.language-*` elements to highlight on its own.
 */
(globalThis as { Prism?: { manual: boolean } }).Prism = { manual: true };
