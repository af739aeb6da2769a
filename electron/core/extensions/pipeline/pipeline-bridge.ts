// What the chat pipeline sees of extensions: the handlers and macros they registered (running workers only,
// permissions asked at the moment of use), a way to call each one in its worker, and events to broadcast.
import { randomUUID } from 'node:crypto';
import { HostFailure, type HostError } from '../../../../shared/errors';
import { frontendMessageRefusal, MAX_FRONTEND_MESSAGE_CHARS } from '../../../../shared/limits';
import { RecentAmount } from '../per-extension-limits';
import { checkJsonBudget } from '../../../../shared/json-budget';
import { eventPayloadFor } from '../../../../shared/spindle/event-access';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import type { Clock } from '../../ports';
import { personaIdOf } from '../../../../shared/spindle/lumiverse-ids';
import type { Entry } from '../extension-entry';
import { KIND_PERMISSION, type PipelineRegistrations, type RegistrationKind } from '../spindle-host/registrations';
import type { PeerWorker } from '../spindle-host/spindle-host';

export type PipelineCallResult = { ok: true; value: unknown } | { ok: false; error: HostError };

/**
 * Lumiverse's SETTINGS_UPDATED payloads when the active chat changes (told before CHAT_SWITCHED): the chat, and the
 * persona, which here is the chat's own (spindle.personas.getActive answers it).
 */
export const activeChatSettings = (chatId: string | null) => [
  { key: 'activeChatId', value: chatId },
  { key: 'activePersonaId', value: chatId === null ? null : personaIdOf(chatId) },
];

/** Tells an extension's backend of an event, as much of it as its grants let it hear (event-access.ts). */
export function tellBackend(entry: Pick<Entry, 'id' | 'granted' | 'worker'>, event: string, payload: unknown): void {
  const heard = eventPayloadFor(event, payload, entry.granted, entry.id);
  if (heard !== null) entry.worker?.sendEvent(event, heard);
}

export interface PipelineHandlerRef {
  extensionId: string;
  extensionName: string;
  kind: RegistrationKind;
  id: string;
  priority: number;
  /** What the extension asked for at registration, if anything. */
  timeoutMs?: number;
  call(args: unknown[], timeoutMs: number, signal: AbortSignal): Promise<PipelineCallResult>;
}

export interface ExtensionMacroRef {
  extensionId: string;
  extensionName: string;
  name: string;
  description: string;
  /** Pushed with updateMacroValue: used as it is, without a call. */
  value?: string;
  /** Absent for push-only macros (registered with no handler function). */
  call?(context: unknown, timeoutMs: number, signal: AbortSignal): Promise<PipelineCallResult>;
}

export interface ExtensionPipeline {
  /** Running extensions' handlers of one kind whose permission is still granted, lowest priority first. */
  handlers(kind: RegistrationKind): PipelineHandlerRef[];
  macros(): ExtensionMacroRef[];
  allowed(extensionId: string, permission: ExtensionPermission): boolean;
  /** The running extension that applies this chat's prompt regex scripts itself (promptRegex.setOwnedChats), if any. */
  promptRegexOwner(chatId: string): string | null;
  /** A notification event to every running extension's spindle.on handlers. */
  broadcast(event: string, payload: unknown): void;
  /** What its backend sent with sendToFrontend, oldest first. */
  frontendMessages(extensionId: string): Array<{ at: number; payload: unknown }>;
  /** Hands a message to its onFrontendMessage handlers, as its frontend would; false when it is not running. */
  sendFrontend(extensionId: string, payload: unknown): boolean;
}



const nameOf = (entry: Entry) => entry.loaded?.manifest.name ?? entry.id;

/**
 * A running extension's worker as other extensions' requests reach it (the shared RPC pool, its providers). One still
 * starting counts: its entry module may read the pool, or be read, before it has finished loading.
 */
export function peerWorker(entry: Entry | undefined, clock: Clock): PeerWorker | null {
  const worker = entry?.worker;
  if (!entry || !worker || (worker.state !== 'running' && worker.state !== 'starting')) return null;
  return {
    granted: [...entry.granted],
    call: (kind, id, args, label, timeoutMs, signal) => worker.callPipeline({ requestId: `peer-${randomUUID()}`, kind, id, args, label: `${nameOf(entry)} ${label}`, deadline: clock.now() + timeoutMs, signal }),
  };
}

/** What each extension's frontend may send its backend in a window (a few of the largest bootstraps, not a flood). */
export const FRONTEND_MESSAGE_BUDGET = { chars: 64 * 1024 * 1024, windowMs: 10_000 };

/** `broadcast` also goes to `frontends`: the window hands each event to the extensions' frames. */
export function extensionPipeline(
  entries: () => Iterable<Entry>,
  registrations: PipelineRegistrations,
  clock: Clock,
  frontends: (event: string, payload: unknown) => void = () => undefined,
  frontendBudget: RecentAmount = new RecentAmount(FRONTEND_MESSAGE_BUDGET.chars, FRONTEND_MESSAGE_BUDGET.windowMs, () => clock.now()),
): ExtensionPipeline {
  const running = () => [...entries()].filter((e) => e.worker?.state === 'running');
  const find = (extensionId: string) => {
    const entry = [...entries()].find((e) => e.id === extensionId);
    if (!entry) throw new HostFailure({ code: 'NOT_FOUND', message: `No extension "${extensionId}".`, path: '/id' });
    return entry;
  };
  const caller = (entry: Entry, kind: string, id: string, label: string) => (args: unknown[], timeoutMs: number, signal: AbortSignal) => {
    const worker = entry.worker;
    if (!worker) return Promise.resolve<PipelineCallResult>({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: `Extension "${entry.id}" is not running.` } });
    return worker.callPipeline({ requestId: `pipe-${randomUUID()}`, kind, id, args, label, deadline: clock.now() + timeoutMs, signal });
  };
  const broadcast = (event: string, payload: unknown) => {
    for (const entry of running()) tellBackend(entry, event, payload);
    // The window applies the same rule per frame (each frame's extension has its own grants).
    frontends(event, payload);
  };
  return {
    handlers(kind) {
      const out: PipelineHandlerRef[] = [];
      for (const entry of running()) {
        if (!entry.granted.has(KIND_PERMISSION[kind])) continue;
        for (const reg of registrations.of(entry.id).pipeline.values()) {
          if (reg.kind !== kind) continue;
          out.push({
            extensionId: entry.id,
            extensionName: nameOf(entry),
            kind,
            id: reg.id,
            priority: reg.priority,
            // The registration's own budget, else the manifest's interceptorTimeoutMs (Lumiverse's order).
            ...((reg.timeoutMs ?? entry.loaded?.manifest.interceptorTimeoutMs) ? { timeoutMs: reg.timeoutMs ?? entry.loaded?.manifest.interceptorTimeoutMs } : {}),
            call: caller(entry, kind, reg.id, `${nameOf(entry)} ${kind.replace(/_/g, ' ')}`),
          });
        }
      }
      // Stable: equal priorities keep extension order.
      return out.sort((a, b) => a.priority - b.priority);
    },
    macros() {
      const out: ExtensionMacroRef[] = [];
      for (const entry of running()) {
        for (const [key, macro] of registrations.of(entry.id).macros) {
          const call = caller(entry, 'macro', key, `macro {{${macro.name}}}`);
          out.push({
            extensionId: entry.id,
            extensionName: nameOf(entry),
            name: macro.name,
            description: macro.description,
            ...(macro.value !== undefined ? { value: macro.value } : {}),
            ...(macro.hasHandler ? { call: (context: unknown, timeoutMs: number, signal: AbortSignal) => call([context], timeoutMs, signal) } : {}),
          });
        }
      }
      return out;
    },
    allowed: (extensionId, permission) => [...entries()].some((e) => e.id === extensionId && e.granted.has(permission)),
    promptRegexOwner: (chatId) => {
      const owner = running().find((e) => registrations.of(e.id).promptRegexChats.has(chatId));
      return owner ? nameOf(owner) : null;
    },
    broadcast,
    frontendMessages: (extensionId) => [...registrations.of(find(extensionId).id).frontend],
    sendFrontend(extensionId, payload) {
      const entry = find(extensionId);
      // The window's frames check the same budget (frame-handlers.ts): a bounded walk that stops at the cap, not a copy.
      const measured = { bytes: 0 };
      const over = checkJsonBudget(payload ?? null, { maxBytes: MAX_FRONTEND_MESSAGE_CHARS, maxDepth: 64 }, measured);
      if (over) throw new HostFailure({ ...frontendMessageRefusal(over), path: `/payload${over.path ?? ''}` });
      if (entry.worker?.state !== 'running') return false;
      // Large messages are welcome, a stream of them is not: the host's thread and its worker keep room for others.
      if (!frontendBudget.take(entry.id, measured.bytes)) {
        throw new HostFailure({ code: 'RATE_LIMITED', message: `A frontend sends its backend at most ${FRONTEND_MESSAGE_BUDGET.chars} characters of JSON in ${FRONTEND_MESSAGE_BUDGET.windowMs / 1000} s; this message was not sent.`, path: '/payload' });
      }
      // As Lumiverse's socket does: a frontend's intercepted tag is an event too (SimTracker's backends rebuild on it),
      // named by the host, so a frontend cannot speak for another extension.
      if (payload && typeof payload === 'object' && (payload as Record<string, unknown>).type === 'message_tag_intercepted') {
        broadcast('MESSAGE_TAG_INTERCEPTED', { ...(payload as Record<string, unknown>), extensionId: entry.id, identifier: entry.id });
      }
      entry.worker.sendFrontendMessage(payload ?? null);
      return true;
    },
  };
}
