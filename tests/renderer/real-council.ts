// The council on the real core, for renderer tests: members from the bundled Lumia packs, tools of a test's own (builtin
// sources registered through real-safety.ts) or the council fixture extension, and gates to hold a tool call open.
import path from 'node:path';
import { act } from 'react';
import { vi } from 'vitest';
import type { CouncilMember } from '../../shared/types/council';
import { BUNDLED_PACKS, RealHost, type RealHostOptions } from './real-host';
import { registerTool } from './real-safety';

/** council-probe (quick, inject, needs_query, wait_forever) and council-crasher: real extension workers. */
export const COUNCIL_EXTENSIONS = path.resolve(import.meta.dirname, '../fixtures/council/extensions');

/** A core with the bundled packs (story-council, craft-circle); `extensions: true` also starts the council fixture extensions. */
export async function councilHost(options: RealHostOptions & { extensions?: boolean } = {}): Promise<RealHost> {
  const { extensions, ...rest } = options;
  const host = await RealHost.start({ bundledPacksDir: BUNDLED_PACKS, ...(extensions ? { bundledExtensionsDir: COUNCIL_EXTENSIONS } : {}), ...rest });
  if (extensions) await host.core.extensions.whenSettled();
  return host;
}

/** Adds a story-council item as a member through the core; returns its id (the core makes ids). */
export async function addMember(host: RealHost, itemId: string, member: Partial<Pick<CouncilMember, 'role' | 'chance' | 'tools'>> = {}, packId = 'story-council'): Promise<string> {
  const { memberId } = await host.arrange('council.addMember', { packId, itemId, ...member });
  return memberId;
}

export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

export interface TestTool {
  source: string;
  name: string;
  displayName: string;
  description?: string;
  mode?: 'read' | 'write';
  councilEligible?: boolean;
  parameters?: Record<string, unknown>;
  execute?: (args: Record<string, unknown>) => unknown;
  /** Instead of execute: the call fails with this error (the tool's own failure, as an extension reports one). */
  fails?: { code: string; message: string };
}

/** A read tool of a builtin source (council eligible unless said otherwise); returns its qualified name. */
export function testTool(host: RealHost, t: TestTool): string {
  const dto = {
    name: t.name,
    display_name: t.displayName,
    description: t.description ?? `${t.displayName}.`,
    parameters: t.parameters ?? { type: 'object', properties: {} },
    mode: t.mode ?? 'read',
    council_eligible: t.councilEligible ?? true,
  };
  if (t.fails) {
    const error = t.fails;
    const registered = host.core.registry.register({ kind: 'builtin', id: t.source }, dto, { execute: async () => ({ ok: false, error }) as never });
    if (!registered.ok) throw new Error(`${t.source}: ${registered.error.message}`);
    return registered.value.qualifiedName;
  }
  return registerTool(
    host,
    t.source,
    dto,
    t.execute,
  );
}

/** The tools the council suites give members: Search Knowledge Base and Roll Dice (both answer at once). */
export function standardTools(host: RealHost, kbAnswer: () => unknown = () => 'Found 2 entries.'): { kb: string; dice: string } {
  const kb = testTool(host, { source: 'knowledge-base', name: 'search_knowledge_base', displayName: 'Search Knowledge Base', description: 'Searches the knowledge base.', execute: kbAnswer });
  const dice = testTool(host, { source: 'dice-and-stats', name: 'roll_dice', displayName: 'Roll Dice', description: 'Rolls dice in standard notation.', execute: () => 'Rolled 7.' });
  return { kb, dice };
}

/**
 * Under the real-core environment URL is Node's and Blob is happy-dom's, so Node's URL.createObjectURL refuses the page's
 * blobs (a browser has one of each). Export links get `blob:` URLs from here instead; the blobs are kept for the test to
 * read. Undone by vi.restoreAllMocks.
 */
export function captureBlobUrls(): Blob[] {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:council-${blobs.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return blobs;
}

/**
 * For while a council run is in flight: settle() waits until the core has answered every call, and council.run answers
 * only when the run ends. This runs `fn` inside act and lets the core's events and the renderer's other calls come in
 * for `ms`, without waiting for the run.
 */
export async function whileRunning(fn: () => void | Promise<void> = () => undefined, ms = 30): Promise<void> {
  await act(async () => {
    await fn();
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
}
