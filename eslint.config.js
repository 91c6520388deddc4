// eslint (flat config): the recommended rules over the pad's own scripts and their tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/**", "static/vendor/**", "staticfiles/**", "node_modules/**", "tests/e2e/vendor/**"] },
  js.configs.recommended,
  {
    files: ["static/frames/**/*.js", "static/notifications/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // Classic scripts: the service worker, the engine's worker and the live pages.
    files: ["static/frames/sw.js", "static/frames/engine/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker, ...globals.worker } },
  },
  {
    files: ["static/frames/live.js", "static/frames/match.js", "static/frames/cards.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // The people pages' classic scripts (the calendar card's Copy button).
    files: ["static/people/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
