// Lint rules: typescript-eslint's type-checked recommendations, with formatting left to Prettier.
// Every rule turned off or relaxed below says why on the line; an `eslint-disable` comment must give its
// reason after ` -- ` on the same line (the local rule `house/disable-needs-reason`).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Reports `eslint-disable` / `eslint-disable-next-line` / `eslint-disable-line` comments without ` -- reason`. */
const disableNeedsReason = {
  meta: {
    type: 'suggestion',
    messages: { reason: 'Give the reason on the same line: `eslint-disable… rule -- why`.' },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const text = comment.value.trim();
          if (/^eslint-disable(-next-line|-line)?\b/.test(text) && !/\s--\s*\S/.test(text)) {
            context.report({ loc: comment.loc, messageId: 'reason' });
          }
        }
      },
    };
  },
};

export default tseslint.config(
  // bench/experiments/: one-off measurements, run by hand and not kept in step with the code (bench/README.md).
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'ui/dist/', 'bench/results/', 'bench/experiments/'] },
  // Written by `npm run ui:api-types` from /openapi.json.
  { ignores: ['ui/src/api/schema.d.ts'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // scripts/*.mjs run without a build step (npm start's prestart), so they are outside tsconfig.json.
        projectService: { allowDefaultProject: ['scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { house: { rules: { 'disable-needs-reason': disableNeedsReason } } },
    rules: {
      'house/disable-needs-reason': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify plugins, bus and model implementations are `async` to satisfy Promise-returning interfaces
      // (a throw becomes a rejection); requiring an `await` in each would only add noise.
      '@typescript-eslint/require-await': 'off',
      // Passing on a caught error or an AbortSignal's reason keeps what the caller gave; a literal string or
      // object is still reported.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // A `let` read by a closure made before its one assignment (a run's callbacks refer to the run) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `_name` marks a value left out on purpose (e.g. a field dropped by destructuring with a rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read untyped JSON bodies (`res.json()`, SSE frames) and assert them field by field; typing every
      // body would restate the API schemas in the tests. See docs/decisions/0032-lint-rules.md.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // `expect(fake.method).toHaveBeenCalled()` passes a method without calling it; vitest never calls it.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The dashboard's Vite config is typechecked by its own project (Node types, no DOM).
    files: ['ui/vite.config.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './ui/tsconfig.node.json' } },
  },
  {
    files: ['ui/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // A missing dependency is a stale closure (a bug), not a style point: `npm run lint` fails on it.
      'react-hooks/exhaustive-deps': 'error',
      // It only says that React Compiler, which this build does not run, would skip a component using TanStack Virtual.
      'react-hooks/incompatible-library': 'off',
    },
  },
  prettier,
);
