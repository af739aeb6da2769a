// Lint: TypeScript rules, security rules, and the folder import rules that keep each runtime in its lane.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import sdl from '@microsoft/eslint-plugin-sdl';
import noUnsanitized from 'eslint-plugin-no-unsanitized';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const banNode = { group: ['node:*'], message: 'Node APIs are not available in this folder.' };
const banElectron = { name: 'electron', message: 'Only electron/main and electron/preload may import electron.' };
const restrict = (paths, patterns = []) => ['error', { paths, patterns }];
const names = (list, message) => list.map((name) => ({ name, message }));

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...sdl.configs.recommended,
  noUnsanitized.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Loopback is the only plain-HTTP/WS address the app ever uses (browser mode, local LLM servers).
      '@microsoft/sdl/no-insecure-url': ['error', { exceptions: ['^(http|ws)://(127\\.0\\.0\\.1|localhost)(:|/|$)', '^http://www\\.w3\\.org/'] }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='loadFile']", message: 'Serve pages from the app:// protocol, never file://.' }],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': restrict([banElectron, ...names(nodeBuiltins, 'shared/ holds runtime-free types and schemas.'), ...names(['react', 'react-dom', 'zustand', 'ws', 'conf', 'electron-store'], 'shared/ must not depend on a runtime.')], [banNode]),
    },
  },
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': restrict(
        [banElectron, ...names(nodeBuiltins, 'The renderer runs in a sandboxed page.')],
        [banNode, { group: ['**/electron/**', '**/electron'], message: 'The renderer talks to the host only through the HostApi.' }],
      ),
    },
  },
  {
    // Extensions' frames: a stranger's page on its own origin; it knows the app only through the frame contract.
    files: ['renderer/frame/**'],
    rules: {
      'no-restricted-imports': restrict(
        [banElectron, ...names(nodeBuiltins, 'Frames run in a sandboxed page.'), ...names(['react', 'react-dom', 'zustand'], 'Frames carry no app code.')],
        [banNode, { group: ['**/electron/**', '**/electron', '**/renderer/src/**', '**/src/**'], message: 'A frame sees only shared/ (the frame contract), never the app or the host.' }],
      ),
    },
  },
  {
    files: ['electron/core/**', 'electron/headless/**'],
    rules: {
      'no-restricted-imports': restrict([banElectron, ...names(['react', 'react-dom', 'zustand'], 'The core has no UI.')], [
        { group: ['**/renderer/**', '**/electron/main/**', '**/electron/preload/**'], message: 'The core must not reach into a door or the UI.' },
      ]),
    },
  },
  {
    files: ['electron/worker/**'],
    rules: {
      'no-restricted-imports': restrict([banElectron], [{ group: ['**/core/**', '**/renderer/**', '**/main/**'], message: 'Workers see only shared/protocol.' }]),
    },
  },
  {
    // The build runner runs at install, in a process of its own; this is about every worker's start.
    files: ['electron/worker/**'],
    ignores: ['electron/worker/build-runner.ts', 'electron/worker/build-tsconfig.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            allowTypeImports: true,
            message:
              "Take it with process.getBuiltinModule('node:…'): importing a builtin builds its ES module view, which reads every export and loads what they pull in (about 10 ms of every worker's start).",
          })),
        },
      ],
    },
  },
  {
    files: ['electron/preload/**'],
    rules: {
      'no-restricted-imports': restrict(names(nodeBuiltins, 'The preload is sandboxed: contextBridge and ipcRenderer only.'), [
        banNode,
        { group: ['**/core/**', '**/renderer/**', '**/main/**'], message: 'The preload sees only electron and shared types.' },
      ]),
    },
  },
  {
    files: ['electron/main/**'],
    rules: {
      'no-restricted-imports': restrict(names(['react', 'react-dom', 'zustand'], 'The main process has no React.'), [
        { group: ['**/renderer/**'], message: 'Main must not import renderer code.' },
      ]),
    },
  },
  {
    files: ['tests/**', 'scripts/**', '*.config.ts', '*.config.js'],
    rules: { '@microsoft/sdl/no-insecure-url': 'off' },
  },
);
