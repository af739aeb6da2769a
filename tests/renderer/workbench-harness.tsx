// The Workbench on a real core and the LLM test server, and ways to read what it shows (shared by the chat tests).
import { Profiler } from 'react';
import type { HostEvent } from '../../shared/contract/events';
import type { ChatSession } from '../../shared/types/chat';
import { App } from '../../renderer/src/app/App';
import { byLabel, byTestId, controlFrames, key, navButton, renderShell, settle, typeInto } from './harness';
import type { RealHost, RealHostOptions } from './real-host';
import { chatCore, coreSent, session, type ChatCore } from './real-chat';

export interface Open {
  /** Options for the core (the bundled Lumia packs for council tests, say). */
  host?: RealHostOptions;
  /** Writes into the core's data folder before it starts. */
  prepare?: (dataDir: string) => void;
  /** Imported into the core before the Workbench opens (default: Tavern night, s1, no messages). */
  sessions?: ChatSession[];
  arrange?: (core: ChatCore) => unknown;
}

/** The Workbench on a core whose main connection is the LLM test server, with the animation frames in the test's hands. */
export async function openWorkbench(open: Open = {}) {
  const frames = controlFrames();
  const core = await chatCore(open.host, open.prepare ? { prepare: open.prepare } : {});
  for (const doc of open.sessions ?? [session()]) await core.host.arrange('chat.sessions.import', { json: JSON.stringify(doc) });
  await open.arrange?.(core);
  let commits = 0;
  const rendered = await renderShell(
    core.host,
    <Profiler id="app" onRender={() => void (commits += 1)}>
      <App />
    </Profiler>,
  );
  await settle(() => navButton(rendered.container, 'Workbench').click());
  await settle();
  const panel = byTestId(rendered.container, 'panel-workbench');
  return { ...rendered, ...core, frames, panel, commits: () => commits };
}

export type Workbench = Awaited<ReturnType<typeof openWorkbench>>;

/**
 * Waits until the core has sent what `done` looks for (bounded), lets the renderer take in what arrived (and answer
 * the calls it makes on it), then runs the animation frame the wiring scheduled for the chat events.
 */
export async function until(w: Workbench, what: string, done: (events: readonly HostEvent[]) => boolean) {
  await settle(() => coreSent(w, what, done));
  await settle(() => w.frames.run());
}

export async function send(panel: HTMLElement, text: string) {
  const box = byLabel<HTMLTextAreaElement>(panel, 'Message');
  await settle(() => typeInto(box, text));
  await settle(() => void key(box, { key: 'Enter' }));
}

export function liveMessage(panel: HTMLElement): HTMLElement {
  const all = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="assistant"]')];
  const last = all[all.length - 1];
  if (!last) throw new Error('no assistant message');
  return last;
}

/** A reply as a person reads it: its text segments and, where they sit, each card's status, attributes and words. */
export function readReply(message: HTMLElement): Array<string | Record<string, string | undefined>> {
  return [...message.querySelectorAll<HTMLElement>('[data-testid="message-text"], [data-testid="tool-call"]')].map((el) =>
    el.dataset.testid === 'tool-call'
      ? { id: el.dataset.callId, phase: el.dataset.phase, result: el.dataset.result, status: byTestId(el, 'tool-call-status').textContent!, text: el.textContent! }
      : el.textContent!,
  );
}

/** The reply's text, all segments (tool-call cards sit between them where the calls happened). */
export function replyText(message: HTMLElement): string {
  return [...message.querySelectorAll('[data-testid="message-text"]')].map((el) => el.textContent).join('');
}

export function cards(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>('[data-testid="tool-call"]')];
}

export async function savedSession(host: RealHost, sessionId = 's1'): Promise<ChatSession> {
  return host.arrange('chat.sessions.get', { sessionId });
}

/** The messages the LLM server was sent in generation request `i`. */
export function sentMessages(w: Workbench, i: number): Array<{ role: string; content: string | null; tool_call_id?: string }> {
  return (w.llm.generations[i]!.body as { messages: Array<{ role: string; content: string | null; tool_call_id?: string }> }).messages;
}
