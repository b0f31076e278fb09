// ESLint for the browser client (src/xeri/web/js): plain ES modules, no build step.
// ESLint rather than Biome: @eslint/js's recommended rules plus @stylistic's max-len enforce the project's
// 120-column width without a formatter that would restyle every file; the line width matches ruff's.
import js from "@eslint/js";
import stylistic from "@stylistic/eslint-plugin";
import globals from "globals";

export default [
  { ignores: ["node_modules/**", ".cache/**", "build/**", "dist/**", "test-artifacts/**"] },
  {
    files: ["src/xeri/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    plugins: { "@stylistic": stylistic },
    rules: {
      ...js.configs.recommended.rules,
      "@stylistic/max-len": ["error", { code: 120, ignoreUrls: true }],
    },
  },
];
