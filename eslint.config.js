import js from "@eslint/js";
import stylistic from "@stylistic/eslint-plugin";
import tseslint from "typescript-eslint";

/** Prettier's print width (.prettierrc.json): the lines it cannot break (strings, comments) are held to it here. */
const PRINT_WIDTH = 140;

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "examples/demo/engine/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ["{src,bot,action,harness,test,bench,scripts}/**/*.{ts,mjs}", "*.{ts,js}"],
    ignores: ["**/fixtures/**"],
    plugins: { "@stylistic": stylistic },
    rules: { "@stylistic/max-len": ["error", { code: PRINT_WIDTH, tabWidth: 2 }] },
  },
);
