// The host ⇄ build-runner exchange: one job in on stdin, one answer out on stdout (electron/worker/build-runner.ts).

export interface BuildJob {
  /** The extension's folder (absolute); nothing outside it may be read. */
  folder: string;
  /** The entry to build, inside the folder. */
  source: string;
  /** esbuild's JavaScript API (its lib/main.js), chosen by the host. */
  esbuild: string;
  /** A backend runs on Node; a frontend in the browser (Lumiverse: `--target bun` / `--target browser`). */
  platform: 'node' | 'browser';
}

/** An esbuild message as it crosses: what and where. */
export interface BuildMessage {
  text: string;
  location?: { file: string; line: number; column: number } | null;
}

interface AnswerFacts {
  /** Lines for the install's progress (a tsconfig.json ignored, and why). */
  notes: string[];
  /** The runner ran under Node's permission model. */
  contained: boolean;
}

export type BuildAnswer = AnswerFacts & ({ ok: true; code: string; warnings: BuildMessage[] } | { ok: false; errors: BuildMessage[] });
