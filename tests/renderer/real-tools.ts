// Tools and extensions on the real core, for renderer tests: tools registered as an extension's (without its worker),
// the bundled extensions (with their workers) when a test is about them, and waiting for the core to reach a state.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import type { ExtensionInfo } from '../../shared/contract/events';
import type { ExecuteResult } from '../../electron/core/registry-port';
import type { RealHost } from './real-host';

/** The app's bundled extensions (dice-and-stats, knowledge-base, scratchpad): each starts a worker (about 1.5 s a core). */
export const BUNDLED_EXTENSIONS = path.resolve(import.meta.dirname, '../../resources/extensions');

/**
 * Registers a tool in the core's registry as extension `extensionId`'s, the way its worker would (same validation, same
 * ToolInfo, same tools.changed), but answered here by `execute` (a value, or an ExecuteResult when `raw`), so a test
 * about the Tools section does not start a worker. Returns the qualified name.
 */
export function registerExtensionTool(
  host: RealHost,
  extensionId: string,
  dto: Record<string, unknown>,
  execute: (args: Record<string, unknown>, signal: AbortSignal) => unknown = () => 'done',
): string {
  const registered = host.core.registry.register({ kind: 'extension', id: extensionId }, dto, {
    execute: async (request): Promise<ExecuteResult> => ({ ok: true, value: await execute(request.args, request.signal) }),
  });
  if (!registered.ok) throw new Error(`${extensionId}: ${registered.error.message}`);
  return registered.value.qualifiedName;
}

/** Resolves once `done` holds for the core (checked now and on each of its events); fails after `ms`. */
export function coreReaches(host: RealHost, done: () => boolean, what: string, ms = 10_000): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`the core never reached: ${what}`));
    }, ms);
    const off = host.core.onEvent(() => {
      if (!done()) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** The core's extension `id` as extensions.list reports it. */
export async function extensionOf(host: RealHost, id: string): Promise<ExtensionInfo | undefined> {
  return (await host.arrange('extensions.list', {})).find((e) => e.id === id);
}

/** Waits until every extension the core has is running (bundled workers loaded, their tools registered). */
export async function allRunning(host: RealHost, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const list = await host.arrange('extensions.list', {});
    if (list.every((e) => e.status === 'running')) return;
    if (Date.now() > deadline) throw new Error(`extensions not running: ${list.map((e) => `${e.id} ${e.status}`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Tool definitions (as a worker registers them) for the Tools tests. */
export const SEARCH_DTO = {
  name: 'search_knowledge_base',
  display_name: 'Search Knowledge Base',
  description: 'Searches the extension knowledge base for relevant information',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'Search query' }, limit: { type: 'number', description: 'Max results', default: 5 } },
    required: ['query'],
  },
  mode: 'read',
  council_eligible: true,
};

export const ROLL_DTO = {
  name: 'roll_dice',
  display_name: 'Roll Dice',
  description: 'Rolls dice in standard notation.',
  parameters: {
    type: 'object',
    properties: {
      notation: { type: 'string', description: 'Dice notation, e.g. 2d6+3', maxLength: 100 },
      times: { type: 'integer', default: 1, minimum: 1, maximum: 20 },
    },
    required: ['notation'],
  },
  mode: 'read',
  council_eligible: true,
};

export const APPEND_DTO = {
  name: 'append_note',
  display_name: 'Append to Scratchpad',
  description: 'Appends a short note.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  mode: 'write',
  council_eligible: false,
  requires_approval: true,
  has_simulate: true,
};

export const NOW_DTO = { name: 'now', display_name: 'Current Time', description: 'The time.', parameters: { type: 'object', properties: {} }, mode: 'read' };

export const EVERYTHING_DTO = {
  name: 'everything',
  display_name: 'Every Field Type',
  description: 'Takes one of each.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for' },
      comparison: { type: 'string', enum: ['at_least', 'at_most', 'exactly'], default: 'at_least' },
      limit: { type: 'number', default: 5 },
      times: { type: 'integer' },
      exact: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      range: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' } }, required: ['from'] },
    },
    required: ['query', 'range'],
  },
  mode: 'read',
};

/**
 * From now on, records the answers the renderer receives from `host` for `method` (as delivered: after hold, JSON
 * round trip), in call order. RealHost keeps the calls; this keeps what came back.
 */
export function recordAnswers<M extends MethodName>(host: RealHost, method: M): Array<Result<MethodOutput<M>>> {
  const answers: Array<Result<MethodOutput<M>>> = [];
  const invoke = host.invoke.bind(host);
  host.invoke = (<N extends MethodName>(name: N, input: MethodInput<N>) => {
    const answer = invoke(name, input);
    if (name === (method as MethodName)) void answer.then((result) => answers.push(result as unknown as Result<MethodOutput<M>>));
    return answer;
  }) as RealHost['invoke'];
  return answers;
}

/** The repository's test extensions (tests/fixtures/extensions): install one with extensions.install (copied, workers). */
export const FIXTURE_EXTENSIONS = path.resolve(import.meta.dirname, '../fixtures/extensions');

/** Waits until no extension of the core is starting (each running, crashed, failed or disabled). */
export async function extensionsSettled(host: RealHost, ms = 10_000): Promise<ExtensionInfo[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const list = await host.arrange('extensions.list', {});
    if (list.every((e) => e.status !== 'starting')) return list;
    if (Date.now() > deadline) throw new Error(`extensions still starting: ${list.map((e) => `${e.id} ${e.status}`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const written: string[] = [];

/**
 * Writes an extension folder of the test's own (spindle.json from `manifest`, index.js from `code`) in a temp folder,
 * for extensions.install; removeWrittenExtensions() (afterEach) deletes it. The core installs a copy.
 */
export function writeExtension(manifest: Record<string, unknown>, code: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-ext-'));
  written.push(root);
  const folder = path.join(root, String(manifest.id));
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify({ version: '0.0.1', description: '', main: 'index.js', permissions: ['tools'], ...manifest }, null, 2));
  fs.writeFileSync(path.join(folder, 'index.js'), code);
  return folder;
}

export function removeWrittenExtensions(): void {
  for (const root of written.splice(0)) fs.rmSync(root, { recursive: true, force: true });
}
