// Dialogs a backend opens for the person (spindle.modal.open/confirm, prompt.input, textEditor.open): announced to
// every window (`extension.dialog`), answered by the first (`extensions.dialogAnswer`), the others told it is gone
// (`extension.dialog-closed`); a window that opens later asks for those still waiting. The call waits for the person,
// as Lumiverse's does, within bounds: two open at once and ten a minute per extension, closed as cancelled after
// waitMs with no answer (no window, or nobody there), and when the extension's worker stops. The window draws them as text only, with the extension's name.
import { randomUUID } from 'node:crypto';
import type { HostEvent } from '../../../../shared/contract/events';
import type { BackendDialog, BackendDialogKind } from '../../../../shared/spindle/backend-dialog';
import { fail, type HandlersOf } from './handlers';
import type { Clock, Timers } from '../../ports';

/** Two open at once (Lumiverse stacks two), ten opened a minute (one reopening after each cancel cannot hold the app). */
export const DIALOG_LIMITS = { perExtension: 2, waitMs: 30 * 60_000, perMinute: 10 };

interface Open {
  extensionId: string;
  kind: BackendDialogKind;
  params: Record<string, unknown>;
  /** The extension's own name for it (modalRequestId, editorRequestId), for its close. */
  handle?: string;
  settle(answer: unknown, by: 'user' | 'extension' | 'cleanup'): void;
}

type Dialogs = HandlersOf<'modal'> & HandlersOf<'prompt'> & HandlersOf<'textEditor'>;
export type DialogEvent = Extract<HostEvent, { type: 'extension.dialog' | 'extension.dialog-closed' }>;

export class BackendDialogs {
  private readonly open = new Map<string, Open>();
  /** When each extension opened its dialogs in the last minute. */
  private readonly opened = new Map<string, number[]>();

  constructor(
    private readonly emit: (event: DialogEvent) => void,
    private readonly timers: Timers,
    private readonly clock: Clock,
    private readonly limits = DIALOG_LIMITS,
  ) {}

  /** Shows a dialog and waits: `read` turns the window's answer (or null: cancelled) into the call's result. */
  private ask<T>(extensionId: string, kind: BackendDialogKind, params: Record<string, unknown>, read: (answer: unknown, by: 'user' | 'extension' | 'cleanup', dialogId: string) => T, handle?: string): Promise<T> {
    const mine = [...this.open.values()].filter((d) => d.extensionId === extensionId);
    if (mine.length >= this.limits.perExtension) fail('RATE_LIMITED', `At most ${this.limits.perExtension} dialogs of one extension are open at once.`);
    if (handle && mine.some((d) => d.handle === handle)) fail('INVALID_INPUT', `A dialog named ${handle} is already open.`);
    const now = this.clock.now();
    const recent = (this.opened.get(extensionId) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= this.limits.perMinute) fail('RATE_LIMITED', `At most ${this.limits.perMinute} dialogs of one extension a minute.`);
    this.opened.set(extensionId, [...recent, now]);
    const dialogId = randomUUID();
    return new Promise<T>((resolve) => {
      const timer = this.timers.setTimeout(() => this.close(dialogId, null, 'cleanup'), this.limits.waitMs);
      this.open.set(dialogId, {
        extensionId,
        kind,
        params,
        ...(handle ? { handle } : {}),
        settle: (answer, by) => {
          this.timers.clearTimeout(timer);
          resolve(read(answer, by, dialogId));
        },
      });
      this.emit({ type: 'extension.dialog', dialog: { dialogId, extensionId, kind, params } });
    });
  }

  private close(dialogId: string, answer: unknown, by: 'user' | 'extension' | 'cleanup'): boolean {
    const dialog = this.open.get(dialogId);
    if (!dialog) return false;
    this.open.delete(dialogId);
    this.emit({ type: 'extension.dialog-closed', dialogId });
    dialog.settle(answer, by);
    return true;
  }

  /** Its close: by the name it gave the dialog, or the id the host gave it; another extension's is never found. */
  private closeNamed(extensionId: string, kind: BackendDialogKind, name: string): void {
    const found = [...this.open].find(([id, d]) => d.extensionId === extensionId && d.kind === kind && (d.handle === name || id === name));
    if (found) this.close(found[0], null, 'extension');
  }

  /** The dialogs waiting for the person, for a window that opens (or comes back) after they were announced. */
  pending(): BackendDialog[] {
    return [...this.open].map(([dialogId, d]) => ({ dialogId, extensionId: d.extensionId, kind: d.kind, params: d.params }));
  }

  /** The person answered in a window: false when another window answered first (or it is gone). */
  answer(dialogId: string, answer: unknown): boolean {
    return this.close(dialogId, answer, 'user');
  }

  /** Its worker stopped: its dialogs go. */
  closeAll(extensionId: string): void {
    for (const [id, d] of [...this.open]) if (d.extensionId === extensionId) this.close(id, null, 'cleanup');
  }

  handlers(): Dialogs {
    const field = (answer: unknown, key: string) => (answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[key] : undefined);
    return {
      'modal.confirm': ({ options }, caller) => this.ask(caller.extensionId, 'confirm', options, (answer) => ({ confirmed: field(answer, 'confirmed') === true })),
      'prompt.input': ({ options }, caller) =>
        this.ask(caller.extensionId, 'input', options, (answer) => {
          const value = field(answer, 'value');
          // As typed (a multi-line answer keeps its indentation), as Lumiverse returns it.
          return typeof value === 'string' ? { value, cancelled: false } : { value: null, cancelled: true };
        }),
      'textEditor.open': ({ options = {} }, caller) => {
        const original = options.value ?? '';
        return this.ask(
          caller.extensionId,
          'textEditor',
          { title: options.title ?? 'Edit Text', value: original, placeholder: options.placeholder ?? '' },
          (answer) => {
            const text = field(answer, 'text');
            return typeof text === 'string' ? { text, cancelled: false } : { text: original, cancelled: true };
          },
          options.editorRequestId,
        );
      },
      'textEditor.close': ({ editorRequestId }, caller) => {
        this.closeNamed(caller.extensionId, 'textEditor', editorRequestId);
        return null;
      },
      'modal.open': ({ options }, caller) => {
        const { modalRequestId, ...shown } = options;
        return this.ask(caller.extensionId, 'modal', shown, (_answer, by, dialogId) => ({ openRequestId: modalRequestId ?? dialogId, dismissedBy: by }), modalRequestId);
      },
      // Lumiverse's openRequestId: the modalRequestId the extension gave, or the id the result named.
      'modal.close': ({ openRequestId }, caller) => {
        this.closeNamed(caller.extensionId, 'modal', openRequestId);
        return null;
      },
    };
  }
}
