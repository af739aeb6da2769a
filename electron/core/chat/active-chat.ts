// The chat extensions see as active (spindle.chats.getActive): the one open in the window, or the last a turn ran
// in. A change is told as Lumiverse tells it: the settings changed (SETTINGS_UPDATED { key: 'activeChatId', value },
// and the persona, the chat's own here), which some extensions take as their only sign of it, then CHAT_SWITCHED { chatId }; and as CHAT_CHANGED, which the
// Workbench sent before.
import { activeChatSettings, type ExtensionPipeline } from '../extensions/pipeline/pipeline-bridge';

export class ActiveChat {
  private active: string | null = null;

  constructor(private readonly pipeline: () => ExtensionPipeline | undefined) {}

  get id(): string | null {
    return this.active;
  }

  /** Tells extensions about a chat event; one in another session first says the active chat changed. */
  tell(sessionId: string, event?: string, payload?: unknown): void {
    this.switchTo(sessionId);
    if (event) this.pipeline()?.broadcast(event, payload);
  }

  switchTo(sessionId: string | null): void {
    if (this.active === sessionId) return;
    this.active = sessionId;
    const pipeline = this.pipeline();
    for (const setting of activeChatSettings(sessionId)) pipeline?.broadcast('SETTINGS_UPDATED', setting);
    pipeline?.broadcast('CHAT_SWITCHED', { chatId: sessionId });
    if (sessionId !== null) pipeline?.broadcast('CHAT_CHANGED', { chatId: sessionId });
  }
}
