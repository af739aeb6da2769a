// Runs regex scripts' patterns on a thread of their own, each pass under a time limit. A script is a stranger's
// pattern: one that backtracks without end ("(a+)+$") would otherwise hold the host's thread for good. The limit is
// V8's own interrupt (vm's timeout stops a running regex); a thread that still does not answer is ended and started
// again. Lumiverse runs its patterns in a worker for the same reason.
import { Worker } from 'node:worker_threads';

/** One script's pass over a batch of texts (Lumiverse gives a script 500 ms a message; a batch gets twice that). */
export const REGEX_PASS_TIMEOUT_MS = 1_000;
/** After the pass's own limit, how long the thread has to answer before it is ended. */
const GRACE_MS = 2_000;

/** Where a pattern matched in a text, and the replacement template with that match's captures put in. */
export interface RegexMatch {
  index: number;
  length: number;
  replacement: string;
}

export type RegexPassError = { kind: 'timeout' | 'invalid' | 'stopped'; message: string };

export class RegexPassFailure extends Error {
  constructor(readonly failure: RegexPassError) {
    super(failure.message);
  }
}

interface Pass {
  op: 'replace' | 'matches';
  pattern: string;
  flags: string;
  replacement: string;
  texts: string[];
}

// CommonJS, evaluated in the worker. `substitute` is String.prototype.replace's template language ($$, $&, $`, $',
// $n, $nn, $<name>), so a match's replacement can be handed back before macros see it (Lumiverse's "raw" mode).
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const context = vm.createContext({ pass: null, result: null });
const run = new vm.Script('result = work(pass)');
vm.runInContext(${JSON.stringify(workInContext())}, context);
parentPort.on('message', ({ id, pass }) => {
  context.pass = pass;
  try {
    run.runInContext(context, { timeout: workerData.timeoutMs });
    parentPort.postMessage({ id, ok: true, value: context.result });
  } catch (err) {
    const timeout = err && err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    parentPort.postMessage({ id, ok: false, kind: timeout ? 'timeout' : 'invalid', message: String(err && err.message) });
  } finally {
    context.pass = null;
    context.result = null;
  }
});
`;

/** The code the pass runs inside the limited context (plain JavaScript, no host objects). */
function workInContext(): string {
  return `
function substitute(template, match, groups, offset, input, named) {
  return template.replace(/\\$(\\$|&|\`|'|<([^>]*)>|(\\d\\d?))/g, (all, token, name, digits) => {
    if (token === '$') return '$';
    if (token === '&') return match;
    if (token === '\`') return input.slice(0, offset);
    if (token === "'") return input.slice(offset + match.length);
    if (name !== undefined) return named ? (named[name] ?? '') : all;
    let n = Number(digits);
    if (n >= 1 && n <= groups.length) return groups[n - 1] ?? '';
    if (digits.length === 2 && Number(digits[0]) >= 1 && Number(digits[0]) <= groups.length) return (groups[Number(digits[0]) - 1] ?? '') + digits[1];
    return all;
  });
}
function work(pass) {
  const re = new RegExp(pass.pattern, pass.flags);
  if (pass.op === 'replace') return pass.texts.map((text) => text.replace(re, pass.replacement));
  return pass.texts.map((text) => {
    const found = [];
    text.replace(re, (...args) => {
      const named = typeof args[args.length - 1] === 'object' ? args.pop() : undefined;
      const input = args.pop();
      const offset = args.pop();
      const match = args.shift();
      found.push({ index: offset, length: match.length, replacement: substitute(pass.replacement, match, args, offset, input, named) });
      return match;
    });
    return found;
  });
}
`;
}

interface Waiting {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class RegexSandbox {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly timeoutMs = REGEX_PASS_TIMEOUT_MS) {}

  /** Each text with the pattern's matches replaced, as String.prototype.replace does. */
  replace(pattern: string, flags: string, replacement: string, texts: string[]): Promise<string[]> {
    return this.run({ op: 'replace', pattern, flags, replacement, texts }) as Promise<string[]>;
  }

  /** Each text's matches, with the template's captures substituted for each. */
  matches(pattern: string, flags: string, template: string, texts: string[]): Promise<RegexMatch[][]> {
    return this.run({ op: 'matches', pattern, flags, replacement: template, texts }) as Promise<RegexMatch[][]>;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll({ kind: 'stopped', message: 'The regex thread was closed.' });
    await worker?.terminate();
  }

  private run(pass: Pass): Promise<unknown> {
    if (this.closed) return Promise.reject(new RegexPassFailure({ kind: 'stopped', message: 'The regex thread was closed.' }));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // The thread's own limit did not stop it (a pass queued behind a slow one counts from when it was sent).
      const timer = setTimeout(() => this.restart(`a pass did not end within ${this.timeoutMs + GRACE_MS} ms`), this.timeoutMs * (this.waiting.size + 1) + GRACE_MS);
      timer.unref?.();
      this.waiting.set(id, { resolve, reject, timer });
      worker.postMessage({ id, pass });
    });
  }

  private start(): Worker {
    const worker = new Worker(SOURCE, { eval: true, workerData: { timeoutMs: this.timeoutMs } });
    worker.unref();
    worker.on('message', (answer: { id: number; ok: boolean; value?: unknown; kind?: RegexPassError['kind']; message?: string }) => {
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      clearTimeout(waiting.timer);
      if (answer.ok) waiting.resolve(answer.value);
      else waiting.reject(new RegexPassFailure({ kind: answer.kind ?? 'invalid', message: answer.message ?? 'The pattern failed.' }));
    });
    worker.on('error', (err) => this.restart(err.message));
    worker.on('exit', () => {
      if (this.worker === worker) this.restart('the regex thread exited');
    });
    this.worker = worker;
    return worker;
  }

  private restart(why: string): void {
    const worker = this.worker;
    this.worker = null;
    this.failAll({ kind: 'timeout', message: `The regex thread was restarted: ${why}.` });
    void worker?.terminate();
  }

  private failAll(failure: RegexPassError): void {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new RegexPassFailure(failure));
      this.waiting.delete(id);
    }
  }
}
