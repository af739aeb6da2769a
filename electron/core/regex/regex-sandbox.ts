// Runs regex scripts' patterns on a thread of their own, each pass under a time limit. A script is a stranger's
// pattern: one that backtracks without end ("(a+)+$") would otherwise hold the host's thread for good. The limit is
// V8's own interrupt (vm's timeout stops a running regex); a thread that still does not answer, or runs out of its
// memory, is ended and started again. Lumiverse runs its patterns in a worker for the same reason.
import { Worker } from 'node:worker_threads';

/** A pass's time: Lumiverse gives a script 500 ms a message; a pass gets 1 s, and 5 ms more a text past 200. */
export const REGEX_PASS_TIMEOUT_MS = 1_000;
const PER_TEXT_MS = 5;
/** After the pass's own limit, how long the thread has to answer before it is ended. */
const GRACE_MS = 2_000;
/** What one text may become, what a pass's texts may come to together, and how many matches a text may have. */
export const REGEX_OUTPUT_LIMITS = { maxChars: 4_000_000, maxPassChars: 16_000_000, maxMatches: 20_000 };
/** The thread's heap: a pass that needs more fails, and the thread starts again. */
const HEAP_MB = 512;

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

type Pass =
  | { op: 'replace' | 'matches'; pattern: string; flags: string; replacement: string; texts: string[]; timeoutMs: number }
  | { op: 'trim'; trims: string[]; texts: string[]; timeoutMs: number };

// CommonJS, evaluated in the worker.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const context = vm.createContext({ pass: null, result: null, limits: workerData.limits });
const run = new vm.Script('result = work(pass)');
vm.runInContext(${JSON.stringify(workInContext())}, context);
parentPort.on('message', ({ id, pass }) => {
  context.pass = pass;
  try {
    run.runInContext(context, { timeout: pass.timeoutMs });
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

/**
 * The code a pass runs inside the limited context (plain JavaScript, no host objects). `substitute` is
 * String.prototype.replace's template language ($$, $&, $`, $', $n, $nn, $<name>), so a match's replacement can be
 * handed back before macros see it (Lumiverse's "raw" mode). A sticky pattern starts each text at its beginning.
 */
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
let passChars = 0;
function bounded(text, added) {
  if (text.length > limits.maxChars) throw new Error('its output grew past ' + limits.maxChars + ' characters');
  passChars += added;
  if (passChars > limits.maxPassChars) throw new Error('its output grew past ' + limits.maxPassChars + ' characters in one pass');
  return text;
}
function trimmed(text, trims) {
  let out = text;
  for (const trim of trims) if (trim) while (out.includes(trim)) out = out.split(trim).join('');
  return out;
}
function work(pass) {
  passChars = 0;
  if (pass.op === 'trim') return pass.texts.map((text) => trimmed(text, pass.trims));
  const re = new RegExp(pass.pattern, pass.flags);
  if (pass.op === 'replace') return pass.texts.map((text) => { re.lastIndex = 0; const out = text.replace(re, pass.replacement); return bounded(out, out.length); });
  return pass.texts.map((text) => {
    const found = [];
    let size = text.length;
    re.lastIndex = 0;
    text.replace(re, (...args) => {
      const named = typeof args[args.length - 1] === 'object' ? args.pop() : undefined;
      const input = args.pop();
      const offset = args.pop();
      const match = args.shift();
      const replacement = substitute(pass.replacement, match, args, offset, input, named);
      size += replacement.length - match.length;
      if (found.length >= limits.maxMatches) throw new Error('it matched more than ' + limits.maxMatches + ' times in one text');
      bounded({ length: size }, replacement.length);
      found.push({ index: offset, length: match.length, replacement });
      return match;
    });
    return found;
  });
}
`;
}

interface Waiting {
  pass: Pass;
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout> | null;
}

export class RegexSandbox {
  private worker: Worker | null = null;
  /** Passes sent, oldest first: the thread answers them in order, so the oldest is the one running. */
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly timeoutMs = REGEX_PASS_TIMEOUT_MS) {}

  /** Each text with the pattern's matches replaced, as String.prototype.replace does. */
  replace(pattern: string, flags: string, replacement: string, texts: string[]): Promise<string[]> {
    return this.run({ op: 'replace', pattern, flags, replacement, texts, timeoutMs: this.limit(texts) }) as Promise<string[]>;
  }

  /** Each text's matches, with the template's captures substituted for each. */
  matches(pattern: string, flags: string, template: string, texts: string[]): Promise<RegexMatch[][]> {
    return this.run({ op: 'matches', pattern, flags, replacement: template, texts, timeoutMs: this.limit(texts) }) as Promise<RegexMatch[][]>;
  }

  /** Each text with every trim string taken out until none is left (a script's trim_strings). */
  trim(trims: string[], texts: string[]): Promise<string[]> {
    return this.run({ op: 'trim', trims, texts, timeoutMs: this.limit(texts) }) as Promise<string[]>;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    for (const [id, waiting] of this.waiting) this.settle(id, waiting, new RegexPassFailure({ kind: 'stopped', message: 'The regex thread was closed.' }));
    await worker?.terminate();
  }

  private limit(texts: string[]): number {
    return this.timeoutMs + Math.max(0, texts.length - 200) * PER_TEXT_MS;
  }

  private run(pass: Pass): Promise<unknown> {
    if (this.closed) return Promise.reject(new RegexPassFailure({ kind: 'stopped', message: 'The regex thread was closed.' }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { pass, resolve, reject, timer: null });
      this.send(id);
    });
  }

  private send(id: number): void {
    const waiting = this.waiting.get(id)!;
    const worker = this.worker ?? this.start();
    // The thread's own limit did not stop it: counted from when it was sent, behind what is queued before it.
    const queued = [...this.waiting.values()].filter((w) => w.timer !== null).reduce((sum, w) => sum + w.pass.timeoutMs, 0);
    waiting.timer = setTimeout(() => this.restart(`a pass did not end within its ${waiting.pass.timeoutMs} ms`, 'timeout'), queued + waiting.pass.timeoutMs + GRACE_MS);
    waiting.timer.unref?.();
    worker.postMessage({ id, pass: waiting.pass });
  }

  private start(): Worker {
    const worker = new Worker(SOURCE, { eval: true, workerData: { limits: REGEX_OUTPUT_LIMITS }, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    worker.unref();
    worker.on('message', (answer: { id: number; ok: boolean; value?: unknown; kind?: RegexPassError['kind']; message?: string }) => {
      // A thread ended and replaced may still answer: its passes were sent again to the new one, which answers them.
      const waiting = this.worker === worker ? this.waiting.get(answer.id) : undefined;
      if (!waiting) return;
      if (answer.ok) this.settle(answer.id, waiting, answer.value);
      else this.settle(answer.id, waiting, new RegexPassFailure({ kind: answer.kind ?? 'invalid', message: answer.message ?? 'The pattern failed.' }));
    });
    // Out of its heap, the pass running cost too much, as a pass past its time does; any other end is not the pass's doing.
    worker.on('error', (err: Error & { code?: string }) => {
      if (this.worker === worker) this.restart(err.message, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'timeout' : 'stopped');
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.restart('the regex thread exited', 'stopped');
    });
    this.worker = worker;
    return worker;
  }

  /** The pass running (the oldest) fails as `kind`; the ones queued behind it go to a new thread. */
  private restart(why: string, kind: RegexPassError['kind']): void {
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    const [running, ...queued] = [...this.waiting.keys()];
    if (running === undefined) return;
    this.settle(running, this.waiting.get(running)!, new RegexPassFailure({ kind, message: `The regex thread was restarted: ${why}.` }));
    for (const id of queued) {
      clearTimeout(this.waiting.get(id)!.timer ?? undefined);
      this.waiting.get(id)!.timer = null;
    }
    for (const id of queued) this.send(id);
  }

  private settle(id: number, waiting: Waiting, outcome: unknown): void {
    this.waiting.delete(id);
    if (waiting.timer) clearTimeout(waiting.timer);
    if (outcome instanceof RegexPassFailure) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }
}
